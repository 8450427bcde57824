package cmdutil_test

import (
	"testing"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// Every source is linked: a source added without its package fails here rather than in a
// user's hands. (purchase and extend check that they show each.)
func TestEverySourceIsLinked(t *testing.T) {
	if got := aws.RegisteredSources(); len(got) != len(model.Sources()) {
		t.Fatalf("registered %v, want every one of %v", got, model.Sources())
	}
	if cmdutil.SourcePrefix(model.SourceCapacityBlock) != "" || cmdutil.SourcePrefix(model.SourceTrainingPlan) != "training plans: " {
		t.Errorf("prefixes %q, %q", cmdutil.SourcePrefix(model.SourceCapacityBlock), cmdutil.SourcePrefix(model.SourceTrainingPlan))
	}
}
