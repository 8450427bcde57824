package main

import (
	"context"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Every source is linked, and the command line knows how to show its purchase and its
// extension: a source added without them fails here rather than in a user's hands.
func TestEverySourceIsShown(t *testing.T) {
	if got := registeredSources(); len(got) != len(model.Sources()) {
		t.Fatalf("registered %v, want every one of %v", got, model.Sources())
	}
	for _, s := range model.Sources() {
		p, ok := purchaseShows[s]
		if !ok || p.what == "" || p.check == nil || p.notListed == nil || p.summary == nil || p.recovered == nil || p.print == nil || p.bought == nil {
			t.Errorf("%s: no complete purchaseShow", s)
		}
		e, ok := extendShows[s]
		if !ok || e.what == "" || e.check == nil || e.list == nil || e.find == nil || e.refuse == nil || e.noOffers == nil || e.summary == nil || e.print == nil {
			t.Errorf("%s: no complete extendShow", s)
		}
		if caps, _ := capsOf(s); caps.DryRun && (p.idField == "" || e.dryRunFields == nil) {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
	if sourcePrefix(model.SourceCapacityBlock) != "" || sourcePrefix(model.SourceTrainingPlan) != "training plans: " {
		t.Errorf("prefixes %q, %q", sourcePrefix(model.SourceCapacityBlock), sourcePrefix(model.SourceTrainingPlan))
	}
}

// The program's sources are listed with the Capacity Blocks first; a source that is not in
// the program is refused by name, never opened as something else.
func TestSourceList(t *testing.T) {
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	src, err := openSource(c, model.SourceCapacityBlock)
	if err != nil || src.Caps().Source != model.SourceCapacityBlock || !src.Caps().DryRun || !src.Caps().Launch {
		t.Fatalf("capacity blocks: %v, %+v", err, src)
	}
	if got := registeredSources(); len(got) != 2 || got[0] != model.SourceCapacityBlock || got[1] != model.SourceTrainingPlan {
		t.Errorf("registered %v, want the Capacity Blocks first, then the training plans", got)
	}
	if caps, ok := capsOf(model.SourceTrainingPlan); !ok || caps.Noun != "training plan" || caps.DryRun {
		t.Errorf("caps %+v, %v", caps, ok)
	}
	if _, err := openSource(c, model.Source(99)); err == nil {
		t.Error("an unknown source opened")
	}
	if _, ok := source.Owning([]source.Source{src}, "my-plan"); ok {
		t.Error("a plan's name was taken for a Capacity Reservation id")
	}
	if got, ok := source.Owning([]source.Source{src}, "cr-0123456789abcdef0"); !ok || got.Caps().Source != model.SourceCapacityBlock {
		t.Error("a Capacity Reservation id was not routed to the Capacity Blocks")
	}
}

// An offering id is routed to its source by its documented form: a plan offering's tpo-
// id is the plans', and an id of no documented form is nobody's.
func TestOfferingSource(t *testing.T) {
	for id, want := range map[string]bool{"tpo-" + "0123456789abcdef": true, "cbr-0123456789abcdef0": false, "tpeo-0123": false, "": false} {
		s, ok := offeringSource(id)
		if ok != want || (ok && s != model.SourceTrainingPlan) {
			t.Errorf("%q: %v %v, want %v", id, s, ok, want)
		}
	}
}
