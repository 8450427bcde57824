package receipt

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/model"
)

// KeyMap is the receipt's keys, which feed the root's footer (ShortHelp) and the help.
type KeyMap struct {
	Copy   key.Binding
	Launch key.Binding
	Close  key.Binding
	// later: l is named after the keys that work now, as what it will do once the block
	// is scheduled.
	later bool
}

// Keys is the receipt's keys for what it shows: a plan's ARN or a block's id to copy, and
// l only on a block that takes a launch now (or, said apart, once its payment settles).
func (r Model) Keys() KeyMap {
	k := KeyMap{
		Copy:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the reservation id")),
		Launch: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "launch into the block")),
		Close:  key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("esc, enter or q", "closes")),
	}
	switch {
	case isPlan(r.o):
		k.Copy.SetHelp("y", "copy the plan's ARN")
		k.Launch.SetEnabled(false)
	case r.block.State == model.StateActive || r.block.State == model.StateScheduled:
	case r.block.State == model.StatePaymentPending:
		k.Launch.SetHelp("l", "launches once the block is scheduled")
		k.later = true
	default:
		k.Launch.SetEnabled(false) // it will never run
	}
	return k
}

// ShortHelp is the keys the footer names, in its order.
func (k KeyMap) ShortHelp() []key.Binding {
	out := []key.Binding{k.Copy}
	if k.Launch.Enabled() && !k.later {
		out = append(out, k.Launch)
	}
	out = append(out, k.Close)
	if k.Launch.Enabled() && k.later {
		out = append(out, k.Launch)
	}
	return out
}

// FullHelp is ShortHelp in one column.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Footer is the root's footer line while the receipt is open.
func (r Model) Footer() string {
	var parts []string
	for _, b := range r.Keys().ShortHelp() {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	if isPlan(r.o) {
		parts = append(parts, "the reservations screen (2) shows how to use it")
	}
	return strings.Join(parts, " • ")
}
