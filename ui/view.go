package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/text"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// View draws the screen. It is a pure function of the model.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "gpublock"
	if !m.opts.NoMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

func (m Model) render() string {
	if m.pc.Width == 0 || m.pc.Height == 0 {
		return "gpublock: starting…"
	}
	l := m.layout()
	if l.tooSmall {
		return m.tooSmallView()
	}
	var parts []string
	parts = append(parts, m.headerView())
	if m.notice != "" {
		parts = append(parts, m.pc.Theme.Warning.Render(ansi.Truncate("▲ "+m.notice, m.pc.Width, "…")))
	}
	var body string
	switch m.screen {
	case screenSearch:
		body = m.searchBody(l)
	case screenBlocks:
		body = m.blocksNow().View()
	case screenAdvisor:
		body = m.advisorBody()
	}
	if m.dialog != nil {
		bodyH := m.pc.Height - l.headerH - l.footerH
		body = m.dialog.View(m.pc.Width, bodyH)
	}
	parts = append(parts, body, m.statusLine(), m.helpLine())
	return strings.Join(parts, "\n")
}

func (m Model) tooSmallView() string {
	msg := fmt.Sprintf("Terminal too small: %d×%d.\nMake it at least %d×%d.\nq quits.", m.pc.Width, m.pc.Height, minWidth, minHeight)
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.pc.Width, "")
	}
	if len(lines) > m.pc.Height {
		lines = lines[:m.pc.Height]
	}
	return lipgloss.Place(m.pc.Width, m.pc.Height, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
}

// headerView is one line: the program, the mode, who and where, and the time in UTC and
// local time.
func (m Model) headerView() string {
	th := m.pc.Theme
	badge := th.Live.Render("LIVE")
	if m.pc.Simulated {
		badge = th.Simulated.Render("SIMULATED")
	}
	var who, whoShort string
	switch {
	case m.connecting:
		badge = th.Muted.Render("connecting")
		who = m.spin.View() + th.Muted.Render(" resolving credentials…")
		whoShort = m.spin.View()
	case m.connectErr != nil:
		badge = th.Error.Render("NOT CONNECTED")
		who, whoShort = "", ""
	case !m.pc.Identity.Known:
		who = m.spin.View() + th.Muted.Render(" account …")
		whoShort = who
	case m.pc.Identity.Err != nil:
		who = th.Error.Render("account unknown: " + m.pc.Identity.Err.Error())
		whoShort = th.Error.Render("account unknown")
	default:
		who = th.Header.Render("account " + m.pc.Identity.Account)
		whoShort = th.Header.Render(m.pc.Identity.Account)
	}
	profile := m.opts.Profile
	if profile == "" {
		profile = "default"
	}
	now := m.clock
	clock := th.Header.Render(now.UTC().Format("15:04 UTC"))
	if local := now.In(m.pc.Location).Format("15:04 MST"); local != now.UTC().Format("15:04 MST") {
		clock += th.Muted.Render(" · ") + th.Header.Render(local)
	}
	// The long form names each part; narrow terminals get the values alone, then a cut.
	sep := th.Muted.Render(" · ")
	long := th.Muted.Render(" · profile ") + th.Header.Render(profile) + th.Muted.Render(" · region ") + th.Header.Render(m.opts.Region)
	short := sep + th.Header.Render(profile) + sep + th.Header.Render(m.opts.Region)
	if m.search.has {
		verb := " · searched "
		if m.search.running {
			verb = " · searching "
		}
		long += th.Muted.Render(verb) + th.Header.Render(regionList(m.search.query.Regions))
	}
	if m.connecting || m.connectErr != nil {
		long, short = "", "" // not known yet, or never
	}
	// The count of the blocks' warnings and the watch are on every screen, before anything
	// that may be cut.
	warn := m.warningBadge()
	head := th.App.Render("gpublock") + " " + badge + " " + warn + m.watchBadge(false) + who
	left := head + long
	room := m.pc.Width - ansi.StringWidth(clock) - 1
	if ansi.StringWidth(left) > room {
		left = th.App.Render("gpublock") + " " + badge + " " + warn + m.watchBadge(true) + whoShort + short
	}
	if ansi.StringWidth(left) > room {
		left = ansi.Truncate(left, max(0, room-1), "…")
	}
	gap := max(1, m.pc.Width-ansi.StringWidth(left)-ansi.StringWidth(clock))
	return ansi.Truncate(left+strings.Repeat(" ", gap)+clock, m.pc.Width, "")
}

func regionList(rs []string) string { return uiscreen.RegionList(rs) }

// warningBadge is the header's count of the blocks' warnings, on every screen: red when one
// is red.
func (m Model) warningBadge() string {
	n, red := m.blocks.Warnings()
	if n == 0 {
		return ""
	}
	style := m.pc.Theme.Warning
	if red {
		style = m.pc.Theme.Error
	}
	// Set off from the account after it, which would otherwise read "warnings account".
	return style.Render("▲ "+plural(n, "warning")) + m.pc.Theme.Muted.Render(" · ")
}

