package ui

import (
	"charm.land/bubbles/v2/key"

	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// KeyMap is the keys of the root model, which work on every screen; each screen has its own
// (ui/screen/search, ui/screen/blocks, ui/screen/advisor, ui/screen/report).
type KeyMap struct {
	Quit, ForceQuit key.Binding
	Help            key.Binding
	Back            key.Binding
	// Palette opens the command palette; Snapshot saves the screen as a picture.
	Palette, Snapshot key.Binding
}

// DefaultKeyMap returns the root keys: the search screen's bindings of the same keys, so
// that the footer and help name one binding for each.
func DefaultKeyMap() KeyMap {
	s := searchscreen.DefaultKeyMap(false)
	return KeyMap{Quit: s.Quit, ForceQuit: s.ForceQuit, Help: s.Help, Back: s.Back, Palette: paletteKey(), Snapshot: snapshotKey()}
}

// screenKeyMap switches screens. The digits and brackets are letters in a text field, so
// they work where keys are not text; alt+1… work everywhere.
type screenKeyMap struct {
	Search, Blocks, Advisor, Report, Next, Prev key.Binding
}

func defaultScreenKeys() screenKeyMap {
	return screenKeyMap{
		Search:  key.NewBinding(key.WithKeys("1", "alt+1"), key.WithHelp("1", "search screen")),
		Blocks:  key.NewBinding(key.WithKeys("2", "alt+2"), key.WithHelp("2", "blocks screen")),
		Advisor: key.NewBinding(key.WithKeys("3", "alt+3"), key.WithHelp("3", "advisor screen")),
		Report:  key.NewBinding(key.WithKeys("4", "alt+4"), key.WithHelp("4", "report screen")),
		Next:    key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next screen")),
		Prev:    key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous screen")),
	}
}

// helpKeys is what help shows for the screen shown; it satisfies help.KeyMap.
type helpKeys struct {
	short  []key.Binding
	groups []uiscreen.KeyGroup
}

func (m Model) helpKeys() helpKeys {
	sk, k := m.screenKeys, m.keys
	h := uiscreen.HelpEnv{Help: k.Help, Quit: k.Quit, ForceQuit: k.ForceQuit, Back: k.Back, ToSearch: sk.Search,
		Screens: uiscreen.KeyGroup{Title: "Screens", Keys: []key.Binding{sk.Search, sk.Blocks, sk.Advisor, sk.Report, sk.Next, sk.Prev}},
		Blocks:  m.screens[screenBlocks].KeyGroups()}
	s := m.current()
	// The palette and the picture work on every screen, and help lists them on every one.
	anywhere := uiscreen.KeyGroup{Title: "Palette and picture", Keys: []key.Binding{k.Palette, k.Snapshot}}
	return helpKeys{short: s.ShortHelp(h), groups: append(s.HelpGroups(h), anywhere)}
}

func (h helpKeys) ShortHelp() []key.Binding { return h.short }

func (h helpKeys) FullHelp() [][]key.Binding {
	out := make([][]key.Binding, len(h.groups))
	for i, g := range h.groups {
		out[i] = g.Keys
	}
	return out
}
