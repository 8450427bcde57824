package extend

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
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

// extChoiceMsg is one length offered, or how far the asking is (progress), while the
// others are still being asked; next reads the answer after it.
type extChoiceMsg struct {
	dialog   int64
	choice   model.ExtensionChoice
	cmp      pricing.Comparison
	progress *model.ExtensionProgress
	next     tea.Cmd
}

// fetchChoices asks for every length and prices each choice; the lengths offered arrive
// one by one (AWS's request bucket makes the long ones slow), then the whole answer.
func (d Model) fetchChoices() tea.Cmd {
	id, b, blk, prices, ctx := d.ask, d.env.Backend, d.b, d.prices, d.ctx()
	return func() tea.Msg {
		// Room for every length and its progress, so that the asking never waits on a dialog
		// closed meanwhile; a progress step that finds no room is dropped (a later one says more).
		found := make(chan extChoiceMsg, 3*len(model.ExtensionLengths(blk))+1)
		done := make(chan extChoicesMsg, 1)
		ctx = source.WithExtensionProgress(ctx, func(p model.ExtensionProgress) {
			select {
			case found <- extChoiceMsg{dialog: id, progress: &p}:
			default:
			}
		})
		go func() {
			choices, err := b.ExtensionChoices(ctx, blk, func(ch model.ExtensionChoice) {
				found <- extChoiceMsg{dialog: id, choice: ch, cmp: pricing.CompareExtension(prices, ch.Offering.AsOffering(blk))}
			})
			msg := extChoicesMsg{dialog: id, choices: choices, err: err}
			for _, ch := range choices {
				msg.cmps = append(msg.cmps, pricing.CompareExtension(prices, ch.Offering.AsOffering(blk)))
			}
			close(found)
			done <- msg
		}()
		return nextChoice(found, done)()
	}
}

func nextChoice(found <-chan extChoiceMsg, done <-chan extChoicesMsg) tea.Cmd {
	return func() tea.Msg {
		if msg, ok := <-found; ok {
			msg.next = nextChoice(found, done)
			return msg
		}
		return <-done
	}
}

// onChoice lists one more length offered, in order of length, keeping the selection.
func (d Model) onChoice(msg extChoiceMsg) (dialog.Dialog, tea.Cmd, bool) {
	if msg.dialog != d.ask || !d.asking {
		return d, nil, false
	}
	if msg.progress != nil {
		d.progress = *msg.progress
		return d, msg.next, false
	}
	sel, had := d.chosen()
	i := 0
	for i < len(d.choices) && d.choices[i].Days < msg.choice.Days {
		i++
	}
	if i < len(d.choices) && d.choices[i].Days == msg.choice.Days {
		return d, msg.next, false
	}
	d.choices = append(d.choices[:i:i], append([]model.ExtensionChoice{msg.choice}, d.choices[i:]...)...)
	d.cmps = append(d.cmps[:i:i], append([]pricing.Comparison{msg.cmp}, d.cmps[i:]...)...)
	if d.step == stepLoading {
		d.step = stepChoose
	}
	d.choice = d.selectAfterAnswer(sel.Days, had)
	return d, msg.next, false
}

// selectAfterAnswer is the index to select once the list has changed: the length selected
// before once the person has moved, else the length the configuration prefers, else the
// shortest.
func (d Model) selectAfterAnswer(selDays int, had bool) int {
	want := d.prefer
	// The length shown for its dry run or its word must stay the one being bought.
	if had && (d.moved || (d.step != stepChoose && d.step != stepLoading && d.step != stepNone)) {
		want = selDays
	}
	for i, ch := range d.choices {
		if ch.Days == want {
			return i
		}
	}
	return 0
}

// onChoices shows the lengths offered, the one the configuration prefers selected unless
// the person has chosen another meanwhile.
func (d Model) onChoices(msg extChoicesMsg) (dialog.Dialog, tea.Cmd, bool) {
	if msg.dialog != d.ask || (!d.asking && d.step != stepLoading) {
		return d, nil, false
	}
	sel, had := d.chosen()
	d.asking = false
	d.choices, d.cmps, d.offErr = msg.choices, msg.cmps, msg.err
	switch d.step {
	case stepLoading, stepChoose, stepNone:
	default:
		// A length already shown for its dry run or its word stays; shift+tab returns to
		// the whole list.
		d.choice = d.selectAfterAnswer(sel.Days, had)
		return d, nil, false
	}
	if len(d.choices) == 0 {
		d.step = stepNone
		return d, nil, false
	}
	d.step = stepChoose
	d.choice = d.selectAfterAnswer(sel.Days, had)
	return d, nil, false
}

// askingLine says, while lengths are still being asked, how far the asking is and what is
// left at AWS's pace, once the first length has answered.
func (d Model) askingLine() string {
	if d.progress.Lengths > 0 {
		return "Still asking AWS: " + d.progress.Sentence()
	}
	return fmt.Sprintf("Still asking AWS about the other lengths (%d in all; its request limit lets them come slowly)…", len(model.ExtensionLengths(d.b)))
}

