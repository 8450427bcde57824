package receipt

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/model"
)

// KeyMap is the receipt's keys, which feed the root's footer (ShortHelp) and the help
// (FullHelp), and which Update matches.
type KeyMap struct {
	Copy   key.Binding
	Launch key.Binding
	Close  key.Binding
	// launchNow: l opens the launch form, and the footer names it before Close; otherwise
	// l says why it never will (help only).
	launchNow bool
}

// Keys is the receipt's keys for what it shows: a plan's ARN or a block's id to copy, and
// l, which launches into a block that takes a launch and otherwise says why not.
func (r Model) Keys() KeyMap {
	k := KeyMap{
		Copy:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the reservation id")),
		Launch: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "launch into the block")),
		Close:  key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("esc, enter or q", "closes")),
	}
	switch {
	case !r.caps().Launch:
		k.Copy.SetHelp("y", "copy the plan's ARN")
		k.Launch.SetHelp("l", "says how it is used instead")
	case r.block.State == model.StatePaymentPending:
		k.Launch.SetHelp("l", "launch when the block starts")
		k.launchNow = true
	case launchable(r.block.State):
		k.launchNow = true
	default:
		k.Launch.SetHelp("l", "says why nothing can be launched")
	}
	return k
}

// ShortHelp is the keys the footer names, in its order: l only where it launches.
func (k KeyMap) ShortHelp() []key.Binding {
	out := []key.Binding{k.Copy}
	if k.launchNow {
		out = append(out, k.Launch)
	}
	return append(out, k.Close)
}

// FullHelp is every key the receipt handles, in one column.
func (k KeyMap) FullHelp() [][]key.Binding {
	out := k.ShortHelp()
	if !k.launchNow {
		out = append(out, k.Launch)
	}
	return [][]key.Binding{out}
}

// Footer is the root's footer line while the receipt is open.
func (r Model) Footer() string {
	var parts []string
	for _, b := range r.Keys().ShortHelp() {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	if !r.caps().Launch {
		parts = append(parts, "the reservations screen (2) shows how to use it")
	}
	return strings.Join(parts, " • ")
}
