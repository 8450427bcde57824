package extend

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// The extension's confirmation prints model's facts, each on its labelled row, in order,
// and what cannot be undone: the words the dialogs show.
func TestSummaryPrintsTheFactsInOrder(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", TotalCount: 2, State: model.StateActive, Start: start, End: start.Add(48 * time.Hour)}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Start: b.End, End: b.End.Add(24 * time.Hour), DurationHours: 24,
		Fee: model.MustMoney("1000.00"), Currency: "USD"}
	info := cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated, Reason: "test"}
	var w strings.Builder
	printExtensionSummary(&w, info, "123456789012", b, off, extensionComparison(b, off))
	cmdtest.FactsInOrder(t, "extend", w.String(),
		model.ExtensionFacts(b, off, "123456789012", extensionComparison(b, off).BreakEven(), time.Local))
}
