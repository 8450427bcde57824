// Package extend is the extend dialog of a block or a training plan, confirmed as a
// purchase is: choose among the lengths AWS offers now (list.go), see the extension
// offering, the new end, the exact fee and the break-even of the added hours against
// on-demand; the dry run answers before anything can be typed; typing extend and enter
// buys; the payment is then followed. Every other way out extends nothing.
package extend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/screen"
)

// extLabelWidth is the extend dialog's label column: its longest label, "Upfront fee".
const extLabelWidth = 11

// Model is the extend dialog of a block.
type Model struct {
	env    dialog.Env
	id     int64
	prices *pricing.Catalog
	b      model.Block
	// The lengths AWS offers now (list.go), each priced; choice is the selected
	// one, prefer the length in days to select first (the configuration's).
	choices []model.ExtensionChoice
	cmps    []pricing.Comparison
	choice  int
	prefer  int
	// ask is the id of the asking under way (its answers stream in while asking); moved
	// says the person chose a length, which a length answering later must not undo.
	// progress is how far the asking is, as the source last said (none yet: Lengths 0).
	ask      int64
	asking   bool
	moved    bool
	progress model.ExtensionProgress

	step   step
	offErr error
	off    model.ExtensionOffering
	cmp    pricing.Comparison
	// spend is the chosen length's dry run, the cap, the typed word, the call and its
	// outcome; step says which part of the dialog shows.
	spend spend.Machine
	// prep is the spend service's answer for the chosen length; capRefusal the cap's
	// sentence when its fee is above the cap.
	prep       source.Prepared
	capRefusal string

	res source.ExtendResult

	// policy, when set, is the auto-extension policy's ask this dialog answers: esc
	// records the decline, and an extension records the decision taken before it is bought.
	policy *source.AutoExtendAsk

	// Once bought, the extension's payment is followed, as the receipt follows a block's:
	// status is the extension's as last listed, after the block then (found: listed).
	status  model.ExtensionStatus
	after   model.Block
	found   bool
	pollErr error
}

// Busy reports an extension in flight: the root then lets ctrl+c warn before it quits.
func (d Model) Busy() bool { return d.step == stepBuying }

// step is the part of the dialog that shows.
type step int

// The steps, in the order the dialog goes through them.
const (
	stepChoose   step = iota // choosing among the lengths offered
	stepLoading              // asking for every length
	stepNone                 // no length offered (or the calls failed)
	stepChecking             // the offering is shown; the dry run is running
	stepConfirm              // the dry run answered; type extend
	stepBuying               // the extension is in flight; it cannot be called back
	stepDone                 // bought, or not: the answer is shown until a key
)

type extCheckMsg struct {
	dialog int64
	prep   source.Prepared
	err    error
}

type extendedMsg struct {
	dialog int64
	res    source.ExtendResult
	err    error
}

// New is the dialog on b, before it asks for anything.
func New(env dialog.Env, prices *pricing.Catalog, b model.Block) Model {
	id := dialog.NextSeq()
	d := Model{env: env, id: id, ask: id, prices: prices, b: b, spend: spend.New(Action)}
	d.spend.Clock = env.Wall
	return d
}

// Open opens the dialog on a block that can be extended, asking AWS for every length at
// once; preferDays (the configuration's) is selected first when offered.
func Open(env dialog.Env, prices *pricing.Catalog, b model.Block, preferDays int) (Model, tea.Cmd) {
	d := New(env, prices, b)
	d.step, d.prefer, d.asking = stepLoading, preferDays, true
	return d, d.fetchChoices()
}

// Asked makes the dialog the answer to the auto-extension policy's ask: the person's
// decision is recorded as blocks --watch records its own (source.Backend's
// DecideAutoExtend), so that no gpublock on this machine asks it again.
func (d Model) Asked(ask source.AutoExtendAsk) Model {
	d.policy = &ask
	return d
}

