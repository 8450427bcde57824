package search

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/screen"
)

// render is the screen in its area: its panes, side by side or stacked.
func (m Model) render() string {
	l := m.layout()
	if l.wide {
		left := m.box("Search", m.form.View(l.form.w-2, l.form.h-2, m.focus == PaneForm), l.form, m.focus == PaneForm)
		if l.status.h > 0 {
			left += "\n" + m.box("Regions", m.regionStatusView(l.status.w-2, l.status.h-2), l.status, false)
		}
		right := m.box(m.resultsTitle(), m.resultsView(l), l.results, m.focus == PaneResults) + "\n" +
			m.box(m.detailTitle()+m.freshTag(), m.detailView(l.detail.w-2, l.detail.h-2), l.detail, m.focus == PaneDetail)
		return screen.SideBySide(left, right)
	}
	switch {
	case l.detail.h > 0:
		return m.box(m.detailTitle()+m.freshTag()+" · esc back", m.detailView(l.detail.w-2, l.detail.h-2), l.detail, true)
	case l.formCollapsed:
		return m.formSummary() + "\n" + m.box(m.resultsTitle(), m.resultsView(l), l.results, true)
	}
	return m.box("Search", m.form.View(l.form.w-2, l.form.h-2, true), l.form, true) + "\n" +
		m.box(m.resultsTitle(), m.resultsView(l), l.results, false)
}

func (m Model) formSummary() string {
	q, ok := m.form.Current()
	var s string
	if ok {
		s = fmt.Sprintf("Search: %s × %d · %s · %s → %s · %s", strings.Join(q.InstanceTypes, ","), q.Count, q.Durations,
			q.Start.UTC().Format(model.LayoutDay), q.End.UTC().Format(model.LayoutDay), screen.RegionList(q.Regions))
	} else {
		s = "Search: the form has errors"
	}
	return ansi.Truncate(m.pc.Theme.Muted.Render(s+"  (shift+tab edits)"), m.pc.Width, "…")
}

func (m Model) resultsTitle() string {
	if m.table.Len() == 0 {
		return "Offerings"
	}
	t := "Offerings · " + m.table.Position()
	if n := m.FreshCount(); n > 0 {
		t += fmt.Sprintf(" · %d new", n) // since the watch's round before
	}
	return t
}

// freshTag marks the detail of an offering the watch's last round found new.
func (m Model) freshTag() string {
	if m.SelectedIsFresh() {
		return " · NEW"
	}
	return ""
}

// box frames content in a pane (screen.Box).
func (m Model) box(title, content string, r rect, focused bool) string {
	return screen.Box(m.pc.Theme, title, content, r.screen(), focused)
}

func (m Model) detailView(w, h int) string {
	if m.detailTab == TabChart {
		return m.chartView(w, h)
	}
	p, ok := m.detailPage(w, h)
	if !ok {
		return m.pc.Theme.Muted.Render("Select an offering to see everything about it.")
	}
	// The scroll keys are named only where they scroll (stacked, the detail is shown only
	// with the focus).
	return p.View(m.detailScroll, m.focus == PaneDetail)
}

// detailPage is the selected offering's detail laid out for a pane of w×h cells.
func (m Model) detailPage(w, h int) (detail.Page, bool) {
	o, ok := m.table.Selected()
	if !ok {
		return detail.Page{}, false
	}
	var cp *pricing.Comparison
	if c, ok := m.table.SelectedComparison(); ok && c.Offering.ID == o.ID {
		cp = &c
	}
	return detail.NewPage(m.pc.Theme, o, cp, m.rowsQuery, m.now, m.pc.Location, m.pc.ReadOnly, w, h), true
}

// DetailPage is the selected offering's detail as the detail pane lays it out now.
func (m Model) DetailPage() (detail.Page, bool) {
	l := m.layout()
	return m.detailPage(l.detail.w-2, l.detail.h-2)
}

// StatusLine is what the root's status line says when nothing was said after a key: what
// the keys do now, or the search's or the watch's state. typing is whether the screen shown
// takes keys as text: the advisor's line is this one, and says so for its fields too.
func (m Model) StatusLine(typing bool) string {
	switch {
	case m.focus == PaneForm && m.form.Filtering():
		return "Filtering the types: q is a letter here · enter keeps the filter · esc clears it · space chooses"
	case typing && m.focus == PaneForm:
		return "Typing: q is a letter here · ctrl+c quits · tab next field · enter searches"
	case m.table.Filtering():
		return "Filtering: rows matching every word stay · enter keeps the filter · esc clears it"
	case m.search.running && m.search.round:
		return "Watch round: searching again; the rows are the last answer until it ends · w stops watching"
	case m.search.running:
		return "Searching… esc cancels."
	case m.watch.on:
		return m.watchStatus()
	}
	return ""
}

// Panes are the sizes of the results and the detail panes in the layout now (zero when not
// shown), which a mouse aims at.
func (m Model) Panes() (results, detail screen.Rect) {
	l := m.layout()
	return l.results.screen(), l.detail.screen()
}
