package extend

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is the extend dialog's keys in its step. The footer names esc and ctrl+c
// (ShortHelp) and leaves the step's own keys to the lines of the dialog, which name them
// where they act; the help names them all (FullHelp).
type KeyMap struct {
	Up, Down    key.Binding
	Top, Bottom key.Binding
	Show        key.Binding
	Again       key.Binding
	Back        key.Binding
	Confirm     key.Binding
	Cancel      key.Binding
	Close       key.Binding
	Quit        key.Binding
}

// Keys is the dialog's keys in its step.
func (d Model) Keys() KeyMap {
	k := KeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k", "left", "h"), key.WithHelp("↑/k", "shorter")),
		Down:    key.NewBinding(key.WithKeys("down", "j", "right", "l"), key.WithHelp("↓/j", "longer")),
		Top:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "shortest")),
		Bottom:  key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "longest")),
		Show:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "shows it and checks permission")),
		Again:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "asks again")),
		Back:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "another length")),
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("type extend then enter", "to extend")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancels")),
		Close:   key.NewBinding(key.WithKeys("esc", "enter", "q", "space"), key.WithHelp("any key", "closes")),
		Quit:    key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quits")),
	}
	choosing := d.step == stepChoose || d.step == stepLoading || d.step == stepNone
	moving := d.step == stepChoose || d.step == stepLoading
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.Top, &k.Bottom} {
		b.SetEnabled(moving)
	}
	if d.step == stepNone {
		k.Show.SetHelp("enter", "asks again")
	}
	k.Show.SetEnabled(d.step == stepChoose || d.step == stepNone)
	k.Again.SetEnabled(choosing)
	k.Back.SetEnabled(d.step == stepChecking || d.step == stepConfirm)
	k.Confirm.SetEnabled(d.step == stepChecking || d.step == stepConfirm)
	if !d.spend.CanType() {
		k.Confirm.SetHelp("enter", "says why it cannot go ahead")
	}
	if d.policy != nil {
		k.Cancel.SetHelp("esc", "declines (recorded)")
	}
	k.Cancel.SetEnabled(d.step != stepBuying && d.step != stepDone)
	k.Close.SetEnabled(d.step == stepDone)
	if d.step == stepBuying {
		k.Quit.SetHelp("ctrl+c twice", "quits anyway")
	}
	return k
}

// ShortHelp is the keys the footer names, in its order.
func (k KeyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, b := range []key.Binding{k.Cancel, k.Close, k.Quit} {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// FullHelp is the step's own keys, then the footer's.
func (k KeyMap) FullHelp() [][]key.Binding {
	var own []key.Binding
	for _, b := range []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.Show, k.Again, k.Back, k.Confirm} {
		if b.Enabled() {
			own = append(own, b)
		}
	}
	return [][]key.Binding{own, k.ShortHelp()}
}

// Footer is the root's footer line while the dialog is open.
func (d Model) Footer() string {
	var parts []string
	switch d.step {
	case stepBuying:
		parts = append(parts, "waiting for the extension's answer")
	case stepDone:
	default:
		parts = append(parts, "keys as shown in the dialog")
	}
	for _, b := range d.Keys().ShortHelp() {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " • ")
}