// DeclinedOnScreen is the reason a person's decline of the policy's ask is recorded with.
const DeclinedOnScreen = "declined on screen by the person"

// decline records the person's decline of the policy's ask, and says so.
func (d Model) decline() tea.Cmd {
	ask, be, ctx := *d.policy, d.env.Backend, d.ctx()
	return func() tea.Msg {
		err := be.DecideAutoExtend(ctx, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: DeclinedOnScreen})
		id := ask.Block.ReservationID
		switch {
		case err == nil:
			return dialog.RootMsg{Flash: "Nothing was extended. The decline is recorded: no gpublock on this machine asks again about " + id + " at this lead."}
		case errors.Is(err, source.ErrAutoExtendDecided):
			return dialog.RootMsg{Flash: "Nothing was extended here: " + err.Error() + "."}
		}
		return dialog.RootMsg{Flash: "Nothing was extended, but the decline could not be recorded (" + source.RedactError(err) + "): it may be asked again."}
	}
}

// Action is what the spend machine says of an extension.
var Action = spend.Action{Word: "extend", Noun: "extension", Done: "extended", Ask: "extend"}

// failure is the extension's failure once it answered, or nil.
func (d Model) failure() *source.ActionError {
	if d.step != stepDone {
		return nil
	}
	return d.spend.Failure
}

func (d Model) ctx() context.Context { return d.env.CallCtx() }

// intent is the chosen extension.
func (d Model) intent() source.Intent {
	return source.Intent{Kind: source.SpendExtend, Block: d.b, Extension: d.off}
}

// checkCmd asks the spend service to prepare the chosen extension: its refusals, then the
// dry run or the source's sentence that it has none.
func (d Model) checkCmd() tea.Cmd {
	id, b, in, ctx := d.id, d.env.Backend, d.intent(), d.ctx()
	return func() tea.Msg {
		p, err := b.Prepare(ctx, in)
		return extCheckMsg{dialog: id, prep: p, err: err}
	}
}

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		d.env.Size = screen.Rect(msg)
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.PasteMsg:
		if d.step == stepChecking || d.step == stepConfirm {
			d.spend.Paste()
		}
	case extChoicesMsg:
		return d.onChoices(msg)
	case extChoiceMsg:
		return d.onChoice(msg)
	case extCheckMsg:
		if msg.dialog != d.id || d.step != stepChecking {
			return d, nil, false
		}
		d.prep, d.step = msg.prep, stepConfirm
		if msg.err == nil && msg.prep.NoDryRun != "" {
			// A source without a dry run (SageMaker): the dialog says so where a block's
			// shows its answer.
			d.spend.SkipDryRun(d.env.Caps(d.b.Source).ExtendAction)
			return d, nil, false
		}
		d.spend.Answer(d.spend.CheckID(), msg.prep.Permission, msg.err)
		return d, nil, false
	case extendedMsg:
		if msg.dialog != d.id {
			return d, nil, false
		}
		d.step, d.res = stepDone, msg.res
		// The row shows the extension at once; its end moves once the block is listed again.
		refresh := func() tea.Msg { return screen.RefreshBlocksMsg{} }
		d.spend.Settle(msg.err)
		if msg.err != nil {
			return d, refresh, false
		}
		d.status = msg.res.Extension.Status
		if extensionSettled(d.status) {
			return d, refresh, false
		}
		return d, tea.Batch(refresh, dialog.PollBlock(d.env, d.id, d.b, d.env.Poll)), false
	case dialog.BlockPolledMsg:
		if msg.Dialog != d.id || d.step != stepDone || d.failure() != nil || extensionSettled(d.status) {
			return d, nil, false
		}
		d.pollErr = msg.Err
		if msg.Found {
			d.after, d.found = msg.Block, true
			if e, ok := extensionOf(msg.Block, d.off.ID); ok {
				d.status = e.Status
			}
		}
		if !extensionSettled(d.status) {
			return d, dialog.PollBlock(d.env, d.id, d.b, d.env.Poll), false
		}
		// Paid, the row's end moves; failed, the row is warned of.
		return d, func() tea.Msg { return screen.RefreshBlocksMsg{} }, false
	}
	return d, nil, false
}

