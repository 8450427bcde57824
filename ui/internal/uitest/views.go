package uitest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/components/searchform"
)

// formLabels are the search form's field labels, by field.
var formLabels = map[searchform.Field]string{
	searchform.Source: "Source", searchform.Types: "Types", searchform.Count: "Count", searchform.Start: "Start",
	searchform.End: "End", searchform.Duration: "Duration", searchform.Regions: "Regions",
}

// FieldErrors is the ✗ the view shows under each of the form's fields, by field.
func FieldErrors(view string) map[searchform.Field]string {
	errs := map[searchform.Field]string{}
	at := searchform.Field(-1)
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
		for f, label := range formLabels {
			if strings.HasPrefix(l, " "+label+" ") || strings.HasPrefix(l, "›"+label+" ") {
				at = f
			}
		}
		if msg, ok := strings.CutPrefix(l, "  ✗ "); ok && at >= 0 {
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

// FocusedField is the form's field the view marks (›) as focused; -1 when none is.
func FocusedField(view string) searchform.Field {
	v := ansi.Strip(view)
	for f, l := range formLabels {
		if strings.Contains(v, "›"+l+" ") {
			return f
		}
	}
	return -1
}
