package flows

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// The form's footer names the focused field's keys: it offered "/ filter the types" and
// "←/→ step" on the regions, where neither does anything, and never "a all regions".
func TestFormFooterFollowsTheField(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 200, Height: 50})
	for _, c := range []struct {
		field     searchform.Field
		want, not []string
	}{
		{searchform.Types, []string{"/ filter the types", "space choose"}, []string{"←/→ step", "all regions"}},
		{searchform.Count, []string{"+ more", "- fewer"}, []string{"filter the types", "space choose"}},
		{searchform.Start, []string{"enter search", "ctrl+c quit"}, []string{"filter the types", "space choose", "step"}},
		{searchform.Duration, []string{"←/→ step"}, []string{"filter the types", "space choose"}},
		{searchform.Regions, []string{"space choose", "a all regions selling the types", "q quit"}, []string{"filter the types", "step"}},
	} {
		m = focusField(t, m, c.field)
		foot := lastLine(m)
		for _, w := range c.want {
			if !strings.Contains(foot, w) {
				t.Errorf("field %d: the footer %q lacks %q", c.field, foot, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(foot, n) {
				t.Errorf("field %d: the footer %q offers %q", c.field, foot, n)
			}
		}
	}
}

// While a table's filter takes the keys the footer says so: it offered "enter buy…" and
// "q quit", where enter keeps the filter and q is a letter.
func TestFooterWhileFilteringATable(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 200, Height: 50})
	m = withResults(m, uitest.SyntheticOfferings(10))
	m = update(m, uitest.Key("/"))
	foot := lastLine(m)
	if !strings.Contains(foot, "enter/tab keep filter") || !strings.Contains(foot, "esc clear filter") || !strings.Contains(foot, "ctrl+c quit") ||
		strings.Contains(foot, "buy") || strings.Contains(foot, "q quit") {
		t.Errorf("filtering the offerings, the footer is %q", foot)
	}
	m = update(m, uitest.Key("enter"))
	if foot := lastLine(m); !strings.Contains(foot, "enter buy") {
		t.Errorf("after enter kept the filter, the footer is %q", foot)
	}
	m = update(m, uitest.Key("2"), uitest.Key("/"))
	if m.Inspect().Screen != ui.Blocks || !m.Inspect().Blocks.Table().Filtering() {
		t.Fatalf("2 / did not open the blocks' filter (screen %s)", m.Inspect().Screen)
	}
	if foot := lastLine(m); !strings.Contains(foot, "enter/tab keep filter") || strings.Contains(foot, "enter details") || strings.Contains(foot, "q quit") {
		t.Errorf("filtering the blocks, the footer is %q", foot)
	}
}

// focusField moves the form's focus to f with tab and shift+tab, as a person does.
func focusField(t *testing.T, m ui.Model, f searchform.Field) ui.Model {
	t.Helper()
	for range 10 {
		at := focusedField(m)
		if at == f {
			break
		}
		k := "tab"
		if at > f {
			k = "shift+tab"
		}
		m = update(m, uitest.Key(k))
	}
	if focusedPane(m) != paneForm || focusedField(m) != f {
		t.Fatalf("tab and shift+tab did not reach field %d: pane %d, field %d", f, focusedPane(m), focusedField(m))
	}
	return m
}

// focusResults moves the search screen's focus to the results with the keys: shift+tab out
// of the form to the detail, esc back to the results. t nil: a state builder that the
// assertions on the state check.
func focusResults(t *testing.T, m ui.Model) ui.Model {
	for range 10 {
		if focusedPane(m) != paneForm {
			break
		}
		m = update(m, uitest.Key("shift+tab"))
	}
	if focusedPane(m) == paneDetail {
		m = update(m, uitest.Key("esc"))
	}
	if t != nil && focusedPane(m) != paneResults {
		t.Helper()
		t.Fatalf("shift+tab and esc did not reach the results: pane %d", focusedPane(m))
	}
	return m
}
