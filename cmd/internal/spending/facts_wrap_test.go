package spending

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpublock/gpublock/model"
)

// The confirmation's facts fit 80 columns, wrapped between words, never cut inside one.
func TestPrintFactsWrapsAtWords(t *testing.T) {
	long := "the added hours are cheaper than on-demand from 73% utilization · on-demand $55.040/h (AWS Price List API 2026-11-30)"
	final := "This purchase cannot be cancelled, refunded or changed: the whole fee is charged at once, whatever is used of the block."
	var b strings.Builder
	PrintFacts(&b, model.Facts{Lines: []model.Fact{{Label: "Break-even", Value: long}}, Final: final})
	out := b.String()
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	words := strings.Fields(long + " " + final)
	if got := strings.Fields(strings.ReplaceAll(out, "Break-even:", "")); strings.Join(got, " ") != strings.Join(words, " ") {
		t.Errorf("words changed or cut:\n%s", out)
	}
}