func (d Model) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	km := d.Keys()
	switch d.step {
	case stepBuying:
		return d, d.spend.InFlight(k), false
	case stepDone:
		return d, nil, true
	}
	if key.Matches(k, km.Cancel) {
		if d.policy != nil {
			return d, d.decline(), true
		}
		return d, dialog.Cancelled("Nothing was extended."), true
	}
	switch d.step {
	case stepChoose, stepNone, stepLoading:
		return d.listKey(k, km)
	case stepChecking, stepConfirm:
		switch {
		case key.Matches(k, km.Back):
			d.step, d.spend = stepChoose, d.spend.Fresh()
			d.id = dialog.NextSeq() // a dry run still running answers no one
			return d, nil, false
		case key.Matches(k, km.Confirm):
			return d.tryBuy()
		}
		d.spend.Type(k)
	}
	return d, nil, false
}

func (d Model) tryBuy() (dialog.Dialog, tea.Cmd, bool) {
	// Enter never closes: whatever stops it, the machine's note says.
	why := ""
	if !d.fits() {
		why = "Too small to show everything: make the terminal taller."
	}
	if d.spend.Confirm(why) != spend.Go {
		return d, nil, false
	}
	d.step = stepBuying
	prep := d.prep
	if prep.Intent.Extension.ID != d.off.ID {
		prep = source.Prepared{Intent: d.intent()} // an answer not given by the service: it prepares it now
	}
	id, b, ctx, ask, off := d.id, d.env.Backend, d.ctx(), d.policy, d.off
	return d, func() tea.Msg {
		if ask != nil {
			// Recorded before the purchase, as blocks --watch records it: whatever happens
			// to the call, nobody here decides this ask again.
			if err := b.DecideAutoExtend(ctx, *ask, source.AutoExtendOutcome{Step: source.AutoExtendTaken, Extension: off}); err != nil {
				return extendedMsg{dialog: id, err: notDecided(err)}
			}
		}
		res, err := b.Commit(ctx, prep)
		if ask != nil {
			o := source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: res.RequestID}
			if err != nil {
				o = source.AutoExtendOutcome{Step: source.AutoExtendFailed, Extension: off, Reason: err.Error()}
			}
			// Notified even when it cannot be recorded; the spend path's journal lines say
			// what was bought either way.
			_ = b.DecideAutoExtend(ctx, *ask, o)
		}
		return extendedMsg{dialog: id, res: res, err: err}
	}, false
}

// notDecided is the refusal to extend when the decision could not be recorded: another
// gpublock decided the ask meanwhile, or the journal cannot be written.
func notDecided(err error) *source.ActionError {
	s := source.RedactError(err)
	if !errors.Is(err, source.ErrAutoExtendDecided) {
		s = "the decision could not be recorded, so nothing was bought: " + s
	}
	return &source.ActionError{Outcome: source.NotBought, Err: err,
		Explanation: source.Explanation{Summary: strings.ToUpper(s[:1]) + s[1:] + "."}}
}

// extensionSettled: the status the dialog stops watching at. AWS moves the end once the
// payment is taken, usually within minutes, or leaves it when the payment fails.
func extensionSettled(st model.ExtensionStatus) bool {
	return st != model.ExtensionPaymentPending && st != ""
}

// extensionOf is the block's extension bought from the offering: an offering is sold once.
func extensionOf(b model.Block, offeringID string) (model.Extension, bool) {
	for _, e := range b.Extensions {
		if e.OfferingID == offeringID {
			return e, true
		}
	}
	return model.Extension{}, false
}

// fits reports whether the whole confirmation shows in the dialog's box.
func (d Model) fits() bool {
	if d.env.Size.W == 0 {
		return true // never drawn (a test driving Update alone)
	}
	r := dialog.BoxRect(d.env.Size.W, d.env.Size.H, 0)
	return len(d.lines(r.W-2))+2 <= d.env.Size.H
}

