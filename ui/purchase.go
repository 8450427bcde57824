package ui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/textfield"
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

// purchaseDialog is the confirmation of a purchase: everything that is being bought, the
// dry run's answer, and a field where the person types buy. Every other way out (esc, q,
// another word and enter, ctrl+c) buys nothing.
type purchaseDialog struct {
	env       actionEnv
	id        int64
	o         model.Offering
	cmp       pricing.Comparison
	platforms []string
	platform  int
	fields    [pfCount]textfield.Model // the tag fields and the confirmation
	focus     int

	overCap  bool
	checkID  int64 // the dry run whose answer counts: a platform change asks again
	checking bool
	perm     Permission
	permErr  error
	notYet   string // why an enter on buy did nothing

	buying    bool
	quitAsked bool // a first ctrl+c while buying
	failure   *ActionError
}

// Busy: a purchase is in flight, whose answer must be read.
func (d purchaseDialog) Busy() bool { return d.buying }

type dryRunMsg struct {
	dialog, check int64
	perm          Permission
	err           error
}

type purchasedMsg struct {
	dialog int64
	res    PurchaseResult
	err    error
}

// onRootMsg does what a dialog asks of the root.
func (m Model) onRootMsg(msg rootMsg) (tea.Model, tea.Cmd) {
	if msg.flash != "" {
		m.flash = msg.flash
	}
	if msg.refresh {
		// A dialog bought, extended or launched: the search shows what is on offer now.
		return m.updateSearchWith(m.search.Refresh())
	}
	return m, nil
}

// newPurchaseDialog opens the dialog and starts its dry run, unless the fee is above the
// spending cap: then nothing at all is sent.
func newPurchaseDialog(env actionEnv, o model.Offering) (purchaseDialog, tea.Cmd) {
	d := purchaseDialog{env: env, id: dialogSeq.Add(1), o: o, cmp: pricing.Compare(env.prices, o), focus: pfConfirm}
	if env.Backend != nil {
		d.platforms = env.Backend.Platforms()
	}
	if len(d.platforms) == 0 {
		d.platforms = []string{"Linux/UNIX"}
	}
	d.fields[pfTags] = textfield.New(tagText(env.tags))
	d.fields[pfTags].Placeholder = "none · project=…, cost-center=…, Name=…, any k=v"
	d.fields[pfConfirm] = textfield.New("")
	d.fields[pfConfirm].CharLimit = 16
	if env.maxSpend != nil && o.Fee.Cmp(*env.maxSpend) > 0 {
		d.overCap = true
		return d, nil
	}
	if isPlan(o) {
		// SageMaker has no DryRun: nothing is asked, and the dialog says so plainly.
		d.perm = Permission{Allowed: true, Action: "sagemaker:CreateTrainingPlan"}
		return d, nil
	}
	return d, d.dryRun()
}

// isPlan reports whether the offering is a training plan's, bought without a dry run and
// without a platform.
func isPlan(o model.Offering) bool { return o.Source == model.SourceTrainingPlan }

// noDryRun is what the dialogs of training plans say where a block's say its dry run.
const noDryRun = "there is no dry run for training plans (SageMaker has none): nothing is checked before the purchase"

