package extend

import (
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// The command line knows how to show every source's extension: a source added without it
// fails here rather than in a user's hands.
func TestEverySourceExtensionIsShown(t *testing.T) {
	for _, s := range model.Sources() {
		e, ok := extendShows[s]
		if !ok || e.what == "" || e.check == nil || e.list == nil || e.find == nil || e.refuse == nil || e.noOffers == nil || e.summary == nil || e.print == nil {
			t.Errorf("%s: no complete extendShow", s)
		}
		if caps, _ := cmdutil.CapsOf(s); caps.DryRun && e.dryRunFields == nil {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
}
