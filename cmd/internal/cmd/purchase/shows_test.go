package purchase

import (
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// The command line knows how to show every source's purchase: a source added without it
// fails here rather than in a user's hands.
func TestEverySourcePurchaseIsShown(t *testing.T) {
	for _, s := range model.Sources() {
		p, ok := purchaseShows[s]
		if !ok || p.what == "" || p.check == nil || p.notListed == nil || p.summary == nil || p.recovered == nil || p.print == nil || p.bought == nil {
			t.Errorf("%s: no complete purchaseShow", s)
		}
		if caps, _ := cmdutil.CapsOf(s); caps.DryRun && p.idField == "" {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
}
