package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/key"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

var testNav = table.Nav{
	Up:       key.NewBinding(key.WithKeys("up", "k")),
	Down:     key.NewBinding(key.WithKeys("down", "j")),
	PageUp:   key.NewBinding(key.WithKeys("pgup", "b")),
	PageDown: key.NewBinding(key.WithKeys("pgdown", "f")),
	HalfUp:   key.NewBinding(key.WithKeys("ctrl+u")),
	HalfDown: key.NewBinding(key.WithKeys("ctrl+d")),
	Top:      key.NewBinding(key.WithKeys("g", "home")),
	Bottom:   key.NewBinding(key.WithKeys("G", "end")),
}

// comparedPage is a p5.48xlarge block in us-east-1, which the embedded catalog compares
// with on-demand, laid out for w×h cells.
func comparedPage(t *testing.T, id string, w, h int) Page {
	t.Helper()
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := twoDays(id, start, "2000")
	c := pricing.Compare(nil, o)
	if c.NoOnDemand {
		t.Fatalf("no on-demand price for the test offering: %s", c.NoOnDemandReason)
	}
	return NewPage(theme.New(false), o, &c, model.Query{}, start.Add(-time.Hour), time.UTC, false, w, h)
}

func shown(t *testing.T, p Page, s Scroll, w, h int) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(p.View(s, true)), "\n")
	if len(lines) != min(h, p.Lines()) {
		t.Fatalf("%d lines in a pane of %d (the detail has %d)", len(lines), h, p.Lines())
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Fatalf("a line wider than %d: %q", w, l)
		}
	}
	return lines
}

// A pane too short for the detail scrolls through all of it, the comparison and the CLI
// commands at the bottom too, and its last line says how much is above and below.
func TestShortPaneScrollsToEveryLine(t *testing.T) {
	const w, h = 58, 11 // the detail pane of a 60×16 terminal
	whole := strings.Split(ansi.Strip(comparedPage(t, "cb-1", w, 200).View(Scroll{}, true)), "\n")
	p := comparedPage(t, "cb-1", w, h)
	first := shown(t, p, Scroll{}, w, h)
	if !strings.Contains(first[0], "cb-1") || !strings.HasPrefix(first[h-1], "↓ ") || !strings.Contains(first[h-1], "more lines · j/k scroll") {
		t.Fatalf("the top of a short pane:\n%s", strings.Join(first, "\n"))
	}
	if l := strings.Split(ansi.Strip(p.View(Scroll{}, false)), "\n")[h-1]; !strings.HasPrefix(l, "↓ ") || strings.Contains(l, "j/k") {
		t.Errorf("unfocused, the scroll line names keys that do not scroll it: %q", l)
	}
	if strings.Contains(strings.Join(first, "\n"), "--instance-platform") {
		t.Fatalf("the purchase command fits a short pane?\n%s", strings.Join(first, "\n"))
	}
	seen := map[string]bool{}
	var s Scroll
	for i := 0; i < 100; i++ {
		for _, l := range shown(t, p, s, w, h)[:h-1] {
			seen[l] = true
		}
		next, used := s.Update(uitest.Key("j"), testNav, p)
		if !used {
			t.Fatal("j was not used")
		}
		if next.Top(p) == s.Top(p) {
			break
		}
		if next.Top(p) != s.Top(p)+1 {
			t.Fatalf("j moved from %d to %d", s.Top(p), next.Top(p))
		}
		s = next
	}
	for _, l := range whole {
		if l != "" && !seen[l] {
			t.Errorf("scrolling never shows %q", l)
		}
	}
	last := shown(t, p, s, w, h)
	if !strings.Contains(last[h-2], "--instance-platform Linux/UNIX") || !strings.HasPrefix(last[h-1], "↑ ") || strings.Contains(last[h-1], "↓") {
		t.Errorf("the end of the detail:\n%s", strings.Join(last, "\n"))
	}
	for _, want := range []string{"On-demand", "Break-even", "describe-capacity-block-offerings"} {
		if !strings.Contains(strings.Join(whole, "\n"), want) {
			t.Errorf("the detail lacks %q", want)
		}
	}
}

// The keys: a page moves by the lines shown, half a page by half, g and G to the ends;
// scrolling past an end stays there, so that the other way moves at once.
func TestScrollKeys(t *testing.T) {
	const w, h = 58, 11
	p := comparedPage(t, "cb-1", w, h)
	rows, end := h-1, p.Lines()-(h-1)
	press := func(s Scroll, keys ...string) Scroll {
		for _, k := range keys {
			var used bool
			if s, used = s.Update(uitest.Key(k), testNav, p); !used {
				t.Fatalf("%s was not used", k)
			}
		}
		return s
	}
	for _, c := range []struct {
		keys []string
		top  int
	}{
		{[]string{"k"}, 0},
		{[]string{"pgdown"}, rows},
		{[]string{"f", "b"}, 0},
		{[]string{"ctrl+d"}, rows / 2},
		{[]string{"G"}, end},
		{[]string{"G", "j", "j", "k"}, end - 1},
		{[]string{"G", "g"}, 0},
		{[]string{"pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgup"}, end - rows},
	} {
		if got := press(Scroll{}, c.keys...).Top(p); got != c.top {
			t.Errorf("%v: top %d, want %d", c.keys, got, c.top)
		}
	}
	if _, used := (Scroll{}).Update(uitest.Key("x"), testNav, p); used {
		t.Error("x scrolled the detail")
	}
	// Another offering is shown from its top; a wider pane keeps the scroll within its lines.
	s := press(Scroll{}, "G")
	if top := s.Top(comparedPage(t, "cb-2", w, h)); top != 0 {
		t.Errorf("another offering starts at line %d", top)
	}
	wide := comparedPage(t, "cb-1", 200, h)
	if top := s.Top(wide); top != wide.Lines()-(h-1) {
		t.Errorf("at 200 cells the end is line %d, the scroll says %d", wide.Lines()-(h-1), top)
	}
}

// A pane tall enough shows everything, with its blank lines and no scroll line; one line
// short drops the blank lines before anything is cut.
func TestTallPaneHasNoScrollLine(t *testing.T) {
	tall := comparedPage(t, "cb-1", 100, 60)
	v := ansi.Strip(tall.View(Scroll{}, true))
	if strings.Contains(v, "more line") || strings.Contains(v, "j/k") || !strings.Contains(v, "\n\n") || strings.Count(v, "\n")+1 != tall.Lines() {
		t.Errorf("a tall pane:\n%s", v)
	}
	blanks := strings.Count(v, "\n\n")
	p := comparedPage(t, "cb-1", 100, tall.Lines()-1)
	if p.Lines() != tall.Lines()-blanks {
		t.Errorf("a pane a line short has %d lines, want %d without the %d blank ones", p.Lines(), tall.Lines()-blanks, blanks)
	}
	if v := ansi.Strip(p.View(Scroll{}, false)); strings.Contains(v, "more line") || strings.Contains(v, "j/k") {
		t.Errorf("the detail fits once its blank lines go, yet says it scrolls:\n%s", v)
	}
}
