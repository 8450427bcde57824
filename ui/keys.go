package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// KeyMap is the keys of the root model, which work on every screen; each screen has its own
// (ui/screen/search, ui/screen/blocks, ui/screen/advisor).
type KeyMap struct {
	Quit, ForceQuit key.Binding
	Help            key.Binding
	Back            key.Binding
}

// DefaultKeyMap returns the root keys: the search screen's bindings of the same keys, so
// that the footer and help name one binding for each.
func DefaultKeyMap() KeyMap {
	s := searchscreen.DefaultKeyMap(false)
	return KeyMap{Quit: s.Quit, ForceQuit: s.ForceQuit, Help: s.Help, Back: s.Back}
}

func keyIs(k tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(k, b...) }

// helpKeys is what help shows for the screen shown; it satisfies help.KeyMap.
type helpKeys struct {
	root    KeyMap
	screen  screenID
	screens screenKeyMap
	typing  bool // keys go into a text field, where q is a letter
	// tableFilter: the blocks table's filter takes the keys (after /).
	tableFilter bool
	// moving is the tables' moving keys, which the blocks screen's help lists.
	moving []key.Binding
	// Each screen's footer keys in its state and its help groups.
	searchShort   []key.Binding
	searchGroups  []keyGroup
	blocksShort   []key.Binding
	blocksGroups  []keyGroup
	advisorShort  []key.Binding
	advisorGroups []keyGroup
}

func (h helpKeys) ShortHelp() []key.Binding {
	r := h.root
	switch h.screen {
	case screenBlocks:
		if h.tableFilter {
			// Keys go into the filter: enter keeps it, q is a letter.
			return append(h.blocksShort, r.ForceQuit)
		}
		return append(h.blocksShort, h.screens.Search, r.Help, r.Quit)
	case screenAdvisor:
		quit := r.Quit
		if h.typing {
			quit = r.ForceQuit
		}
		return append(h.advisorShort, h.screens.Search, r.Help, quit)
	}
	return h.searchShort
}

func (h helpKeys) FullHelp() [][]key.Binding {
	groups := h.groups()
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.Keys
	}
	return out
}

type keyGroup = uiscreen.KeyGroup

// groups is every key, by what it acts on, for the help screen.
func (h helpKeys) groups() []keyGroup {
	r, s := h.root, h.screens
	blockGroups := append([]keyGroup{{Title: "Screens", Keys: []key.Binding{s.Search, s.Blocks, advisorScreenKey, s.Next, s.Prev}}}, h.blocksGroups...)
	switch h.screen {
	case screenAdvisor:
		return append(h.advisorGroups, append(blockGroups[:1:1], keyGroup{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit}})...)
	case screenBlocks:
		return append(blockGroups, keyGroup{Title: "Moving", Keys: h.moving},
			keyGroup{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit, r.Back}})
	}
	return append(append([]keyGroup(nil), h.searchGroups...), blockGroups...)
}