func (d *purchaseDialog) dryRun() tea.Cmd {
	d.checkID++
	// A word typed before was typed for another platform's answer.
	d.fields[pfConfirm].SetValue("")
	d.checking, d.perm, d.permErr = true, Permission{}, nil
	id, check, b, ctx, o, platform := d.id, d.checkID, d.env.Backend, d.env.Ctx, d.o, d.platforms[d.platform]
	return func() tea.Msg {
		p, err := b.CheckPurchase(ctx, o, platform)
		return dryRunMsg{dialog: id, check: check, perm: p, err: err}
	}
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
func (d purchaseDialog) tags() (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(d.fields[pfTags].Value(), ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "":
			return nil, fmt.Errorf("tag %q: want key=value", kv)
		case strings.HasPrefix(strings.ToLower(k), "aws:") || strings.HasPrefix(strings.ToLower(k), "gpublock:"):
			return nil, fmt.Errorf("tag %q: the %s prefix is reserved", kv, k[:strings.Index(k, ":")+1])
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("tag %s given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// blocker is why the purchase cannot be confirmed now, or "".
func (d purchaseDialog) blocker() string {
	_, tagErr := d.tags()
	switch {
	case d.overCap:
		return "over the cap"
	case d.env.Account() == "":
		return "The account that would pay is not known; close this and try again once the header shows it."
	case d.checking:
		return "Wait for the dry run to answer."
	case d.permErr != nil || !d.perm.Allowed:
		return "The dry run did not allow the purchase."
	case tagErr != nil:
		return "Fix the tags: " + tagErr.Error() + "."
	case !d.fits():
		return "The terminal is too small to show the whole confirmation; make it larger."
	}
	return ""
}

// canType reports whether the confirmation field is offered at all.
func (d purchaseDialog) canType() bool {
	return !d.overCap && !d.buying && d.failure == nil && (d.checking || d.permErr == nil && d.perm.Allowed)
}

func cancelled(what string) tea.Cmd {
	return func() tea.Msg { return rootMsg{flash: what} }
}

func (d purchaseDialog) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialogSizeMsg:
		d.env.size = rect(msg)
	case dryRunMsg:
		if msg.dialog == d.id && msg.check == d.checkID {
			d.checking, d.perm, d.permErr = false, msg.perm, msg.err
		}
	case purchasedMsg:
		if msg.dialog != d.id {
			return d, nil, false
		}
		d.buying = false
		if msg.err == nil {
			r, cmd := newReceipt(d.env, d.o, d.platforms[d.platform], msg.res)
			return r, cmd, false
		}
		d.failure = asActionError(msg.err)
		if d.failure.Sold {
			return d, func() tea.Msg { return rootMsg{refresh: true} }, false
		}
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil, false
}

func asActionError(err error) *ActionError {
	if ae, ok := err.(*ActionError); ok {
		return ae
	}
	return &ActionError{Outcome: NotDone, Summary: err.Error(), Err: err}
}

func (d purchaseDialog) key(k tea.KeyPressMsg) (dialog, tea.Cmd, bool) {
	s := k.String()
	switch {
	case d.buying && s == "ctrl+c":
		if d.quitAsked {
			return d, tea.Quit, false
		}
		d.quitAsked = true
		d.notYet = "A purchase is in flight: quitting now would leave its outcome unread. Wait for its answer; ctrl+c again quits anyway (the journal keeps the request id)."
		return d, nil, false
	case d.buying:
		// Sent: it cannot be called back. The answer, whatever it is, will be shown.
		d.notYet = "The purchase has been sent and cannot be stopped; its answer is on its way."
		return d, nil, false
	case d.failure != nil:
		if s == "esc" || s == "enter" || s == "q" {
			return d, nil, true
		}
		return d, nil, false
	case s == "esc":
		return d, cancelled("Cancelled: nothing was bought."), true
	case s == "tab":
		d.focus = (d.focus + 1) % pfCount
		if d.focus == pfPlatform && isPlan(d.o) {
			d.focus++ // a plan has no platform: SageMaker runs its instances
		}
		return d, nil, false
	case s == "shift+tab":
		d.focus = (d.focus + pfCount - 1) % pfCount
		if d.focus == pfPlatform && isPlan(d.o) {
			d.focus = pfCount - 1
		}
		return d, nil, false
	}
	d.notYet = ""
	switch d.focus {
	case pfPlatform:
		switch s {
		case "q":
			return d, cancelled("Cancelled: nothing was bought."), true
		case "right", "l", "down", "j", "space":
			d.platform = (d.platform + 1) % len(d.platforms)
		case "left", "h", "up", "k":
			d.platform = (d.platform + len(d.platforms) - 1) % len(d.platforms)
		case "enter":
			d.focus = pfConfirm
			return d, nil, false
		default:
			return d, nil, false
		}
		if d.overCap || isPlan(d.o) {
			return d, nil, false
		}
		return d, d.dryRun(), false
	case pfConfirm:
		switch s {
		case "q":
			return d, cancelled("Cancelled: nothing was bought."), true
		case "enter":
			word := strings.TrimSpace(d.fields[pfConfirm].Value())
			if word != "buy" || !d.canType() {
				switch word {
				case "":
					return d, cancelled("Cancelled: nothing was bought."), true
				case "buy":
					return d, cancelled("Closed: the purchase could not go ahead; nothing was bought."), true
				}
				return d, cancelled(fmt.Sprintf("Cancelled: %q is not buy; nothing was bought.", word)), true
			}
			if why := d.blocker(); why != "" {
				// A refused confirmation is spent: the next enter must never buy on a word
				// typed before the dialog could be read whole or the dry run answered.
				d.notYet = why + " The word was cleared: type buy again once it can go ahead."
				d.fields[pfConfirm].SetValue("")
				return d, nil, false
			}
			return d.buy()
		}
	default:
		if s == "enter" {
			d.focus = pfConfirm
			return d, nil, false
		}
	}
	if d.focus == pfConfirm && !d.canType() {
		return d, nil, false
	}
	d.fields[d.focus], _ = d.fields[d.focus].Update(k)
	return d, nil, false
}

func (d purchaseDialog) buy() (dialog, tea.Cmd, bool) {
	tags, _ := d.tags()
	d.buying = true
	id, b, o, platform := d.id, d.env.Backend, d.o, d.platforms[d.platform]
	ctx := d.env.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return d, func() tea.Msg {
		res, err := b.Purchase(ctx, o, platform, tags)
		return purchasedMsg{dialog: id, res: res, err: err}
	}, false
}

// lines is the dialog's content at an inner width.
func (d purchaseDialog) lines(w int) []string {
	th, o := d.env.Theme, d.o
	account := d.env.Account()
	if account == "" {
		account = "unknown"
	}
	what := fmt.Sprintf("%s × %d", o.InstanceType, o.Count)
	if o.UltraServerType != "" {
		what = fmt.Sprintf("%s × %d UltraServer(s), %d instances", o.UltraServerType, max(1, o.UltraServerCount), o.Count)
	}
	what += " for " + offerings.FormatLength(o) + " (" + hoursMinutes(o.Minutes()) + ")"
	perAcc := "unknown for this type"
	if r := d.cmp.AcceleratorHourly; !r.IsZero() {
		perAcc = r.Rate() + " per accelerator-hour"
	}
	breakEven := "no on-demand price (" + d.cmp.NoOnDemandReason + ")"
	switch {
	case d.cmp.NoOnDemand:
	case d.cmp.CanWin:
		breakEven = fmt.Sprintf("%d%% utilization: use at least that much of the usable hours to beat on-demand", d.cmp.BreakEvenPercent())
	default:
		breakEven = fmt.Sprintf("%d%% utilization: never cheaper than on-demand", d.cmp.BreakEvenPercent())
	}
	var out []string
	if d.env.Simulated {
		out = append(out, th.Simulated.Render("SIMULATED")+" "+th.Warning.Render("the emulator: nothing real is bought, nothing is charged"))
	} else {
		out = append(out, th.Live.Render("LIVE — REAL MONEY")+" "+th.Error.Render("this buys a real "+o.Source.Label()+" on account "+account))
	}
	if isPlan(o) {
		return d.planLines(w, account, out)
	}
	platform := "‹ " + d.platforms[d.platform] + " ›"
	rows := [][2]string{
		{"Account", account + " (alias unavailable)"},
		{"Region · zone", o.Region + " · " + o.AvailabilityZone},
		{"Capacity", what},
		{"Start", bothTimes(o.Start, d.env.Location)},
		{"End", bothTimes(o.End, d.env.Location)},
		{"UPFRONT FEE", exactFee(o.Fee, o.Currency) + ", total for the whole block"},
		{"Rate", perAcc},
		{"Break-even", breakEven},
		{"Offering", o.ID},
	}
	for _, l := range fieldLines(th, rows, w-2) {
		out = append(out, "  "+l)
	}
	out = append(out, d.fieldLine(pfPlatform, "Platform", platform, w))
	return append(out, d.tailLines(irrevocable, w)...)
}

// tailLines end a purchase dialog, a block's or a plan's: the tags field with its error
// as it is typed, what cannot be undone, and the dry run and confirmation.
func (d purchaseDialog) tailLines(irrevocable string, w int) []string {
	th := d.env.Theme
	out := []string{d.fieldLine(pfTags, "Tags", "", w)}
	if _, err := d.tags(); err != nil {
		// Said under the field as it is typed, not only after buy and enter.
		indent := strings.Repeat(" ", 2+purchaseLabelWidth+2)
		for _, l := range wrapStyled(th.Error, "✗ "+err.Error(), w-len(indent)) {
			out = append(out, indent+l)
		}
	}
	for _, l := range wrapStyled(th.Warning.Bold(true), irrevocable, w-2) {
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

func hoursMinutes(minutes int64) string {
	if minutes%60 == 0 {
		return fmt.Sprintf("%d hours", minutes/60)
	}
	return fmt.Sprintf("%d h %02d min", minutes/60, minutes%60)
}

// fieldLine is one editable line: a marker when focused, the label, then the value.
func (d purchaseDialog) fieldLine(f int, label, choice string, w int) string {
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
	return head + d.fields[f].View(max(4, w-17), d.focus == f, th.Value, th.Cursor, th.Muted)
}

// purchaseLabelWidth is the width of the dialog's labels, its longest ("Region · zone").
const purchaseLabelWidth = 13

// statusLines are the dry run's answer and the confirmation, or why there is none.
func (d purchaseDialog) statusLines(w int) []string {
	th := d.env.Theme
	var out []string
	switch {
	case d.overCap:
		capText := d.env.maxSpend.Dollars()
		out = append(out, wrapStyled(th.Error, fmt.Sprintf("REFUSED: the fee %s is above the spending cap of %s (--max-spend, or max_spend in config.json). Nothing was sent to AWS; nothing can be bought here. esc closes.",
			d.o.Fee.Dollars(), capText), w)...)
		return out
	case isPlan(d.o):
		out = append(out, dryRunLines(th.Warning, purchaseLabelWidth, noDryRun, w)...)
	case d.checking:
		out = append(out, dryRunLines(th.Muted, purchaseLabelWidth, "⋯ asking AWS whether this identity may buy (DryRun)…", w)...)
	case d.permErr != nil:
		out = append(out, dryRunLines(th.Error, purchaseLabelWidth, "✗ failed: "+d.permErr.Error()+" Nothing can be bought; esc closes.", w)...)
	case !d.perm.Allowed:
		out = append(out, dryRunLines(th.Error, purchaseLabelWidth, "✗ NOT ALLOWED: this identity lacks "+d.perm.Action+". Nothing can be bought; esc closes.", w)...)
	default:
		out = append(out, dryRunLines(th.OK, purchaseLabelWidth, "✓ allowed ("+d.perm.Action+")", w)...)
	}
	switch {
	case d.failure != nil:
		out = append(out, d.failureLines(w)...)
		return out
	case d.buying:
		out = append(out, th.Accent.Render("Buying… the purchase has been sent; wait for its answer."))
		if d.notYet != "" {
			out = append(out, wrapStyled(th.Warning, d.notYet, w)...)
		}
		return out
	case !d.canType():
		return out
	}
	prompt := "Type buy and press enter to buy; anything else, esc or q cancels: "
	mark := "  "
	if d.focus == pfConfirm {
		mark = "▸ "
	}
	field := d.fields[pfConfirm].View(8, d.focus == pfConfirm, th.Value, th.Cursor, th.Muted)
	out = append(out, mark+th.Focused.Render(prompt)+field)
	if d.notYet != "" {
		out = append(out, wrapStyled(th.Warning, d.notYet, w)...)
	}
	return out
}

func (d purchaseDialog) failureLines(w int) []string {
	th, f := d.env.Theme, d.failure
	switch {
	case f.Outcome == OutcomeUnknown:
		return wrapStyled(th.Error, "OUTCOME UNKNOWN — do not buy again. "+f.Error(), w)
	case f.AlreadyBought:
		return wrapStyled(th.Warning, "ALREADY BOUGHT: "+f.Error()+" esc closes.", w)
	case f.Sold:
		return wrapStyled(th.Error, fmt.Sprintf("NOT BOUGHT: offering %s was sold to someone else (or expired) meanwhile. The results are being searched again; pick another. esc closes.", d.o.ID), w)
	}
	msg := f.Error()
	if !strings.HasPrefix(strings.ToLower(msg), "not bought") {
		msg = "NOT BOUGHT: " + msg
	}
	return wrapStyled(th.Error, msg+" Nothing was charged. esc closes.", w)
}

// fits reports whether the whole confirmation shows in the dialog's box.
func (d purchaseDialog) fits() bool {
	if d.env.size.w == 0 {
		return true // never drawn yet (a test driving Update alone); View cuts nothing then
	}
	r := dialogRect(d.env.size.w, d.env.size.h, 0)
	return len(d.lines(r.w-2))+2 <= d.env.size.h
}

func (d purchaseDialog) View(width, height int) string {
	w := min(width, 104)
	lines := d.lines(w - 2)
	if len(lines)+2 > height && d.canType() {
		// Said in place of what is cut: nobody confirms what they could not see.
		lines = append(lines[:max(0, height-3)], d.env.Theme.Warning.Render("Too small to show everything: make the terminal taller to buy."))
	}
	r := dialogRect(width, height, len(lines))
	return placeDialog(modeFrame(d.env.Theme, d.env.Simulated, "Buy a "+d.o.Source.Label(), strings.Join(lines, "\n"), r), width)
}
