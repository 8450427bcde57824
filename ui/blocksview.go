package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
)

// blocksRects is where the blocks screen's panes go: the table above the detail on wide
// terminals; on narrow ones the table, or the detail alone after enter.
type blocksRects struct {
	table, detail rect
	rows          int // table rows that fit
}

func (m Model) blocksLayout() blocksRects {
	var r blocksRects
	l := m.layout()
	if l.tooSmall {
		return r
	}
	body := m.pc.Height - l.headerH - l.footerH
	switch {
	case m.pc.Width >= wideWidth && m.pc.Height >= wideHeight:
		th := max(8, body*50/100)
		r.table, r.detail = rect{m.pc.Width, th}, rect{m.pc.Width, body - th}
	case m.blocks.detail:
		r.detail = rect{m.pc.Width, body}
	default:
		r.table = rect{m.pc.Width, body}
	}
	used := 2 + 1 + 1 // border, status line, header
	if m.blocks.table.Filtering() || m.blocks.table.FilterText() != "" {
		used++
	}
	used += len(m.blocksProblemLines(r.table.w - 2))
	r.rows = max(1, r.table.h-used)
	return r
}

// blocksBody is the body of the blocks screen.
func (m Model) blocksBody() string {
	r := m.blocksLayout()
	var parts []string
	if r.table.h > 0 {
		parts = append(parts, m.box(m.blocksTitle(), m.blocksTableView(r.table.w-2, r.table.h-2), r.table, !m.blocks.detail))
	}
	if r.detail.h > 0 {
		title := "Block"
		if r.table.h == 0 {
			title += " · esc back"
		}
		parts = append(parts, m.box(title, m.blockDetailView(r.detail.w-2, r.detail.h-2), r.detail, m.blocks.detail))
	}
	return strings.Join(parts, "\n")
}

func (m Model) blocksTitle() string {
	t, _ := reservationsWords(m.blocks.list)
	if m.blocks.table.Len() > 0 {
		t += " · " + m.blocks.table.Position()
	}
	return t
}

func (m Model) blocksTableView(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	th, s := m.pc.Theme, m.blocks
	lines := []string{ansi.Truncate(m.blocksStatus(), w, "…")}
	lines = append(lines, m.blocksProblemLines(w)...)
	switch {
	case m.connectErr != nil:
		for _, l := range text.Wrap("Could not connect: "+m.connectErr.Error(), w) {
			lines = append(lines, th.Error.Render(l))
		}
	case !s.loaded:
	case s.err != nil && len(s.list) == 0:
		for _, l := range text.Wrap("The blocks could not be listed: "+s.err.Error(), w) {
			lines = append(lines, th.Error.Render(l))
		}
		lines = append(lines, th.Muted.Render("r tries again."))
	case len(s.list) == 0:
		lines = append(lines, "", th.Muted.Render(ansi.Truncate("No Capacity Blocks in "+regionList(s.regions)+". The search screen (1) finds some to buy.", w, "…")))
	default:
		lines = append(lines, m.blocks.table.View(w, blocksTableRows(h, len(lines))))
	}
	return strings.Join(lines, "\n")
}

// blocksTableRows is the table's height in a pane of h lines with above lines over it (the
// status line and any region problems), so that the problems never push rows out of the
// frame; the mouse reads rows with the same height.
func blocksTableRows(h, above int) int { return max(1, h-above) }

// blocksStatus is the line over the table: what was listed where and when, the refresh
// period, the notifications, and the regions that failed.
func (m Model) blocksStatus() string {
	th, s := m.pc.Theme, m.blocks
	if m.pc.Backend == nil {
		return th.Muted.Render("Not connected.")
	}
	if !s.loaded {
		return m.spin.View() + th.Value.Render(" Listing the blocks in "+regionList(m.blocksRegions())+"…")
	}
	_, count := reservationsWords(s.list)
	line := th.Value.Render(fmt.Sprintf("%s in %s", count, regionList(s.regions)))
	if n := len(s.quiet); n > 0 {
		line += th.Muted.Render(fmt.Sprintf(" (%d without blocks, listed every 5m)", n))
	}
	if !s.at.IsZero() {
		line += th.Muted.Render(" · as of " + s.at.UTC().Format("15:04:05 UTC"))
	}
	line += th.Muted.Render(fmt.Sprintf(" · refresh every %s (r now)", m.refreshEvery().Round(time.Second)))
	if s.loading {
		line += " " + m.spin.View()
	}
	if s.notifyOff {
		line += th.Muted.Render(" · notifications off (n)")
	} else {
		line += th.Muted.Render(" · bell on (n)")
	}
	return line
}

// blocksProblemLines name every region that could not be read, with its error, under the
// status line, whole: a region cut off the end of a line would read as a region without
// blocks.
func (m Model) blocksProblemLines(w int) []string {
	if w <= 0 || !m.blocks.loaded {
		return nil
	}
	var out []string
	for _, p := range m.blocks.problems {
		what := "could not be listed"
		if p.Partial {
			what = "listed with some details missing"
		}
		region := p.Region
		if region == "" {
			region = "A region"
		}
		for _, l := range text.Wrap(fmt.Sprintf("✖ %s %s: %s", region, what, p.Message), w) {
			out = append(out, m.pc.Theme.Error.Render(l))
		}
	}
	return out
}

func (m Model) blockDetailView(w, h int) string {
	p, ok := m.blockDetailPage(w, h)
	if !ok {
		return m.pc.Theme.Muted.Render("Select a block to see its instances, extensions, tags and ids.")
	}
	// The scroll keys are named only where they scroll: with the detail focused.
	return p.View(m.blocks.scroll, m.blocks.detail)
}

// blockDetailPage is the selected block's detail laid out for a pane of w×h cells.
func (m Model) blockDetailPage(w, h int) (pager.Page, bool) {
	b, ok := m.blocks.table.Selected()
	if !ok {
		return pager.Page{}, false
	}
	fee, hasFee := m.blocks.table.Fee()
	return blocks.DetailPageRules(m.pc.Theme, m.warnRules(), b, fee, hasFee, m.clock, m.pc.Location, w, h), true
}

// warningBadge is the header's count of warnings, on every screen: red when one is red.
func (m Model) warningBadge() string {
	ws := m.warningsNow()
	if len(ws) == 0 {
		return ""
	}
	style := m.pc.Theme.Warning
	for _, bw := range ws {
		if bw.w.Red() {
			style = m.pc.Theme.Error
		}
	}
	// Set off from the account after it, which would otherwise read "warnings account".
	return style.Render("▲ "+plural(len(ws), "warning")) + m.pc.Theme.Muted.Render(" · ")
}
