package purchase

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
)

// Every field of the dialog, a block's or a plan's, starts its value in one column: the
// facts', the tags' and the dry run's labels are as wide as each other.
func TestValuesInOneColumn(t *testing.T) {
	for _, src := range []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan} {
		d := testDialog(t, src, nil)
		cols := map[string]int{}
		for _, l := range d.lines(100) {
			l = ansi.Strip(l)
			for _, label := range []string{"Account", "Upfront fee", "Offering", "Tags", "Dry run"} {
				if rest, ok := strings.CutPrefix(l, "  "+label); ok && strings.HasPrefix(rest, " ") {
					cols[label] = len(l) - len(strings.TrimLeft(rest, " "))
				}
			}
		}
		if len(cols) != 5 {
			t.Fatalf("%v: found the labels %v, want 5", src, cols)
		}
		for label, c := range cols {
			if c != cols["Account"] {
				t.Errorf("%v: %s's value starts at %d, Account's at %d", src, label, c, cols["Account"])
			}
		}
	}
}