// listKey handles a key while the list is shown (or says nothing is offered).
func (d Model) listKey(k tea.KeyPressMsg, km KeyMap) (dialog.Dialog, tea.Cmd, bool) {
	d.spend.Uncap()
	switch {
	case key.Matches(k, km.Up):
		d.choice, d.moved = max(0, d.choice-1), true
	case key.Matches(k, km.Down):
		d.choice, d.moved = min(max(0, len(d.choices)-1), d.choice+1), true
	case key.Matches(k, km.Top):
		d.choice, d.moved = 0, true
	case key.Matches(k, km.Bottom):
		d.choice, d.moved = max(0, len(d.choices)-1), true
	case key.Matches(k, km.Again):
		return d.askAgain()
	case key.Matches(k, km.Show):
		if d.step == stepNone {
			return d.askAgain()
		}
		ch, ok := d.chosen()
		if !ok {
			return d, nil, false
		}
		if d.capRefusal = model.CapRefusal(ch.Offering.Fee, d.env.MaxSpend, d.env.MaxSpendRule); d.capRefusal != "" {
			// As the purchase dialog does: above the cap nothing is sent, not even the dry
			// run, and no word is asked for.
			d.spend.Cap()
			return d, nil, false
		}
		d.off, d.cmp, d.step, d.moved = ch.Offering, d.cmps[d.choice], stepChecking, true
		d.spend.Check()
		return d, d.checkCmd(), false
	}
	return d, nil, false
}

// askAgain asks AWS for every length again; an answer still on its way answers no one.
func (d Model) askAgain() (dialog.Dialog, tea.Cmd, bool) {
	d.id = dialog.NextSeq()
	d.ask, d.asking, d.moved, d.progress = d.id, true, false, model.ExtensionProgress{}
	d.step, d.choices, d.cmps, d.offErr = stepLoading, nil, nil, nil
	return d, d.fetchChoices(), false
}

// chosen is the selected length's choice.
func (d Model) chosen() (model.ExtensionChoice, bool) {
	if d.choice < 0 || d.choice >= len(d.choices) || d.choice >= len(d.cmps) {
		return model.ExtensionChoice{}, false
	}
	return d.choices[d.choice], true
}

// addedLength is the length being bought, for the dialog's "Add" line.
func (d Model) addedLength() string {
	if ch, ok := d.chosen(); ok {
		return model.FormatDays(ch.Days)
	}
	if d.off.DurationHours > 0 {
		return model.FormatDays(d.off.DurationHours / 24)
	}
	return "—"
}

// listLines are the dialog's lines while it asks, lists or has nothing to offer, at width w.
func (d Model) listLines(w, room int) []string {
	th, loc := d.env.Theme, d.env.Location
	var out []string
	switch d.step {
	case stepLoading:
		if d.progress.Lengths > 0 {
			return dialog.WrapStyled(th.Value, "Asking AWS for every length, none offered yet: "+d.progress.Sentence(), w)
		}
		return []string{th.Value.Render(fmt.Sprintf("Asking AWS for every length at once (1–14 days, then whole weeks up to %d days in all)…", model.MaxReservationDays))}
	case stepNone:
		if d.offErr != nil {
			out = append(out, dialog.WrapStyled(th.Error, "The extension offerings could not be listed: "+d.offErr.Error(), w)...)
		} else {
			out = append(out, dialog.WrapStyled(th.Warning, fmt.Sprintf("AWS offers no extension of this block now, of any length (no capacity in %s after its end). Try again later.",
				d.b.AvailabilityZone), w)...)
		}
		return append(out, th.Muted.Render(ansi.Truncate("enter or r asks again · esc closes", w, "…")))
	}
	out = append(out, th.Label.Render(ansi.Truncate(model.Plural(len(d.choices), "length", "lengths")+" offered now; choose the length:", w, "…")))
	out = append(out, th.Label.Render(ansi.Truncate(fmt.Sprintf("  %-5s %-34s %18s %10s", "Add", "New end", "Upfront fee", "Break-even"), w, "")))
	// The rows around the selection that fit the room left.
	rows := max(1, room)
	if d.asking {
		rows = max(1, rows-1) // the line that says the rest is on its way
	}
	lo := max(0, min(d.choice-rows/2, len(d.choices)-rows))
	hi := min(len(d.choices), lo+rows)
	for i := lo; i < hi; i++ {
		ch := d.choices[i]
		line := fmt.Sprintf("%-5s %-34s %18s %10s", model.FormatDays(ch.Days), model.BothTimes(ch.Offering.End, loc), ch.Offering.Fee.Dollars(), d.cmps[i].BreakEvenCell())
		if i == d.choice {
			out = append(out, th.Selected.Render(ansi.Truncate("› "+line, w, "…")))
		} else {
			out = append(out, th.Value.Render(ansi.Truncate("  "+line, w, "…")))
		}
	}
	if d.asking {
		out = append(out, th.Muted.Render(ansi.Truncate(d.askingLine(), w, "…")))
	}
	if d.offErr != nil {
		out = append(out, dialog.WrapStyled(th.Warning, d.offErr.Error(), w)...)
	}
	if ch, ok := d.chosen(); ok && d.spend.OverCap {
		out = append(out, dialog.WrapStyled(th.Error, model.FormatDays(ch.Days)+": "+d.capRefusal+" Choose another length.", w)...)
	}
	return append(out, th.Muted.Render(ansi.Truncate("↑/↓ choose the length · enter shows it and checks permission · r asks again · esc cancels", w, "…")))
}
