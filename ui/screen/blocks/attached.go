package blocks

import (
	"fmt"
	"maps"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/screen"
)

// cancelledMsg is the answer of CancelAttached.
type cancelledMsg struct {
	id     string
	launch source.AttachedLaunch
	err    error
}

// byReservation keeps one attached launch per block: the pending one, or else the latest,
// since a block may hold a cancelled launch and the one attached again after it.
func byReservation(ls []source.AttachedLaunch) map[string]source.AttachedLaunch {
	out := map[string]source.AttachedLaunch{}
	for _, l := range ls {
		old, ok := out[l.ReservationID]
		switch {
		case !ok, l.Pending() && !old.Pending(), old.Pending() == l.Pending() && l.AttachedAt.After(old.AttachedAt):
			out[l.ReservationID] = l
		}
	}
	return out
}

// Attached is the launch attached to the block, if any.
func (m Model) Attached(reservationID string) (source.AttachedLaunch, bool) {
	l, ok := m.attached[reservationID]
	return l, ok
}

// pendingSelected is the selected block's pending attached launch: what x cancels.
func (m Model) pendingSelected() (source.AttachedLaunch, bool) {
	b, ok := m.table.Selected()
	if !ok {
		return source.AttachedLaunch{}, false
	}
	l, ok := m.attached[b.ReservationID]
	return l, ok && l.Pending()
}

// Asking reports that the screen waits for y or n to cancel an attached launch.
func (m Model) Asking() bool { return m.confirm != "" }

// attachedFacts are the detail's fields of the block's attached launch.
func (m Model) attachedFacts(b model.Block) []model.Fact {
	l, ok := m.attached[b.ReservationID]
	if !ok {
		return nil
	}
	state := l.State
	switch l.State {
	case "pending":
		state = "pending, waits for the block to start"
		if m.keys.CancelAttached.Enabled() {
			state += " (" + m.keys.CancelAttached.Help().Key + " cancels)"
		}
	case "launched":
		state = "launched " + strings.Join(l.Instances, ", ")
	case "failed", "cancelled":
		if l.Reason != "" {
			state += ": " + l.Reason
		}
	}
	it := l.Spec.InstanceType
	if it == "" {
		it = b.InstanceType
	}
	what := fmt.Sprintf("%d × %s from %s, run once at the block's start", l.Spec.Count, it, l.Spec.ImageID)
	if l.Spec.Name != "" {
		what += fmt.Sprintf(" · Name %q", l.Spec.Name)
	}
	return []model.Fact{{Label: "Attached", Value: "launch " + state}, {Label: "", Value: what}}
}

// askCancel asks y/n before the selected block's pending launch is cancelled.
func (m Model) askCancel() (Model, tea.Cmd) {
	l, ok := m.pendingSelected()
	if !ok {
		m.flash = screen.Say("No pending launch is attached to this block.")
		return m, nil
	}
	m.confirm = l.ReservationID
	m.flash = screen.Say(fmt.Sprintf("Cancel the launch attached to %s (%d × %s)? y cancels it, n keeps it.", l.ReservationID, l.Spec.Count, l.Spec.ImageID))
	return m, nil
}

// answer is the key after the question: y cancels through the backend, any other keeps.
func (m Model) answer(k tea.KeyPressMsg) (Model, tea.Cmd) {
	id := m.confirm
	m.confirm = ""
	if !key.Matches(k, m.keys.Yes) {
		m.flash = screen.Say("Kept the launch attached to " + id + ".")
		return m, nil
	}
	b, ctx := m.pc.Backend, m.pc.Ctx
	if b == nil {
		return m, nil
	}
	m.flash = screen.Say("Cancelling the launch attached to " + id + "…")
	return m, func() tea.Msg {
		l, err := b.CancelAttached(ctx, id)
		return cancelledMsg{id: id, launch: l, err: err}
	}
}

// onCancelled says the outcome and lists again, so the detail shows the record's state.
func (m Model) onCancelled(msg cancelledMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.flash = screen.Say("Could not cancel the launch attached to " + msg.id + ": " + msg.err.Error())
	} else {
		if msg.launch.ReservationID != "" {
			m.attached = maps.Clone(m.attached) // earlier models share the map
			if m.attached == nil {
				m.attached = map[string]source.AttachedLaunch{}
			}
			m.attached[msg.launch.ReservationID] = msg.launch
		}
		m.flash = screen.Say("Cancelled the launch attached to " + msg.id + ": nothing will be launched at its start.")
	}
	flash := m.flash
	m, cmd := m.load()
	m.flash = flash
	return m, cmd
}
