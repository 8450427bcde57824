package uitest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// FieldErrors is the ✗ the view shows under each of the search form's fields, by field, the
// fields named by their labels.
func FieldErrors[F comparable](view string, labels map[F]string) map[F]string {
	errs := map[F]string{}
	var at F
	found := false
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		// The form's pane is the leftmost: its lines start with its side.
		l, ok := strings.CutPrefix(l, "│")
		if !ok {
			if l, ok = strings.CutPrefix(l, "┃"); !ok {
				continue
			}
		}
		if i := strings.IndexAny(l, "│┃"); i >= 0 {
			l = l[:i]
		}
		for f, label := range labels {
			if strings.HasPrefix(l, " "+label+" ") || strings.HasPrefix(l, "›"+label+" ") {
				at, found = f, true
			}
		}
		if msg, ok := strings.CutPrefix(l, "  ✗ "); ok && found {
			errs[at] += strings.TrimSpace(msg)
		}
	}
	return errs
}

// Searched reports whether the view shows a search was made.
func Searched(view string) bool { return !strings.Contains(ansi.Strip(view), "No search yet.") }

// FoundOnScreen is the count of a finished search the view shows; -1 when it shows none.
func FoundOnScreen(view string) int {
	got := FoundRE.FindStringSubmatch(ansi.Strip(view))
	if got == nil {
		return -1
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

var aboveRE = regexp.MustCompile(`↑ (\d+) lines? above`)

// DetailTop is the first line of the detail the view shows, from the count of the lines
// above it the pane says.
func DetailTop(view string) int {
	got := aboveRE.FindStringSubmatch(ansi.Strip(view))
	if got == nil {
		return 0
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

// LastLine is the view's last line, the footer.
func LastLine(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	return lines[len(lines)-1]
}

// StatusLine is the line above the footer.
func StatusLine(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	return lines[len(lines)-2]
}

// FocusedField is the form's field the view marks (›) as focused, of the fields named by
// their labels; none when none is.
func FocusedField[F comparable](view string, labels map[F]string, none F) F {
	v := ansi.Strip(view)
	for f, l := range labels {
		if strings.Contains(v, "›"+l+" ") {
			return f
		}
	}
	return none
}

// FindOnScreen is the cell where sub is first drawn in view at or below line from, as a
// person sees the frame: the tests click where the text is, not where the code thinks it is.
func FindOnScreen(t testing.TB, view, sub string, from int) (x, y int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	for y := from; y < len(lines); y++ {
		if i := strings.Index(lines[y], sub); i >= 0 {
			return ansi.StringWidth(lines[y][:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", sub, strings.Join(lines, "\n"))
	return 0, 0
}

// ValueAt is where value is drawn after label on the first line of view that has both: its
// line and its column, as a check that a dialog's values start in one column reads them;
// -1, -1 when no line has them.
func ValueAt(view, label, value string) (row, col int) {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if j := strings.Index(l, label); j >= 0 {
			if k := strings.Index(l[j:], value); k >= 0 {
				return i, ansi.StringWidth(l[:j+k])
			}
		}
	}
	return -1, -1
}
