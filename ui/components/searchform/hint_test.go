package searchform

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// The n/m after each type is explained under the types' label whenever the rows show it,
// at every width the form is drawn at; a form too narrow for the counts does not speak of them.
func TestTypeCountsAreExplained(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	count := regexp.MustCompile(`\d+/\d+$`)
	for _, w := range []int{30, 38, 44, 60, 80} {
		v := ansi.Strip(m.View(w, 60, true))
		shows := false
		for _, l := range strings.Split(v, "\n") {
			if (strings.Contains(l, "[ ]") || strings.Contains(l, "[x]")) && strings.Contains(l, "×") {
				shows = shows || count.MatchString(strings.TrimRight(l, " "))
			}
		}
		explained := strings.Contains(v, "n/m:")
		if shows != explained {
			t.Errorf("width %d: counts shown %v, explained %v:\n%s", w, shows, explained, v)
		}
		if w >= 38 && !shows {
			t.Errorf("width %d: no counts", w)
		}
	}
}
