package main

import (
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"

	"testing"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

// Every source is linked, and the command line knows how to show its purchase and its
// extension: a source added without them fails here rather than in a user's hands.
func TestEverySourceIsShown(t *testing.T) {
	if got := aws.RegisteredSources(); len(got) != len(model.Sources()) {
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
		if caps, _ := aws.CapsOf(s); caps.DryRun && (p.idField == "" || e.dryRunFields == nil) {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
	if cmdutil.SourcePrefix(model.SourceCapacityBlock) != "" || cmdutil.SourcePrefix(model.SourceTrainingPlan) != "training plans: " {
		t.Errorf("prefixes %q, %q", cmdutil.SourcePrefix(model.SourceCapacityBlock), cmdutil.SourcePrefix(model.SourceTrainingPlan))
	}
}
