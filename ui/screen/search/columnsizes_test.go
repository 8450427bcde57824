package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// In 80×24, 120×40 and 200×60 terminals the offerings table shows the columns a choice is
// made on, the region, type and length that tell these rows apart among them (at 80 the
// break-even gives way: the detail says it), and a sort by any key shows its column with
// its whole title and its arrow.
func TestOfferingsColumnsAtTerminalSizes(t *testing.T) {
	sorts := map[string]string{"R": "Region", "Z": "AZ", "T": "Type", "N": "N", "S": "Start UTC", "E": "End UTC", "D": "Length",
		"F": "Upfront fee", "H": "$/inst-h", "A": "$/acc-h", "O": "OD $/h", "V": "vs OD", "B": "Break-even"}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := withResults(unsized().resize(sz[0], sz[1]), uitest.SyntheticOfferings(30))
			if m.focus != PaneResults {
				t.Fatalf("focus %d after the search, want the results", m.focus)
			}
			v := m.view()
			core := []string{"Upfront fee", "$/inst-h", "Start UTC", "Length", "Type", "Region"}
			if sz[0] > 80 {
				core = append(core, "Break-even")
			}
			for _, title := range core {
				if !strings.Contains(v, title) {
					t.Errorf("no %q column:\n%s", title, v)
				}
			}
			for key, title := range sorts {
				v := update(m, keyMsg(key)).view()
				found := false
				for _, edge := range []string{" ", "│", "┃"} {
					for _, arrow := range []string{"▲", "▼"} {
						found = found || strings.Contains(v, edge+title+arrow)
					}
				}
				if !found {
					t.Errorf("sorted by %s: no %q with its arrow:\n%s", key, title, v)
				}
			}
		})
	}
}
