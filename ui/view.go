package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/components/text"
)

// View draws the screen. It is a pure function of the model.
func (m Model) View() tea.View {
	content := m.render()
	if m.opts.Accessible {
		// The safety net under the panes' own plain forms: no drawing character reaches
		// the terminal.
		content = a11y.Plain(content)
	}
	v := tea.NewView(content)
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
	// A dialog covers the whole body: the screen is not drawn under it.
	body := m.current().View(m.frame())
	if m.dialog != nil {
		body = m.dialog.View(m.pc.Width, m.pc.Height-l.headerH-l.footerH)
	}
	if m.palette != nil {
		h := m.pc.Height - l.headerH - l.footerH
		body = lipgloss.NewStyle().Height(h).MaxHeight(h).Render(m.palette.View(m.pc.Width, h))
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
	if m.pc.ReadOnly {
		// Said beside the mode: the keys that spend are gone from every screen.
		badge += " " + th.Accent.Render("READ-ONLY")
	}
	var who, whoShort string
	switch {
	case m.connecting:
		badge = th.Muted.Render("connecting")
		who = m.spinView() + th.Muted.Render(" resolving credentials…")
		whoShort = m.spinView()
	case m.connectErr != nil:
		badge = th.Error.Render("NOT CONNECTED")
		who, whoShort = "", ""
	case !m.pc.Identity.Known:
		who = m.spinView() + th.Muted.Render(" account …")
		whoShort = who
	case m.pc.Identity.Err != nil:
		who = th.Error.Render("account unknown: " + m.pc.Identity.Err.Error())
		whoShort = th.Error.Render("account unknown")
	default:
		who = th.Header.Render("account " + m.pc.Identity.Account)
		whoShort = th.Header.Render(m.pc.Identity.Account)
		if a, ok := m.pc.Backend.(source.Accounts); ok && len(a.Accounts()) > 1 {
			// Several accounts are listed; this one alone searches and buys.
			who += th.Muted.Render(fmt.Sprintf(" pays · %d accounts listed", len(a.Accounts())))
			whoShort += th.Muted.Render(" pays")
		}
	}
	profile := m.opts.Profile
	if profile == "" {
		profile = "default"
	}
	now := m.clock
	clock := th.Header.Render(now.UTC().Format(model.LayoutClockUTC))
	if model.LocalDiffers(now, m.pc.Location) {
		clock += th.Muted.Render(" · ") + th.Header.Render(now.In(m.pc.Location).Format(model.LayoutClockZone))
	}
	// The long form names each part; narrow terminals get the values alone, then a cut.
	sep := th.Muted.Render(" · ")
	long := th.Muted.Render(" · profile ") + th.Header.Render(profile) + th.Muted.Render(" · region ") + th.Header.Render(m.opts.Region)
	short := sep + th.Header.Render(profile) + sep + th.Header.Render(m.opts.Region)
	parts := m.header()
	if parts.NoteVerb != "" {
		long += th.Muted.Render(parts.NoteVerb) + th.Header.Render(parts.NoteRegions)
	}
	if m.connecting || m.connectErr != nil {
		long, short = "", "" // not known yet, or never
	}
	// The count of the blocks' warnings and the watch are on every screen, before anything
	// that may be cut.
	warn := m.warningBadge(parts.Warnings)
	head := th.App.Render("gpublock") + " " + badge + " " + warn + parts.Badge + who
	left := head + long
	room := m.pc.Width - ansi.StringWidth(clock) - 1
	if ansi.StringWidth(left) > room {
		left = th.App.Render("gpublock") + " " + badge + " " + warn + parts.BadgeShort + whoShort + short
	}
	if ansi.StringWidth(left) > room {
		left = ansi.Truncate(left, max(0, room-1), "…")
	}
	gap := max(1, m.pc.Width-ansi.StringWidth(left)-ansi.StringWidth(clock))
	return ansi.Truncate(left+strings.Repeat(" ", gap)+clock, m.pc.Width, "")
}

// warningBadge is the header's summary of the warnings in force, on every screen: the most
// severe one's word and how many (model.WarningSummary), red when that one is red.
func (m Model) warningBadge(warnings []model.WarningKind) string {
	text, worst := model.WarningSummary(warnings)
	if text == "" {
		return ""
	}
	style := m.pc.Theme.Warning
	if worst.Red() {
		style = m.pc.Theme.Error
	}
	// Set off from the account after it, which would otherwise read "warnings account".
	return style.Render(text) + m.pc.Theme.Muted.Render(" · ")
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
	if _, own := dialogFooterLine(m.dialog); !(m.dialog != nil && own) { // a dialog says what its keys do itself
		style = th.Muted
		s = m.current().Status()
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
