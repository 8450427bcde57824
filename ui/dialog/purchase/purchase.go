// Package purchase is the confirmation of a purchase, a Capacity Block's or a training
// plan's: everything that is being bought, the dry run's answer, the platform and the tags,
// and a field where the person types buy. Every other way out (esc, q, another word and
// enter, ctrl+c) buys nothing. Its dry run, cap, typed word, call and outcome are
// ui/dialog/spend's; what was bought opens ui/dialog/receipt.
package purchase

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/screen"
)

// The fields of the purchase dialog, in tab order. The confirmation comes last and has
// the focus when the dialog opens: typing buy is all it takes once the dry run allows it.
const (
	pfPlatform = iota
	pfTags
	pfConfirm
	pfCount
)

// namedTags come first in the tags field, in this order; any other k=v may follow.
var namedTags = []string{"project", "cost-center", "Name"}

// Model is the confirmation of a purchase.
type Model struct {
	env       dialog.Env
	id        int64
	o         model.Offering
	cmp       pricing.Comparison
	platforms []string
	platform  int
	fields    [pfCount]textfield.Model // the tags field (the word is the machine's)
	focus     int

	// spend is the dry run, the cap, the typed word, the call and its outcome; a platform
	// change asks the dry run again. prep is the spend service's answer it was given, and
	// capRefusal the cap's sentence when the fee is above it.
	spend      spend.Machine
	prep       source.Prepared
	capRefusal string

	// org is the count of the organization's Capacity Block instances against AWS's cap
	// (Env.Organization), asked when the dialog opens (orgcap.go).
	org orgCount
}

// purchaseAction is what the spend machine says of a purchase.
var purchaseAction = spend.Action{Word: "buy", Noun: "purchase", Done: "bought", Ask: "buy"}

// Busy: a purchase is in flight, whose answer must be read.
func (d Model) Busy() bool { return d.spend.Busy() }

// Sent: the purchase was sent, and its answer must be read whatever happens behind it.
func (d Model) Sent() bool { return d.spend.Busy() || d.spend.Phase() == spend.Done }

type dryRunMsg struct {
	dialog, check int64
	prep          source.Prepared
	err           error
}

type purchasedMsg struct {
	dialog int64
	res    source.PurchaseResult
	err    error
}

// New opens the dialog and starts its dry run, unless the fee is above the
// spending cap: then nothing at all is sent.
func New(env dialog.Env, o model.Offering) (Model, tea.Cmd) {
	d := Model{env: env, id: dialog.NextSeq(), o: o, cmp: pricing.Compare(env.Prices, o), focus: pfConfirm, spend: spend.New(purchaseAction)}
	d.spend.Clock = env.Wall
	if env.Backend != nil {
		d.platforms = env.Backend.Platforms()
	}
	if len(d.platforms) == 0 {
		d.platforms = []string{"Linux/UNIX"}
	}
	d.fields[pfTags] = textfield.New(tagText(env.Tags))
	d.fields[pfTags].Placeholder = "none · project=…, cost-center=…, Name=…, any k=v"
	if d.capRefusal = model.CapRefusal(o.Fee, env.MaxSpend, env.MaxSpendRule); d.capRefusal != "" {
		d.spend.Cap()
		return d, nil
	}
	return d, tea.Batch(d.dryRun(), d.countOrganization())
}

// hasPlatform reports whether the platform is chosen here: a source gpublock does not
// launch into (a training plan, whose instances SageMaker runs) has none.
func (d Model) hasPlatform() bool { return d.env.Caps(d.o.Source).Launch }

// intent is what the dialog would buy, with the platform and tags as they are now.
func (d Model) intent() source.Intent {
	tags, _ := d.tags()
	return source.Intent{Kind: source.SpendPurchase, Offering: d.o, Platform: d.platforms[d.platform], Tags: tags}
}

// dryRun asks the spend service to prepare the purchase: its refusals, then the dry run or
// the source's sentence that it has none.
func (d *Model) dryRun() tea.Cmd {
	// A word typed before was typed for another platform's answer: Check clears it.
	check := d.spend.Check()
	id, b, ctx, in := d.id, d.env.Backend, d.env.Ctx, d.intent()
	return func() tea.Msg {
		p, err := b.Prepare(ctx, in)
		return dryRunMsg{dialog: id, check: check, prep: p, err: err}
	}
}