// lines is the dialog's content at an inner width. Every line has the dialogs' left margin
// of two cells, as the purchase and launch dialogs' lines do, so that the dry run's answer
// (dryRunLines) starts in the column of the values above it.
func (d Model) lines(w int) []string {
	th, b := d.env.Theme, d.b
	loc := d.env.Location
	const margin = "  "
	cw := w - len(margin) // the content's width, after the margin
	var out []string
	add := func(lines ...string) {
		for _, l := range lines {
			if l != "" {
				l = margin + l
			}
			out = append(out, l)
		}
	}
	// Both groups of fields and the length picker share one label width, so their values
	// start in one column.
	lab := func(facts []model.Fact) [][2]string {
		rows := dialog.FactRows(facts)
		for i := range rows {
			rows[i][0] = fmt.Sprintf("%-*s", extLabelWidth, rows[i][0])
		}
		return rows
	}
	head := model.ExtensionTarget(b, d.env.Account(), loc)
	add(dialog.FieldLines(th, lab(head), cw)...)
	if d.policy != nil && d.step != stepDone {
		add(dialog.WrapStyled(th.Accent, fmt.Sprintf("The auto-extension policy asks: %s has reached its %s EXTEND BY lead. "+
			"esc declines, and no gpublock on this machine asks again at this lead.", b.ReservationID, model.FormatWarnLeads([]time.Duration{d.policy.Lead})), cw)...)
	}
	switch d.step {
	case stepChoose, stepLoading, stepNone:
		// The room left for the list's rows: the box, the lines above, a heading, a footer.
		room := d.env.Size.H - 2 - len(out) - 6
		if d.env.Size.H == 0 {
			room = 12
		}
		add("")
		add(d.listLines(cw, room)...)
		return out
	}
	off := d.off
	if ch, ok := d.chosen(); ok && off.DurationHours == 0 {
		off.DurationHours = ch.Days * 24
	}
	facts := model.ExtensionFacts(b, off, d.env.Account(), d.cmp.BreakEven(), loc)
	add("")
	add(dialog.FieldLines(th, lab(facts.Lines[len(head):]), cw)...)
	add(dialog.WrapStyled(th.Warning, facts.Final, cw)...)
	out = append(out, "")
	// The dry run's answer in the words and styles of the purchase dialog.
	tone, answer := d.spend.DryRunAnswer(d.env.Caps(d.b.Source).NoDryRun)
	out = append(out, dialog.DryRunLines(dialog.ToneStyle(th, tone), extLabelWidth, answer, cw)...)
	if d.step != stepDone {
		add(dialog.SettledLines(th, d.prep.Settled, "", cw)...) // what the spend service settled first
	}
	switch d.step {
	case stepConfirm:
		if d.spend.Allowed() {
			add(th.Label.Render("Type extend and press enter: ") + d.spend.Field.View(max(8, cw-30), true, th.Value, th.Cursor, th.Muted))
		}
	case stepBuying:
		add(th.Value.Render("Extending… (the answer is awaited; nothing is sent twice)"))
	case stepDone:
		add(d.doneLines(cw)...)
	}
	if d.spend.Note != "" {
		add(dialog.WrapStyled(th.Warning, d.spend.Note, cw)...)
	}
	if d.step == stepChecking || d.step == stepConfirm {
		add(th.Muted.Render(ansi.Truncate("shift+tab another length · esc cancels", cw, "…")))
	}
	return out
}

