package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/blocks"
)

// The extend dialog's list of lengths: every length AWS could sell is asked for at once
// (the backend's ExtensionChoices), and those offered now are listed with their fee, the new
// end and the break-even of the added hours; the person picks one instead of guessing a
// length AWS may not offer.

// extChoicesMsg is the answer for every length.
type extChoicesMsg struct {
	dialog  int64
	choices []model.ExtensionChoice
	cmps    []pricing.Comparison // one per choice
	err     error                // the lengths that could not be asked, beside the choices
}

// fetchChoices asks for every length and prices each choice.
func (d extendDialog) fetchChoices() tea.Cmd {
	id, b, blk, prices, ctx := d.id, d.env.backend, d.b, d.prices, d.ctx()
	return func() tea.Msg {
		choices, err := b.ExtensionChoices(ctx, blk)
		msg := extChoicesMsg{dialog: id, choices: choices, err: err}
		for _, ch := range choices {
			msg.cmps = append(msg.cmps, pricing.CompareExtension(prices, ch.Offering.AsOffering(blk)))
		}
		return msg
	}
}

// onChoices shows the lengths offered, the one the configuration prefers selected.
func (d extendDialog) onChoices(msg extChoicesMsg) (dialog, tea.Cmd, bool) {
	if msg.dialog != d.id || d.step != extLoading {
		return d, nil, false
	}
	d.choices, d.cmps, d.offErr = msg.choices, msg.cmps, msg.err
	if len(d.choices) == 0 {
		d.step = extNone
		return d, nil, false
	}
	d.step, d.choice = extChoose, 0
	for i, ch := range d.choices {
		if ch.Days == d.prefer {
			d.choice = i
		}
	}
	return d, nil, false
}

// listKey handles a key while the list is shown (or says nothing is offered).
func (d extendDialog) listKey(s string) (dialog, tea.Cmd, bool) {
	d.overCap = false
	switch s {
	case "up", "k", "left", "h":
		d.choice = max(0, d.choice-1)
	case "down", "j", "right", "l":
		d.choice = min(max(0, len(d.choices)-1), d.choice+1)
	case "home", "g":
		d.choice = 0
	case "end", "G":
		d.choice = max(0, len(d.choices)-1)
	case "r":
		return d.askAgain()
	case "enter":
		if d.step == extNone {
			return d.askAgain()
		}
		ch, ok := d.chosen()
		if !ok {
			return d, nil, false
		}
		if c := d.env.maxSpend; c != nil && ch.Offering.Fee.Cmp(*c) > 0 {
			// As the purchase dialog does: above the cap nothing is sent, not even the dry
			// run, and no word is asked for.
			d.overCap = true
			return d, nil, false
		}
		d.off, d.cmp, d.step = ch.Offering, d.cmps[d.choice], extChecking
		if blocks.IsPlan(d.b) {
			// SageMaker has no DryRun; the dialog says so where a block's shows its answer.
			d.perm, d.permErr, d.step = Permission{Allowed: true, Action: "sagemaker:ExtendTrainingPlan"}, nil, extConfirm
			return d, nil, false
		}
		return d, d.checkCmd(), false
	}
	return d, nil, false
}

// askAgain asks AWS for every length again; an answer still on its way answers no one.
func (d extendDialog) askAgain() (dialog, tea.Cmd, bool) {
	d.id = dialogSeq.Add(1)
	d.step, d.choices, d.cmps, d.offErr = extLoading, nil, nil, nil
	return d, d.fetchChoices(), false
}

// chosen is the selected length's choice.
func (d extendDialog) chosen() (model.ExtensionChoice, bool) {
	if d.choice < 0 || d.choice >= len(d.choices) || d.choice >= len(d.cmps) {
		return model.ExtensionChoice{}, false
	}
	return d.choices[d.choice], true
}

// addedLength is the length being bought, for the dialog's "Add" line.
func (d extendDialog) addedLength() string {
	if ch, ok := d.chosen(); ok {
		return model.FormatDays(ch.Days)
	}
	if d.off.DurationHours > 0 {
		return model.FormatDays(d.off.DurationHours / 24)
	}
	return "—"
}

// listLines are the dialog's lines while it asks, lists or has nothing to offer, at width w.
func (d extendDialog) listLines(w, room int) []string {
	th, loc := d.env.th, d.env.loc
	var out []string
	switch d.step {
	case extLoading:
		return []string{th.Value.Render("Asking AWS for every length at once (1–14 days, then whole weeks up to 182 days in all)…")}
	case extNone:
		if d.offErr != nil {
			out = append(out, wrapStyled(th.Error, "The extension offerings could not be listed: "+d.offErr.Error(), w)...)
		} else {
			out = append(out, wrapStyled(th.Warning, fmt.Sprintf("AWS offers no extension of this block now, of any length (no capacity in %s after its end). Try again later.",
				d.b.AvailabilityZone), w)...)
		}
		return append(out, th.Muted.Render(ansi.Truncate("enter or r asks again · esc closes", w, "…")))
	}
	out = append(out, th.Label.Render(ansi.Truncate(fmt.Sprintf("%d length(s) offered now; choose the length:", len(d.choices)), w, "…")))
	out = append(out, th.Label.Render(ansi.Truncate(fmt.Sprintf("  %-5s %-34s %18s %10s", "Add", "New end", "Upfront fee", "Break-even"), w, "")))
	// The rows around the selection that fit the room left.
	rows := max(1, room)
	lo := max(0, min(d.choice-rows/2, len(d.choices)-rows))
	hi := min(len(d.choices), lo+rows)
	for i := lo; i < hi; i++ {
		ch := d.choices[i]
		line := fmt.Sprintf("%-5s %-34s %18s %10s", model.FormatDays(ch.Days), bothTimes(ch.Offering.End, loc), ch.Offering.Fee.Dollars(), d.cmps[i].BreakEvenCell())
		if i == d.choice {
			out = append(out, th.Selected.Render(ansi.Truncate("› "+line, w, "…")))
		} else {
			out = append(out, th.Value.Render(ansi.Truncate("  "+line, w, "…")))
		}
	}
	if d.offErr != nil {
		out = append(out, wrapStyled(th.Warning, d.offErr.Error(), w)...)
	}
	if ch, ok := d.chosen(); ok && d.overCap {
		out = append(out, wrapStyled(th.Error, fmt.Sprintf("REFUSED: the %s extension's fee %s is above the spending cap of %s (--max-spend, or max_spend in the config file). "+
			"Nothing was sent to AWS; choose another length or raise the cap.", model.FormatDays(ch.Days), exactFee(ch.Offering.Fee, ch.Offering.Currency),
			d.env.maxSpend.Dollars()), w)...)
	}
	return append(out, th.Muted.Render(ansi.Truncate("↑/↓ choose the length · enter shows it and checks permission · r asks again · esc cancels", w, "…")))
}
