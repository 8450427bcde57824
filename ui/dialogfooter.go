package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
)

// A dialog takes every key while it is open, so the footer names its keys, not those of
// the screen behind it (where q quits, / filters and enter buys).

// dialogFooter is a dialog that names its own keys for the footer.
type dialogFooter = uidialog.Footer

// dialogFooterLine is the footer's key line while d is open; false for the help, which
// leaves the screen's short help under it, the keys it explains.
func dialogFooterLine(d dialog) (string, bool) {
	if _, ok := d.(helpDialog); ok {
		return "", false
	}
	if f, ok := d.(dialogFooter); ok {
		return f.Footer(), true
	}
	return "esc closes • ctrl+c quits", true
}

func (d compareDialog) Footer() string { return "esc or c back to the offerings • ctrl+c quits" }

func (d purchaseDialog) Footer() string {
	fields := []key.Binding{
		key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "platform · tags · confirmation")),
		key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "platform")),
	}
	if isPlan(d.o) {
		// A plan has no platform: SageMaker runs its instances.
		fields = []key.Binding{key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "tags · confirmation"))}
	}
	return d.spend.Footer(fields...)
}

func (r receiptDialog) Footer() string {
	if isPlan(r.o) {
		return "y copy the plan's ARN • esc, enter or q closes • the reservations screen (2) shows how to use it"
	}
	switch r.block.State {
	case model.StateActive, model.StateScheduled:
		return "y copy the reservation id • l launch into the block • esc, enter or q closes"
	case model.StatePaymentPending:
		return "y copy the reservation id • esc, enter or q closes • l launches once the block is scheduled"
	}
	return "y copy the reservation id • esc, enter or q closes" // it will never run
}

func (d extendDialog) Footer() string {
	switch {
	case d.Busy():
		return "waiting for the extension's answer • ctrl+c twice quits anyway"
	case d.step == extDone:
		return "any key closes • ctrl+c quits"
	}
	return "keys as shown in the dialog • esc cancels • ctrl+c quits"
}
