// Package theme holds gpublock's one theme: every colour and text style of the terminal UI.
// Components take a Theme instead of defining styles of their own, so that a palette change
// or the no-colour mode touches this file only.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Theme is the set of styles the UI renders with.
type Theme struct {
	Color bool // false under NO_COLOR / --no-color

	App       lipgloss.Style // the program name in the header
	Simulated lipgloss.Style // the SIMULATED badge
	Live      lipgloss.Style // the LIVE badge
	Header    lipgloss.Style
	Muted     lipgloss.Style // secondary text
	Label     lipgloss.Style // a field label
	Focused   lipgloss.Style // the label or title of what has the focus
	Value     lipgloss.Style
	Error     lipgloss.Style
	Warning   lipgloss.Style
	OK        lipgloss.Style
	Accent    lipgloss.Style
	Code      lipgloss.Style // CLI commands
	Cursor    lipgloss.Style // the cursor cell of a text field

	Border        lipgloss.Style // pane frames
	BorderFocused lipgloss.Style

	TableHeader lipgloss.Style
	SortedHead  lipgloss.Style // the header of the sorted column
	Selected    lipgloss.Style // the selected row of a list or table
	Stale       lipgloss.Style // rows of the previous search while a new one runs

	HelpKey  lipgloss.Style
	HelpDesc lipgloss.Style
	HelpSep  lipgloss.Style
}

var (
	purple = lipgloss.Color("#7D56F4")
	amber  = lipgloss.Color("#F5B700")
	red    = lipgloss.Color("#D7263D")
	green  = lipgloss.Color("#3FB950")
	grey   = lipgloss.Color("#8B949E")
	dark   = lipgloss.Color("#1F2328")
	white  = lipgloss.Color("#FFFFFF")
	blue   = lipgloss.Color("#58A6FF")
	rowBG  = lipgloss.Color("#33306B")
	text   = lipgloss.Color("#E6EDF3")
)

// New returns the colour theme, or with colour false a theme that draws only with bold,
// faint, underline and reverse video, so that every distinction survives without colour:
// SIMULATED and LIVE differ in wording and in style, the focused pane in its border.
func New(colour bool) Theme {
	s := lipgloss.NewStyle
	if !colour {
		return Theme{
			App:           s().Bold(true),
			Simulated:     s().Reverse(true).Bold(true).Padding(0, 1),
			Live:          s().Bold(true).Underline(true).Padding(0, 1),
			Header:        s(),
			Muted:         s().Faint(true),
			Label:         s(),
			Focused:       s().Bold(true),
			Value:         s(),
			Error:         s().Bold(true),
			Warning:       s().Bold(true),
			OK:            s(),
			Accent:        s().Bold(true),
			Code:          s(),
			Cursor:        s().Reverse(true),
			Border:        s(),
			BorderFocused: s().Bold(true),
			TableHeader:   s().Bold(true),
			SortedHead:    s().Bold(true).Underline(true),
			Selected:      s().Reverse(true),
			Stale:         s().Faint(true),
			HelpKey:       s().Bold(true),
			HelpDesc:      s(),
			HelpSep:       s().Faint(true),
		}
	}
	fg := func(c color.Color) lipgloss.Style { return s().Foreground(c) }
	return Theme{
		Color:         true,
		App:           fg(purple).Bold(true),
		Simulated:     s().Background(amber).Foreground(dark).Bold(true).Padding(0, 1),
		Live:          s().Background(red).Foreground(white).Bold(true).Padding(0, 1),
		Header:        fg(text),
		Muted:         fg(grey),
		Label:         fg(grey),
		Focused:       fg(purple).Bold(true),
		Value:         fg(text),
		Error:         fg(red),
		Warning:       fg(amber),
		OK:            fg(green),
		Accent:        fg(blue),
		Code:          fg(blue),
		Cursor:        s().Reverse(true),
		Border:        fg(grey),
		BorderFocused: fg(purple),
		TableHeader:   fg(text).Bold(true),
		SortedHead:    fg(purple).Bold(true).Underline(true),
		Selected:      s().Background(rowBG).Foreground(white).Bold(true),
		Stale:         fg(grey).Faint(true),
		HelpKey:       fg(grey).Bold(true),
		HelpDesc:      fg(grey),
		HelpSep:       fg(grey).Faint(true),
	}
}