// answer takes the spend service's answer to the machine.
func (d *Model) answer(msg dryRunMsg) {
	if msg.check != d.spend.CheckID() {
		return
	}
	d.prep = msg.prep
	if msg.err == nil && msg.prep.NoDryRun != "" {
		// A source without a dry run (SageMaker): nothing is asked, and the dialog says so.
		if d.spend.Phase() == spend.Checking {
			d.spend.SkipDryRun(d.env.Caps(d.o.Source).PurchaseAction)
		}
		return
	}
	d.spend.Answer(msg.check, msg.prep.Permission, msg.err)
}

// tagText writes tags as the field holds them: project, cost-center and Name first, then
// the others by key.
func tagText(tags map[string]string) string {
	var parts, rest []string
	for _, k := range namedTags {
		if v, ok := tags[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	for k, v := range tags {
		if !slices.Contains(namedTags, k) {
			rest = append(rest, k+"="+v)
		}
	}
	sort.Strings(rest)
	return strings.Join(append(parts, rest...), ", ")
}

// tags are the reservation's tags from the field, or what is wrong with them.
func (d Model) tags() (map[string]string, error) {
	out := map[string]string{}
	if err := model.AddTags(out, d.fields[pfTags].Value()); err != nil {
		return nil, err
	}
	return out, nil
}

// why is the dialog's own reason the purchase cannot be confirmed now, or "": the spend
// machine's (the cap, the dry run) come before it.
func (d Model) why() string {
	_, tagErr := d.tags()
	switch {
	case d.env.Account() == "":
		return "The account that would pay is not known; close this and try again once the header shows it."
	case d.org.pending():
		return countingWhy
	case tagErr != nil:
		return "Fix the tags: " + tagErr.Error() + "."
	case !d.fits():
		return "The terminal is too small to show the whole confirmation; make it larger."
	}
	return ""
}

// canType reports whether the confirmation field is offered at all.
func (d Model) canType() bool { return d.spend.CanType() }

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		d.env.Size = screen.Rect(msg)
	case dryRunMsg:
		if msg.dialog == d.id {
			d.answer(msg)
		}
	case orgMsg:
		if msg.dialog == d.id {
			d.org = d.org.answer(msg, d.o, d.env.OrganizationPartial)
			if strings.HasPrefix(d.spend.Note, countingWhy) {
				d.spend.Note = "" // said while it counted; it has answered
			}
			// The prompt is drawn only now: its word counts after the dwell, from here.
			d.spend.Restate()
		}
	case purchasedMsg:
		if msg.dialog != d.id {
			return d, nil, false
		}
		d.spend.Settle(msg.err)
		if msg.err == nil {
			r, cmd := receipt.New(d.env, d.o, d.platforms[d.platform], msg.res)
			return r, cmd, false
		}
		if d.spend.Outcome() == spend.Sold {
			return d, func() tea.Msg { return dialog.RootMsg{Refresh: true} }, false
		}
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.PasteMsg:
		d.spend.Paste()
	}
	return d, nil, false
}

func (d Model) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	km := d.Keys()
	// A letter typed in the tags goes into the field, even q.
	typed := d.focus == pfTags && k.Text != ""
	switch {
	case d.spend.Busy():
		// Sent: it cannot be called back. The answer, whatever it is, will be shown.
		return d, d.spend.InFlight(k), false
	case d.spend.Phase() == spend.Done:
		return d, nil, key.Matches(k, km.Close)
	case !typed && key.Matches(k, km.Cancel, km.Close):
		return d, dialog.Cancelled("Cancelled: nothing was bought."), true
	case key.Matches(k, km.Next):
		d.focus = (d.focus + 1) % pfCount
		if d.focus == pfPlatform && !d.hasPlatform() {
			d.focus++
		}
		return d, nil, false
	case key.Matches(k, km.Prev):
		d.focus = (d.focus + pfCount - 1) % pfCount
		if d.focus == pfPlatform && !d.hasPlatform() {
			d.focus = pfCount - 1
		}
		return d, nil, false
	}
	d.spend.Note = ""
	switch {
	case key.Matches(k, km.Confirm) && d.focus != pfConfirm:
		// enter on a field moves to the confirmation, which names the word to type.
		d.focus = pfConfirm
		return d, nil, false
	case key.Matches(k, km.Confirm):
		switch d.spend.Confirm(d.why()) {
		case spend.Go:
			return d.buy()
		case spend.Useless:
			return d, dialog.Cancelled("Closed: the purchase could not go ahead; nothing was bought."), true
		}
		return d, nil, false
	case d.focus == pfPlatform && key.Matches(k, km.PlatformNext, km.PlatformPrev):
		step := 1
		if key.Matches(k, km.PlatformPrev) {
			step = len(d.platforms) - 1
		}
		d.platform = (d.platform + step) % len(d.platforms)
		if d.spend.OverCap || !d.env.Caps(d.o.Source).DryRun {
			return d, nil, false
		}
		return d, d.dryRun(), false
	case d.focus == pfConfirm:
		d.spend.Type(k)
	case d.focus == pfTags:
		d.fields[d.focus], _ = d.fields[d.focus].Update(k)
	}
	return d, nil, false
}

