// Package theme holds gpublock's one theme: every colour and text style of the terminal UI.
// Components take a Theme instead of defining styles of their own, so that a palette change
// or the no-colour mode touches this file only.
//
// The theme has a light and a dark palette. Each colour of its styles holds both and
// draws with the one its palette switch chooses, so that the answer to the terminal's
// background query, which arrives after the first frame, recolours every copy of the
// theme the components hold, without rebuilding them.
package theme

import (
	"fmt"
	"image/color"
	"sync/atomic"

	"charm.land/lipgloss/v2"
)

// Mode is which palette a theme uses.
type Mode int32

const (
	// Auto follows the terminal's background. Until the terminal answers, and if it never
	// does, it draws dark: most terminals are, and that palette is the one users know.
	Auto Mode = iota
	Light
	Dark
)

// Modes are the names Set and ParseMode accept, as the --theme flag and the configuration
// file spell them.
const Modes = "auto, light or dark"

func (m Mode) String() string {
	switch m {
	case Light:
		return "light"
	case Dark:
		return "dark"
	}
	return "auto"
}

// ParseMode reads a mode's name.
func ParseMode(name string) (Mode, error) {
	switch name {
	case "auto", "":
		return Auto, nil
	case "light":
		return Light, nil
	case "dark":
		return Dark, nil
	}
	return Auto, fmt.Errorf("theme %q: allowed %s", name, Modes)
}

// preference is the mode of the themes New makes: set once, before the program starts,
// from a flag or the configuration.
var preference atomic.Int32

// Set chooses the mode of the themes made from now on: "auto", "light" or "dark".
func Set(name string) error {
	m, err := ParseMode(name)
	if err != nil {
		return err
	}
	preference.Store(int32(m))
	return nil
}

// Preference is the mode Set chose (Auto by default).
func Preference() Mode { return Mode(preference.Load()) }

// palette is the switch shared by a theme and all its copies.
type palette struct {
	mode Mode
	dark atomic.Bool
}

// adaptive is a colour of both palettes. It is a pointer so that lipgloss's comparisons
// with its own colour values are of different types, never of this struct.
type adaptive struct {
	light, dark color.Color
	p           *palette
}

func (a *adaptive) RGBA() (r, g, b, alpha uint32) {
	if a.p.dark.Load() {
		return a.dark.RGBA()
	}
	return a.light.RGBA()
}

// Theme is the set of styles the UI renders with.
type Theme struct {
	Color bool // false under NO_COLOR / --no-color
	// Accessible is the mode for screen readers and braille displays (ui/a11y): no
	// animation, no box drawing or block graphics, tables and charts said in sentences.
	Accessible bool
	p          *palette

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

// The palettes, light then dark. The light one keeps every text colour at a contrast of
// 4.5:1 or more on white; the badges and the selected row carry their own background and
// read the same on both.
var (
	purple = [2]string{"#6639BA", "#7D56F4"}
	amber  = [2]string{"#9A6700", "#F5B700"} // warning text; the SIMULATED badge is badgeAmber
	red    = [2]string{"#CF222E", "#D7263D"}
	green  = [2]string{"#1A7F37", "#3FB950"}
	grey   = [2]string{"#57606A", "#8B949E"}
	blue   = [2]string{"#0969DA", "#58A6FF"}
	text   = [2]string{"#1F2328", "#E6EDF3"}

	badgeAmber = lipgloss.Color("#F5B700")
	dark       = lipgloss.Color("#1F2328")
	white      = lipgloss.Color("#FFFFFF")
	rowBG      = lipgloss.Color("#33306B")
)

// BodyText is the body text's colour of each palette, for tests that read a screen.
func BodyText(m Mode) color.Color {
	if m == Light {
		return lipgloss.Color(text[0])
	}
	return lipgloss.Color(text[1])
}

// SetDarkBackground tells the theme whether the terminal's background is dark. In Auto
// mode the palette follows; a mode chosen by the user stays. Every copy of the theme
// changes with it.
func (t Theme) SetDarkBackground(isDark bool) {
	if t.p != nil && t.p.mode == Auto {
		t.p.dark.Store(isDark)
	}
}

// Dark reports whether the theme draws with the dark palette.
func (t Theme) Dark() bool { return t.p == nil || t.p.dark.Load() }

// Mode is the mode the theme was made with.
func (t Theme) Mode() Mode {
	if t.p == nil {
		return Auto
	}
	return t.p.mode
}

// New returns the colour theme in the mode Set chose, or with colour false a theme that
// draws only with bold, faint, underline and reverse video, so that every distinction
// survives without colour: SIMULATED and LIVE differ in wording and in style, the focused
// pane in its border.
func New(colour bool) Theme { return NewMode(colour, Preference()) }

// NewMode is New in the given mode.
func NewMode(colour bool, mode Mode) Theme {
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
	p := &palette{mode: mode}
	p.dark.Store(mode != Light)
	both := func(c [2]string) color.Color {
		return &adaptive{light: lipgloss.Color(c[0]), dark: lipgloss.Color(c[1]), p: p}
	}
	purple, amber, red, green, grey, blue, text := both(purple), both(amber), both(red), both(green), both(grey), both(blue), both(text)
	fg := func(c color.Color) lipgloss.Style { return s().Foreground(c) }
	return Theme{
		Color:         true,
		p:             p,
		App:           fg(purple).Bold(true),
		Simulated:     s().Background(badgeAmber).Foreground(dark).Bold(true).Padding(0, 1),
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
