// Package receipt is what a purchase bought: the reservation and its ids, its state followed
// live until it is scheduled (or active), the journal, and how the purchase was confirmed
// when its reply was lost; for a training plan, its name, ARN and parts. From a block's
// receipt, l opens the launch form (ui/dialog/launch).
package receipt

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/screen"
)

// Model is what was bought: the reservation and block ids, the state followed live
// until the block is scheduled (or active), the journal, and how the purchase was
// confirmed when its reply was lost. y copies the reservation id; l opens the launch form.
type Model struct {
	env      dialog.Env
	id       int64
	o        model.Offering
	platform string
	res      source.PurchaseResult
	block    model.Block
	polls    int
	pollErr  error
	journal  string
	settled  bool
	note     string
}

type journalMsg struct {
	dialog int64
	path   string
}

// New is the receipt of res, the purchase of o on platform. It asks for the search again
// (bought offerings leave the market) and follows the block until its payment settles.
func New(env dialog.Env, o model.Offering, platform string, res source.PurchaseResult) (Model, tea.Cmd) {
	r := Model{env: env, id: dialog.NextSeq(), o: o, platform: platform, res: res, block: res.Block}
	r.settled = dialog.BlockSettled(r.block.State)
	id, b := r.id, env.Backend
	journal := func() tea.Msg {
		p, err := b.JournalPath()
		if err != nil {
			p = "unknown (" + err.Error() + ")"
		}
		return journalMsg{dialog: id, path: p}
	}
	// Bought offerings leave the market: the results are searched again behind the receipt.
	refresh := func() tea.Msg { return dialog.RootMsg{Refresh: true} }
	if r.settled {
		return r, tea.Batch(journal, refresh)
	}
	return r, tea.Batch(journal, refresh, dialog.PollBlock(env, r.id, r.block, 0))
}

func (r Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		r.env.Size = screen.Rect(msg)
	case journalMsg:
		if msg.dialog == r.id {
			r.journal = msg.path
		}
	case dialog.BlockPolledMsg:
		if msg.Dialog != r.id {
			return r, nil, false
		}
		r.polls++
		r.pollErr = msg.Err
		var cmd tea.Cmd
		if msg.Found {
			if msg.Block.State != r.block.State {
				r.note = "" // it may speak of the state before
				if msg.Block.State == model.StatePaymentFailed {
					// Its capacity is on sale again: the results behind the receipt show it.
					cmd = func() tea.Msg { return dialog.RootMsg{Refresh: true} }
				}
			}
			r.block = msg.Block
			r.settled = dialog.BlockSettled(r.block.State)
		}
		if !r.settled {
			return r, dialog.PollBlock(r.env, r.id, r.block, r.env.Poll), false
		}
		return r, cmd, false
	case tea.KeyPressMsg:
		km := r.Keys()
		switch {
		case key.Matches(msg, km.Close):
			return r, nil, true
		case key.Matches(msg, km.Copy):
			if !r.caps().Launch {
				r.note = "Copied " + r.block.ARN + "."
				return r, tea.SetClipboard(r.block.ARN), false
			}
			ids := r.reservationIDs()
			r.note = "Copied " + ids + "."
			return r, tea.SetClipboard(ids), false
		case key.Matches(msg, km.Launch):
			if !r.caps().Launch {
				r.note = "A training plan is not launched into: SageMaker runs what is given its ARN."
				return r, nil, false
			}
			if r.block.State == model.StatePaymentFailed {
				r.note = "Nothing can be launched: the payment failed and this block will never start."
				return r, nil, false
			}
			if !launchable(r.block.State) {
				r.note = fmt.Sprintf("The block is %s: nothing can be launched into it.", r.block.State)
				return r, nil, false
			}
			// A block still being paid for takes a launch at its start, as a scheduled one
			// does; the form says that a failed payment cancels it.
			ld, cmd := launch.NewInGroup(r.env, r.block, r.group())
			return ld, cmd, false
		}
	}
	return r, nil, false
}