func (d Model) buy() (dialog.Dialog, tea.Cmd, bool) {
	prep, in := d.prep, d.intent()
	if prep.Intent.Platform != in.Platform || !maps.Equal(prep.Intent.Tags, in.Tags) || prep.Intent.Offering.ID != in.Offering.ID {
		// The tags were edited since it was prepared: the service prepares it again as it is.
		prep = source.Prepared{Intent: in, Permission: prep.Permission}
	}
	id, b := d.id, d.env.Backend
	ctx := d.env.CallCtx()
	return d, func() tea.Msg {
		res, err := b.Commit(ctx, prep)
		return purchasedMsg{dialog: id, res: res, err: err}
	}, false
}

// lines is the dialog's content at an inner width.
func (d Model) lines(w int) []string {
	out := d.allLines(w)
	if !d.org.roomy() {
		return out
	}
	// What the organization holds, within the cap, is said where there is room for it: at
	// 80×24 the confirmation has none to spare.
	e := d
	e.org.within = true
	if more := e.allLines(w); d.env.Size.H == 0 || len(more)+2 <= d.env.Size.H {
		return more
	}
	return out
}

// allLines are the dialog's lines, the organization's as d.org says.
func (d Model) allLines(w int) []string {
	th, o := d.env.Theme, d.o
	account := d.env.Account()
	if account == "" {
		account = "unknown"
	}
	var out []string
	if d.env.Simulated {
		out = append(out, th.Simulated.Render("SIMULATED")+" "+th.Warning.Render("the emulator: nothing real is bought, nothing is charged"))
	} else {
		out = append(out, th.Live.Render("LIVE — REAL MONEY")+" "+th.Error.Render("this buys a real "+o.Source.Label()+" on account "+account))
	}
	if !d.hasPlatform() {
		return d.planLines(w, out)
	}
	facts := model.PurchaseFacts(o, d.env.Account(), d.cmp.BreakEven(), d.env.Location)
	for _, l := range dialog.FieldLinesAt(th, dialog.FactRows(facts.Lines), purchaseLabelWidth, w-2) {
		out = append(out, "  "+l)
	}
	out = append(out, d.fieldLine(pfPlatform, "Platform", "‹ "+d.platforms[d.platform]+" ›", w))
	return append(out, d.tailLines(facts.Final, w)...)
}

// tailLines end a purchase dialog, a block's or a plan's: the tags field with its error
// as it is typed, what cannot be undone, and the dry run and confirmation.
func (d Model) tailLines(irrevocable string, w int) []string {
	th := d.env.Theme
	out := []string{d.fieldLine(pfTags, "Tags", "", w)}
	if _, err := d.tags(); err != nil {
		// Said under the field as it is typed, not only after buy and enter.
		indent := strings.Repeat(" ", 2+purchaseLabelWidth+2)
		for _, l := range dialog.WrapStyled(th.Error, "✗ "+err.Error(), w-len(indent)) {
			out = append(out, indent+l)
		}
	}
	for _, l := range dialog.WrapStyled(th.Warning.Bold(true), irrevocable, w-2) {
		out = append(out, "  "+l)
	}
	for _, l := range d.org.lines(th, w-2) {
		out = append(out, "  "+l)
	}
	for _, l := range d.statusLines(w - 2) {
		if !strings.HasPrefix(l, "▸ ") && !strings.HasPrefix(l, "  ") {
			l = "  " + l
		}
		out = append(out, l)
	}
	return out
}

