package purchase

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// The purchase's confirmation prints model's facts, each on its labelled row, in order, and
// what cannot be undone: the words the dialogs show.
func TestSummaryPrintsTheFactsInOrder(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := model.Offering{Source: model.SourceCapacityBlock, ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.Add(48 * time.Hour), DurationHours: 48,
		Fee: model.MustMoney("6211.123456"), Currency: "USD"}
	info := cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated, Reason: "test"}
	var w strings.Builder
	printOfferingSummary(&w, info, "123456789012", o, "Linux/UNIX", nil)
	cmdtest.FactsInOrder(t, "purchase", w.String(),
		model.PurchaseFacts(o, "123456789012", pricing.Compare(cmdutil.PriceCatalog(), o).BreakEven(), time.Local))
}