func (r Model) lines(w int) []string {
	if !r.caps().Launch {
		return r.planLines(w)
	}
	th, b := r.env.Theme, r.block
	failed := b.State == model.StatePaymentFailed
	var out []string
	switch {
	case failed:
		out = append(out, dialog.WrapStyled(th.Error.Bold(true), "PAYMENT FAILED: AWS could not take the payment, so the Capacity Block is not yours.", w)...)
		out = append(out, dialog.WrapStyled(th.Error, "The block will never start and nothing can run in it; AWS lists it as payment-failed. "+
			"Check the account's payment method in the AWS Billing console, then search again: its capacity went back on sale (someone else may buy it first).", w)...)
		if r.res.Recovered {
			out = append(out, dialog.WrapStyled(th.Muted, fmt.Sprintf("The reply to the purchase was lost; the reservation %s was found by its request tag gpublock:request-id=%s.",
				r.res.Block.ReservationID, r.res.RequestID), w)...)
		}
	case r.res.Recovered:
		out = append(out, dialog.WrapStyled(th.OK.Bold(true), fmt.Sprintf("BOUGHT, once. The reply to the purchase was lost; the reservation %s was found by its request tag gpublock:request-id=%s.",
			r.res.Block.ReservationID, r.res.RequestID), w)...)
	default:
		out = append(out, th.OK.Bold(true).Render("BOUGHT: the Capacity Block is yours."))
	}
	out = append(out, dialog.SettledLines(th, r.res.Settled, r.res.NotRecorded(), w)...)
	state := r.stateWords(string(b.State), failed, "will not start")
	fee := model.ExactFee(r.o.Fee, r.o.Currency)
	if failed {
		fee += " · the payment failed"
	}
	rows := [][2]string{
		{"Reservation", r.res.Block.ReservationID},
		{"Block", b.BlockID},
		{"State", state},
		{"Region · zone", b.Region + " · " + b.AvailabilityZone},
		{"Capacity", fmt.Sprintf("%s × %d", b.InstanceType, b.TotalCount)},
		{"Start", model.BothTimes(b.Start, r.env.Location)},
		{"End", model.BothTimes(b.End, r.env.Location)},
		{"Upfront fee", fee},
		{"Platform", r.platform},
		{"Request tag", "gpublock:request-id=" + r.res.RequestID},
		{"Journal", r.journalPath() + " (the lines with this request id)"},
	}
	if g := r.res.Blocks; len(g) > 1 {
		// One purchase, several reservations (one per segment): each is said, the first
		// (followed above) among them, and y copies them all.
		group := [][2]string{{"Reservations", fmt.Sprintf("%d, one per segment, bought together", len(g))}}
		for i, gb := range g {
			group = append(group, [2]string{fmt.Sprintf("%d of %d", i+1, len(g)),
				fmt.Sprintf("%s · %s · %s × %d", gb.ReservationID, gb.AvailabilityZone, gb.InstanceType, gb.TotalCount)})
		}
		rows = append(group, rows...)
		rows[len(g)+1][0] = "Followed"
	}
	out = append(out, dialog.FieldLines(th, rows, w)...)
	keys := "y copies the reservation id · esc closes"
	switch {
	case b.State == model.StatePaymentPending:
		keys = "y copies the reservation id · l launches instances into it when it starts · esc closes"
	case launchable(b.State):
		keys = "y copies the reservation id · l launches instances into it · esc closes"
	}
	if len(r.res.Blocks) > 1 {
		keys = strings.Replace(keys, "reservation id", "reservation ids", 1)
	}
	out = append(out, th.Muted.Render(keys))
	if r.note != "" {
		out = append(out, th.Accent.Render(r.note))
	}
	return out
}

func (r Model) View(width, height int) string {
	w := min(width, dialog.MaxWidth)
	lines := r.lines(w - 2)
	rc := dialog.BoxRect(width, height, len(lines))
	return dialog.Place(dialog.ModeFrame(r.env.Theme, r.env.Simulated, "Receipt", strings.Join(lines, "\n"), rc), width)
}

// launchable: the block takes a launch, now (active) or at its start (scheduled, or its
// payment still being collected).
// stateWords is the block's state in words, then what the receipt knows of it: final (in
// the words of final) when it will not start, watching while the payment is collected, the
// countdown once it is scheduled.
func (r Model) stateWords(state string, failed bool, final string) string {
	b := r.block
	switch {
	case failed:
		return state + " · final: " + final + " · no longer watched"
	case !r.settled && r.pollErr != nil:
		return state + " · could not look again: " + r.pollErr.Error()
	case !r.settled:
		return state + " · payment is being collected; watching…"
	case b.State == model.StateScheduled:
		return state + " · starts in " + model.PreciseSpan(b.Start.Sub(r.env.Now()))
	}
	return state
}

// journalPath is where the journal is, once its path is known.
func (r Model) journalPath() string {
	if r.journal == "" {
		return "…"
	}
	return r.journal
}

func launchable(s model.BlockState) bool {
	return s == model.StateActive || s == model.StateScheduled || s == model.StatePaymentPending
}

// caps is what the offering's source can do: a source gpublock does not launch into (a
// SageMaker training plan) is used by its ARN, which the receipt shows and copies instead.
func (r Model) caps() source.Caps { return r.env.Caps(r.o.Source) }

// group is what the purchase made, the followed block as it is now among them.
func (r Model) group() []model.Block {
	g := append([]model.Block(nil), r.res.Blocks...)
	for i := range g {
		if g[i].ReservationID == r.block.ReservationID {
			g[i] = r.block
		}
	}
	return g
}

// reservationIDs are what y copies: the reservation's id, or every id of the purchase,
// space-separated, when it made several.
func (r Model) reservationIDs() string {
	if len(r.res.Blocks) < 2 {
		return r.res.Block.ReservationID
	}
	ids := make([]string, len(r.res.Blocks))
	for i, b := range r.res.Blocks {
		ids[i] = b.ReservationID
	}
	return strings.Join(ids, " ")
}