// doneLines are the answer of the extension, then its payment as it is followed: pending
// (watching), paid (the new end), failed (the end stays; what to do).
func (d Model) doneLines(w int) []string {
	th, loc := d.env.Theme, d.env.Location
	if f := d.failure(); f != nil {
		switch d.spend.Outcome() {
		case spend.Already:
			return dialog.WrapStyled(th.Warning, "ALREADY EXTENDED: "+f.Error()+" Any key closes.", w)
		case spend.Unknown:
			return dialog.WrapStyled(th.Error, "OUTCOME UNKNOWN: do not extend again. "+f.Error()+" Any key closes.", w)
		}
		return dialog.WrapStyled(th.Error, "NOT EXTENDED: "+f.Error()+" Any key closes.", w)
	}
	var out []string
	if d.res.Recovered {
		out = append(out, dialog.WrapStyled(th.Warning, "The reply was lost; the block's extension history lists this offering: it was bought, once.", w)...)
	}
	out = append(out, dialog.SettledLines(th, d.res.Settled, d.res.NotRecorded(), w)...)
	// The end as AWS lists it now; before the first look, the block's when the dialog opened.
	end := d.b.End
	if d.found {
		end = d.after.End
	}
	journal := "Journal id " + d.res.RequestID + "."
	switch d.status {
	case model.ExtensionPaymentSucceeded:
		// Paid, the block ends at the extension's end at least: the look may have read the
		// block a moment before the history said paid (two calls), or not at all (paid at
		// once, in the purchase's answer).
		if end.Before(d.off.End) {
			end = d.off.End
		}
		out = append(out, dialog.WrapStyled(th.OK.Bold(true), fmt.Sprintf("EXTENDED: %s now ends %s (payment-succeeded).", d.b.ReservationID, model.BothTimes(end, loc)), w)...)
		out = append(out, dialog.WrapStyled(th.OK, "Its instances are terminated from "+model.BothTimes(end.Add(-model.TerminationLead), loc)+". "+journal+" Any key closes.", w)...)
	case model.ExtensionPaymentFailed:
		out = append(out, dialog.WrapStyled(th.Error.Bold(true), "EXTENSION PAYMENT FAILED: AWS could not take the payment, so the block was not extended.", w)...)
		out = append(out, dialog.WrapStyled(th.Error, fmt.Sprintf("%s keeps its old end, %s: its instances are terminated from %s. "+
			"Check the account's payment method in the AWS Billing console, then extend again (e). %s Any key closes.",
			d.b.ReservationID, model.BothTimes(end, loc), model.BothTimes(end.Add(-model.TerminationLead), loc), journal), w)...)
	default:
		out = append(out, dialog.WrapStyled(th.Accent.Bold(true), fmt.Sprintf("EXTENSION BOUGHT, payment pending: %s moves its end to %s once AWS takes the payment (usually within minutes).",
			d.b.ReservationID, model.BothTimes(d.off.End, loc)), w)...)
		watch := fmt.Sprintf("Until then it ends %s. Watching the payment…", model.BothTimes(end, loc))
		if d.pollErr != nil {
			watch += " Could not look again: " + d.pollErr.Error()
		}
		out = append(out, dialog.WrapStyled(th.Value, watch, w)...)
		out = append(out, dialog.WrapStyled(th.Muted, journal+" Any key closes; the blocks screen shows the outcome too.", w)...)
	}
	return out
}

// breakEven is the comparison of a block's added hours with on-demand, in one sentence.
func breakEven(c pricing.Comparison) string {
	return model.ExtensionBreakEven(model.Block{}, c.BreakEven())
}

func (d Model) View(width, height int) string {
	w := min(width, dialog.MaxWidth)
	lines := d.lines(w - 2)
	if len(lines)+2 > height && d.step == stepConfirm {
		lines = append(lines[:max(0, height-3)], d.env.Theme.Warning.Render("Too small to show everything: make the terminal taller to extend."))
	}
	if len(lines)+2 > height {
		lines = lines[:max(0, height-2)]
	}
	r := dialog.BoxRect(width, height, len(lines))
	return dialog.Place(dialog.ModeFrame(d.env.Theme, d.env.Simulated, "Extend "+d.b.ReservationID, strings.Join(lines, "\n"), r), width)
}
