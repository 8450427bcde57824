package cmdutil_test

import (
	"context"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// Every source is linked: a source added without its package fails here rather than in a
// user's hands. (purchase and extend check that they show each.)
func TestEverySourceIsLinked(t *testing.T) {
	if got := cmdutil.RegisteredSources(); len(got) != len(model.Sources()) {
		t.Fatalf("registered %v, want every one of %v", got, model.Sources())
	}
	if cmdutil.SourcePrefix(model.SourceCapacityBlock) != "" || cmdutil.SourcePrefix(model.SourceTrainingPlan) != "training plans: " {
		t.Errorf("prefixes %q, %q", cmdutil.SourcePrefix(model.SourceCapacityBlock), cmdutil.SourcePrefix(model.SourceTrainingPlan))
	}
}

// The program's sources are listed with the Capacity Blocks first; a source that is not in
// the program is refused by name, never opened as something else.
func TestSourceList(t *testing.T) {
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	src, err := cmdutil.OpenSource(c, model.SourceCapacityBlock)
	if err != nil || src.Caps().Source != model.SourceCapacityBlock || !src.Caps().DryRun || !src.Caps().Launch {
		t.Fatalf("capacity blocks: %v, %+v", err, src)
	}
	if got := cmdutil.RegisteredSources(); len(got) != 2 || got[0] != model.SourceCapacityBlock || got[1] != model.SourceTrainingPlan {
		t.Errorf("registered %v, want the Capacity Blocks first, then the training plans", got)
	}
	if caps, ok := cmdutil.CapsOf(model.SourceTrainingPlan); !ok || caps.Noun != "training plan" || caps.DryRun {
		t.Errorf("caps %+v, %v", caps, ok)
	}
	if _, err := cmdutil.OpenSource(c, model.Source(99)); err == nil {
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
		s, ok := cmdutil.OfferingSource(id)
		if ok != want || (ok && s != model.SourceTrainingPlan) {
			t.Errorf("%q: %v %v, want %v", id, s, ok, want)
		}
	}
}
