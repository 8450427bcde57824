package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// At 80 columns a value longer than the pane goes on under itself instead of being cut:
// the fee's source and what the termination time means were lost behind "…".
func TestDetailWrapsLongValues(t *testing.T) {
	b := block("cr-0123456789abcdef0", model.StateActive, 1, end)
	fee, _ := model.ParseMoney("6118.88")
	var lines []string
	for _, l := range detailLines(theme.New(false), model.DefaultWarnRules(), b, fee, true, end.Add(-5*time.Hour), time.UTC, nil, 78) {
		l = ansi.Strip(l)
		if w := ansi.StringWidth(l); w > 78 {
			t.Errorf("a line of %d cells in 78: %q", w, l)
		}
		if strings.HasSuffix(l, "…") && !strings.HasPrefix(l, "Console") {
			t.Errorf("a cut line: %q", l)
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	all := strings.Join(lines, " ")
	for _, want := range []string{
		"$6,118.88 (this machine's purchase journal: the block and its extensions)",
		"instances are terminated from 30 minutes before the end",
		"Reservation   cr-0123456789abcdef0  (y copies)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the detail lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}