// fieldLine is one editable line: a marker when focused, the label, then the value.
func (d Model) fieldLine(f int, label, choice string, w int) string {
	th := d.env.Theme
	mark, ls := "  ", th.Label
	if d.focus == f {
		mark, ls = "▸ ", th.Focused
	}
	head := mark + ls.Render(fmt.Sprintf("%-*s", purchaseLabelWidth, label)) + "  "
	if choice != "" {
		hint := ""
		if d.focus == f {
			hint = th.Muted.Render("  ←/→ change")
		}
		return head + th.Value.Render(choice) + hint
	}
	field := d.fields[f]
	if f == pfConfirm {
		field = d.spend.Field
	}
	return head + field.View(max(4, w-17), d.focus == f, th.Value, th.Cursor, th.Muted)
}

// purchaseLabelWidth is the width of the dialog's labels, its longest ("Region · zone").
const purchaseLabelWidth = 13

// statusLines are the dry run's answer and the confirmation, or why there is none.
func (d Model) statusLines(w int) []string {
	th := d.env.Theme
	var out []string
	switch tone, answer := d.spend.DryRunAnswer(d.env.Caps(d.o.Source).NoDryRun); {
	case d.spend.OverCap:
		out = append(out, dialog.WrapStyled(th.Error, d.capRefusal+" Nothing can be bought here; esc closes.", w)...)
		return out
	default:
		out = append(out, dialog.DryRunLines(dialog.ToneStyle(th, tone), purchaseLabelWidth, answer, w)...)
		// What the spend service settled before answering is told before anything is agreed.
		out = append(out, dialog.SettledLines(th, d.prep.Settled, "", w)...)
	}
	switch {
	case d.spend.Failure != nil:
		out = append(out, d.failureLines(w)...)
		return out
	case d.spend.Busy():
		out = append(out, th.Accent.Render("Buying… the purchase has been sent; wait for its answer."))
		if d.spend.Note != "" {
			out = append(out, dialog.WrapStyled(th.Warning, d.spend.Note, w)...)
		}
		return out
	case !d.canType():
		return out
	}
	if d.org.pending() {
		// In the prompt's place: the word is taken once the count has answered.
		return append(out, "  "+th.Muted.Render("Counting the organization's Capacity Block instances against AWS's cap…"))
	}
	prompt := "Type buy and press enter to buy; esc or q cancels: "
	mark := "  "
	if d.focus == pfConfirm {
		mark = "▸ "
	}
	field := d.spend.Field.View(8, d.focus == pfConfirm, th.Value, th.Cursor, th.Muted)
	out = append(out, mark+th.Focused.Render(prompt)+field)
	if d.spend.Note != "" {
		out = append(out, dialog.WrapStyled(th.Warning, d.spend.Note, w)...)
	}
	return out
}

func (d Model) failureLines(w int) []string {
	th, f := d.env.Theme, d.spend.Failure
	switch d.spend.Outcome() {
	case spend.Unknown:
		return dialog.WrapStyled(th.Error, "OUTCOME UNKNOWN — do not buy again. "+f.Error(), w)
	case spend.Already:
		return dialog.WrapStyled(th.Warning, "ALREADY BOUGHT: "+f.Error()+" esc closes.", w)
	case spend.Sold:
		return dialog.WrapStyled(th.Error, fmt.Sprintf("NOT BOUGHT: offering %s was sold to someone else (or expired) meanwhile. The results are being searched again; pick another. esc closes.", d.o.ID), w)
	}
	msg := f.Error()
	if !strings.HasPrefix(strings.ToLower(msg), "not bought") {
		msg = "NOT BOUGHT: " + msg
	}
	return dialog.WrapStyled(th.Error, msg+" Nothing was charged. esc closes.", w)
}

// fits reports whether the whole confirmation shows in the dialog's box.
func (d Model) fits() bool {
	if d.env.Size.W == 0 {
		return true // never drawn yet (a test driving Update alone); View cuts nothing then
	}
	r := dialog.BoxRect(d.env.Size.W, d.env.Size.H, 0)
	return len(d.lines(r.W-2))+2 <= d.env.Size.H
}

func (d Model) View(width, height int) string {
	w := min(width, dialog.MaxWidth)
	lines := d.lines(w - 2)
	if len(lines)+2 > height && d.canType() {
		// Said in place of what is cut: nobody confirms what they could not see.
		lines = append(lines[:max(0, height-3)], d.env.Theme.Warning.Render("Too small to show everything: make the terminal taller to buy."))
	}
	r := dialog.BoxRect(width, height, len(lines))
	return dialog.Place(dialog.ModeFrame(d.env.Theme, d.env.Simulated, "Buy a "+d.o.Source.Label(), strings.Join(lines, "\n"), r), width)
}