// searchBody is the body of the search screen: its panes, side by side or stacked.
func (m Model) searchBody(l layout) string {
	if l.wide {
		left := m.box("Search", m.form.View(l.form.w-2, l.form.h-2, m.focus == paneForm), l.form, m.focus == paneForm)
		if l.status.h > 0 {
			left += "\n" + m.box("Regions", m.regionStatusView(l.status.w-2, l.status.h-2), l.status, false)
		}
		right := m.box(m.resultsTitle(), m.resultsView(l), l.results, m.focus == paneResults) + "\n" +
			m.box(m.detailTitle()+m.freshTag(), m.detailView(l.detail.w-2, l.detail.h-2), l.detail, m.focus == paneDetail)
		return lipgloss.JoinHorizontal(lipgloss.Top, left, right)
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
			q.Start.UTC().Format("Jan 02"), q.End.UTC().Format("Jan 02"), regionList(q.Regions))
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
	if n := m.freshCount(); n > 0 {
		t += fmt.Sprintf(" · %d new", n) // since the watch's round before
	}
	return t
}

// freshTag marks the detail of an offering the watch's last round found new.
func (m Model) freshTag() string {
	if m.selectedIsFresh() {
		return " · NEW"
	}
	return ""
}

// box frames content in a pane; see frame.
func (m Model) box(title, content string, r rect, focused bool) string {
	return frame(m.pc.Theme, title, content, r, focused)
}

func (m Model) detailView(w, h int) string {
	if m.detailTab == tabChart {
		return m.chartView(w, h)
	}
	p, ok := m.detailPage(w, h)
	if !ok {
		return m.pc.Theme.Muted.Render("Select an offering to see everything about it.")
	}
	// The scroll keys are named only where they scroll (stacked, the detail is shown only
	// with the focus).
	return p.View(m.detailScroll, m.focus == paneDetail)
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
	return detail.NewPage(m.pc.Theme, o, cp, m.rowsQuery, m.clock, m.pc.Location, m.pc.ReadOnly, w, h), true
}

// maxFlashLines is the most lines a message after a key (m.flash) takes: a console URL
// to copy or why a block cannot be launched into is read whole, not cut at the width.
const maxFlashLines = 3

// flashLines is the message after a key wrapped to the width, on up to maxFlashLines (the
// last cut); one line when there is none, or over a dialog, whose size is set for one.
func (m Model) flashLines() []string {
	if m.flash == "" || m.dialog != nil || m.pc.Width <= 0 {
		return []string{ansi.Truncate(m.flash, max(0, m.pc.Width), "…")}
	}
	lines := text.Wrap(m.flash, m.pc.Width)
	if len(lines) > maxFlashLines {
		lines = lines[:maxFlashLines]
		lines[maxFlashLines-1] += " …"
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.pc.Width, "…")
	}
	return lines
}

func (m Model) statusLine() string {
	th := m.pc.Theme
	s := m.flash
	style := th.Accent
	if s != "" {
		lines := m.flashLines()
		for i, l := range lines {
			lines[i] = style.Render(l)
		}
		return strings.Join(lines, "\n")
	}
	if _, own := dialogFooterLine(m.dialog); s == "" && !(m.dialog != nil && own) { // a dialog says what its keys do itself
		style = th.Muted
		switch {
		case m.screen == screenBlocks && m.blocks.Typing():
			s = "Filtering: blocks matching every word stay · enter keeps the filter · esc clears it"
		case m.screen == screenBlocks:
			s = "" // the search's state is the search screen's
		case m.focus == paneForm && m.form.Filtering():
			s = "Filtering the types: q is a letter here · enter keeps the filter · esc clears it · space chooses"
		case m.typing() && m.focus == paneForm:
			s = "Typing: q is a letter here · ctrl+c quits · tab next field · enter searches"
		case m.table.Filtering():
			s = "Filtering: rows matching every word stay · enter keeps the filter · esc clears it"
		case m.search.running && m.search.round:
			s = "Watch round: searching again; the rows are the last answer until it ends · w stops watching"
		case m.search.running:
			s = "Searching… esc cancels."
		case m.watch.on:
			s = m.watchStatus()
		}
	}
	return style.Render(ansi.Truncate(s, m.pc.Width, "…"))
}

func (m Model) helpLine() string {
	if line, ok := dialogFooterLine(m.dialog); m.dialog != nil && ok {
		return m.pc.Theme.Muted.Render(ansi.Truncate(line, m.pc.Width, "…"))
	}
	h := m.help
	h.SetWidth(m.pc.Width)
	// help cuts at the item that overflows, which can still leave the line too wide.
	return ansi.Truncate(h.ShortHelpView(m.helpKeys().ShortHelp()), m.pc.Width, "…")
}

func (m Model) helpKeys() helpKeys {
	return helpKeys{root: m.keys, form: m.form.KeyMap(), table: m.table.KeyMap(), focus: m.focus,
		detail: detail.NewKeyMap(m.table.KeyMap().Nav()), detailScrolls: m.focus == paneDetail && m.detailTab == tabDetail,
		screen: m.screen, screens: m.screenKeys, blocksShort: m.blocks.ShortHelp(), blocksGroups: m.blocks.HelpGroups(), notify: m.blocks.KeyMap().Notify, typing: m.typing(), formFilter: m.focus == paneForm && m.form.Filtering(), formField: m.form.Focus(), tableFilter: m.typing() && (m.screen == screenBlocks || m.focus == paneResults),
		noRows: m.search.has && m.table.Len() == 0 && !m.table.Filtering() && m.table.FilterText() == "", alts: len(m.extra.alts) > 0,
		advisorShort: m.advisor.ShortHelp(), advisorGroups: m.advisor.HelpGroups()}
}
