package cmdtest

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// FactsInOrder checks that a confirmation (out) prints model's facts, each on its labelled
// row, in order, and then what cannot be undone: the words the dialogs show.
func FactsInOrder(t *testing.T, name, out string, facts model.Facts) {
	t.Helper()
	at, width := 0, spending.FactsLabelWidth(facts)
	for _, f := range facts.Lines {
		row := "  " + spending.PadRight(f.Label+":", width) + " " + f.Value + "\n"
		i := strings.Index(out[at:], row)
		if i < 0 {
			t.Errorf("%s: no row %q after the previous fact:\n%s", name, row, out)
			continue
		}
		at += i + len(row)
	}
	if facts.Final == "" || !strings.Contains(out[at:], facts.Final) {
		t.Errorf("%s: %q is not said after the facts:\n%s", name, facts.Final, out)
	}
}
