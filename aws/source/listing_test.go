package source

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestClassifyListing(t *testing.T) {
	denied, slow, odd := errors.New("denied"), errors.New("slow"), errors.New("no region")
	err := errors.Join(
		&RegionFailure{Region: "us-east-1", Err: denied},
		fmt.Errorf("wrapped: %w", &RegionFailure{Region: "eu-west-2", Partial: true, Err: slow}),
		odd,
	)
	lf := ClassifyListing(err)
	if !lf.Failed["us-east-1"] || lf.Failed["eu-west-2"] || !lf.Partial["eu-west-2"] || lf.Partial["us-east-1"] || !lf.Other {
		t.Fatalf("ClassifyListing = %+v", lf)
	}
	if len(lf.Problems) != 3 || lf.Problems[0].Err != denied || lf.Problems[1].Region != "eu-west-2" || !lf.Problems[1].Partial ||
		lf.Problems[1].Err != slow || lf.Problems[2].Region != "" || lf.Problems[2].Err != odd {
		t.Fatalf("problems = %+v", lf.Problems)
	}
	if lf.NoneRead([]string{"us-east-1", "eu-west-2"}) {
		t.Error("a region read in part counts as read")
	}
	if !lf.NoneRead([]string{"us-east-1"}) {
		t.Error("the one region listed failed: nothing was read")
	}
	if lf.NoneRead(nil) {
		t.Error("nothing listed is not a failure")
	}
	if none := ClassifyListing(nil); len(none.Problems) != 0 || none.Other || len(none.Failed) != 0 {
		t.Errorf("ClassifyListing(nil) = %+v", none)
	}
	if got := Unjoin(denied); len(got) != 1 || got[0] != denied {
		t.Errorf("Unjoin of one error = %v", got)
	}
}

// Regions that fail alike are one group, said once; another explanation, or the same one
// for missing details, is a group of its own; the order is that of first appearance.
func TestListingFailuresGrouped(t *testing.T) {
	noCreds := errors.New("no credentials")
	err := errors.Join(&RegionFailure{Region: "us-east-1", Err: noCreds}, &RegionFailure{Region: "us-west-2", Err: noCreds},
		&RegionFailure{Region: "eu-north-1", Err: errors.New("throttled")}, &RegionFailure{Region: "ap-south-1", Err: noCreds},
		&RegionFailure{Region: "us-east-2", Partial: true, Err: noCreds}, errors.New("no credentials"))
	groups := ClassifyListing(err).Grouped(func(e error) string { return e.Error() })
	var got []string
	for _, g := range groups {
		got = append(got, fmt.Sprintf("%s|%v|%s", g.Where(), g.Partial, g.Message))
	}
	want := []string{"us-east-1, us-west-2, ap-south-1|false|no credentials", "eu-north-1|false|throttled", "us-east-2|true|no credentials"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
