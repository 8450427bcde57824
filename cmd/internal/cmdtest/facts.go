package cmdtest

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/model"
)

// Says reports whether out says want, whatever the wrapping of its lines.
func Says(out, want string) bool {
	return strings.Contains(out, want) || strings.Contains(Flat(out), Flat(want))
}

// Flat is s with every run of white space one space: text as read, not as wrapped.
func Flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// FactsInOrder checks that a confirmation (out) prints model's facts, each on its labelled
// row, in order, and then what cannot be undone: the words the dialogs show. Rows may wrap.
func FactsInOrder(t *testing.T, name, out string, facts model.Facts) {
	t.Helper()
	out = Flat(out) + " "
	at := 0
	for _, f := range facts.Lines {
		row := Flat(f.Label+": "+f.Value) + " "
		i := strings.Index(out[at:], row)
		if i < 0 {
			t.Errorf("%s: no row %q after the previous fact:\n%s", name, row, out)
			continue
		}
		at += i + len(row)
	}
	if facts.Final == "" || !strings.Contains(out[at:], Flat(facts.Final)) {
		t.Errorf("%s: %q is not said after the facts:\n%s", name, facts.Final, out)
	}
}
