package screen

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
)

// Screen is a screen as the root holds it, as gh-dash holds its sections: the root routes
// messages, keys, the view, the footer and help to the one shown through this, never
// asking which one it is. Each screen's package implements it on its Model.
type Screen interface {
	Init() tea.Cmd
	// Owns reports whether msg answers one of the screen's own commands: it goes to the
	// screen wherever the screen is.
	Owns(msg tea.Msg) bool
	// Update and View take the frame the screen is drawn in.
	Update(msg tea.Msg, f Frame) (Screen, tea.Cmd)
	View(f Frame) string
	// Enter and Leave are the screen being shown and hidden.
	Enter() (Screen, tea.Cmd)
	Leave() Screen
	// Connect is the backend there (or why it is not), told every screen at once.
	Connect(c Connection) (Screen, tea.Cmd)
	// Tick is the root's minute: the time shown moved to now, told every screen at once.
	Tick(now time.Time) (Screen, tea.Cmd)
	// Changed: a dialog bought, extended or launched something, so what a screen read of
	// AWS may be out of date. Stop: the program quits, so what runs is cancelled.
	Changed() (Screen, tea.Cmd)
	Stop() Screen
	// Busy: something is loading, which keeps the spinner turning.
	Busy() bool
	// Flash is what the last Update says on the status line.
	Flash() Flash
	// Typing: keys go into a text field, where q and the digits are letters. Filtering: a
	// filter takes them, where ? is a letter too.
	Typing() bool
	Filtering() bool
	// Status is the status line when nothing was said after a key.
	Status() string
	// Header is what the screen says in the root's header, on every screen.
	Header() HeaderPart
	// ShortHelp is the footer's keys, with the root's; HelpGroups the help's, by title, and
	// KeyGroups the screen's own among them (the search's help lists the blocks' too).
	ShortHelp(h HelpEnv) []key.Binding
	HelpGroups(h HelpEnv) []KeyGroup
	KeyGroups() []KeyGroup
	// RowsGone is why the rows numbered rows, which an offering was picked from, are no
	// longer the ones the screen shows ("" while they are, and on a screen without rows
	// to buy from): a purchase must not stay open over rows it did not show.
	RowsGone(rows int64) string
}

// Frame is what the root lends a screen to update and draw it: its area, the root's
// spinner, and the time shown (the root's clock).
type Frame struct {
	Area Area
	Spin string
	Now  time.Time
}

// Connection is what every screen is told once the backend is there, or why it is not.
type Connection struct {
	Region  string
	Sources []model.Source
	Err     error
}

// HeaderPart is what a screen adds to the header shown on every screen: a note after the
// region (the search's "searched 3 regions"), its badge in the long and the short header
// (the watch's), and the kinds of the warnings in force (the blocks'), which the header
// sums up.
type HeaderPart struct {
	NoteVerb, NoteRegions string
	Badge, BadgeShort     string
	Warnings              []model.WarningKind
}

// HelpEnv is what a screen's help adds to its own keys: the root's keys, the keys that
// switch screens (ToSearch among them, which the footers offer), and the blocks' groups,
// which the search screen's help lists too.
type HelpEnv struct {
	Help, Quit, ForceQuit, Back key.Binding
	Screens                     KeyGroup
	ToSearch                    key.Binding
	Blocks                      []KeyGroup
}

// Everywhere is the root's keys that work on every screen, for help.
func (h HelpEnv) Everywhere(more ...key.Binding) KeyGroup {
	return KeyGroup{Title: "Everywhere", Keys: append([]key.Binding{h.Help, h.Quit, h.ForceQuit}, more...)}
}
