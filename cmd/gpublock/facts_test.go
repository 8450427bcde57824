package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// The commands' confirmations print model's facts, each on its labelled row, in order, and
// what cannot be undone: the words the dialogs show.
func TestSummariesPrintTheFactsInOrder(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := model.Offering{Source: model.SourceCapacityBlock, ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.Add(48 * time.Hour), DurationHours: 48,
		Fee: model.MustMoney("6211.123456"), Currency: "USD"}
	b := model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", TotalCount: 2, State: model.StateActive, Start: start, End: start.Add(48 * time.Hour)}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Start: b.End, End: b.End.Add(24 * time.Hour), DurationHours: 24,
		Fee: model.MustMoney("1000.00"), Currency: "USD"}
	info := cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated, Reason: "test"}
	for _, c := range []struct {
		name  string
		print func(*strings.Builder)
		facts model.Facts
	}{
		{"purchase", func(w *strings.Builder) { purchase.PrintOfferingSummary(w, info, "123456789012", o, "Linux/UNIX", nil) },
			model.PurchaseFacts(o, "123456789012", pricing.Compare(cmdutil.PriceCatalog(), o).BreakEven(), time.Local)},
		{"extend", func(w *strings.Builder) {
			extend.PrintExtensionSummary(w, info, "123456789012", b, off, extend.ExtensionComparison(b, off))
		}, model.ExtensionFacts(b, off, "123456789012", extend.ExtensionComparison(b, off).BreakEven(), time.Local)},
	} {
		var w strings.Builder
		c.print(&w)
		out := w.String()
		at, width := 0, spending.FactsLabelWidth(c.facts)
		for _, f := range c.facts.Lines {
			row := "  " + spending.PadRight(f.Label+":", width) + " " + f.Value + "\n"
			i := strings.Index(out[at:], row)
			if i < 0 {
				t.Errorf("%s: no row %q after the previous fact:\n%s", c.name, row, out)
				continue
			}
			at += i + len(row)
		}
		if c.facts.Final == "" || !strings.Contains(out[at:], c.facts.Final) {
			t.Errorf("%s: %q is not said after the facts:\n%s", c.name, c.facts.Final, out)
		}
	}
}
