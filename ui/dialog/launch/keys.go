package launch

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is the launch form's keys, which feed the root's footer (ShortHelp) and the help
// (FullHelp), as a charm.land/bubbles component's do.
type KeyMap struct {
	Launch key.Binding
	Next   key.Binding
	Prev   key.Binding
	Subnet key.Binding
	Across key.Binding
	Cancel key.Binding
	Copy   key.Binding
	Close  key.Binding
	Quit   key.Binding
}

// Keys is the form's keys in its state: the form's while it is being filled, only ctrl+c
// while the launch (or the attachment) is in flight, copy and close once it answered.
func (d Model) Keys() KeyMap {
	k := KeyMap{
		Launch: key.NewBinding(key.WithKeys("enter"), key.WithHelp("type launch then enter", "to launch")),
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		Subnet: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "picks a subnet of the zone")),
		Across: key.NewBinding(key.WithKeys("up", "down", "space"), key.WithHelp("↑/↓", "this block or all its purchase's reservations")),
		Cancel: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "cancels")),
		Copy:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the instance ids")),
		Close:  key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("esc, enter or q", "closes")),
		Quit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c twice", "quits anyway")),
	}
	busy, answered := d.spend.Busy(), d.answered()
	filling := !busy && !answered
	k.Launch.SetEnabled(filling)
	k.Next.SetEnabled(filling)
	k.Prev.SetEnabled(filling)
	k.Subnet.SetEnabled(filling && len(d.subnets) > 0 && !d.across)
	k.Across.SetEnabled(filling && d.group != nil)
	k.Cancel.SetEnabled(filling)
	k.Copy.SetEnabled(!busy && d.result != nil)
	k.Close.SetEnabled(!busy && answered)
	k.Quit.SetEnabled(busy)
	return k
}

// ShortHelp is the keys the footer names, in its order.
func (k KeyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, b := range []key.Binding{k.Launch, k.Next, k.Copy, k.Cancel, k.Close, k.Quit} {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// FullHelp is every key of the form's state, shift+tab and the subnet picker too.
func (k KeyMap) FullHelp() [][]key.Binding {
	all := k.ShortHelp()
	for _, b := range []key.Binding{k.Prev, k.Subnet, k.Across} {
		if b.Enabled() {
			all = append(all, b)
		}
	}
	return [][]key.Binding{all}
}

// Footer is the root's footer line while the form is open: what it waits for, then its keys.
func (d Model) Footer() string {
	var parts []string
	switch {
	case d.spend.Busy():
		parts = append(parts, "waiting for the launch's answer")
	case d.attached != nil:
		parts = append(parts, "attached: launched at the start")
	}
	for _, b := range d.Keys().ShortHelp() {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " • ")
}
