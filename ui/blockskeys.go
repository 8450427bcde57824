package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
)

// screenKeyMap switches screens. The digits and brackets are letters in a text field, so
// they work where keys are not text; alt+1 and alt+2 work everywhere.
type screenKeyMap struct {
	Search, Blocks, Next, Prev key.Binding
}

func defaultScreenKeys() screenKeyMap {
	return screenKeyMap{
		Search: key.NewBinding(key.WithKeys("1", "alt+1"), key.WithHelp("1", "search screen")),
		Blocks: key.NewBinding(key.WithKeys("2", "alt+2"), key.WithHelp("2", "blocks screen")),
		Next:   key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next screen")),
		Prev:   key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous screen")),
	}
}

// blocksKeyMap is the blocks screen's own keys, beside its table's. As on the search
// screen, enter (or d) gives the block's detail the focus, tab and shift+tab go between
// the table and the detail, esc goes back to the table; while the detail has the focus the
// table's moving keys scroll it (Scroll).
type blocksKeyMap struct {
	Refresh, Details, Pane, CopyID, CopyBlockID, Open, Extend, Launch, Notify key.Binding
	Scroll                                                                    pager.KeyMap
}

// defaultBlocksKeys returns the keys; read-only mode disables extend and launch, so that
// neither the screen nor help offers them.
func defaultBlocksKeys(readOnly bool) blocksKeyMap {
	km := blocksKeyMap{
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
		Details:     key.NewBinding(key.WithKeys("enter", "d"), key.WithHelp("enter", "details")),
		Pane:        key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "table ⇄ details")),
		CopyID:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy reservation id")),
		CopyBlockID: key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy block id")),
		Open:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in AWS console")),
		Extend:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "extend…")),
		Launch:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "launch…")),
		Notify:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "notifications on/off")),
		Scroll:      pager.NewKeyMap(blocks.DefaultKeyMap().Nav()),
	}
	if readOnly {
		km.Extend.SetEnabled(false)
		km.Launch.SetEnabled(false)
	}
	return km
}
