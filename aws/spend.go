package aws

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// The one spend service. Every purchase, extension and launch, of every source, from the
// command line or the TUI (through aws/tuibackend), goes through Prepare and Commit, and
// each step below is written here once:
//
//	Prepare (what the person must see before agreeing; nothing is bought):
//	  read-only → tags → the cap → settle the region's open intents (once) → an earlier
//	  purchase of the same intent → the offering looked up again (Intent.Lookup) and the
//	  cap on its fee → the source's checks (its SpendCall) → the paying account → the dry
//	  run, or the source's "no dry run" sentence.
//	Commit (after the person agreed):
//	  journal the intent → cancelled before sending? → one call, without the SDK's
//	  retries → a lost reply looked up by the source's key → journal the outcome →
//	  classify it.
//
// A source adds only what is its own (SpendCall): its call, its idempotency key and the
// look-up by it (a request tag, a plan's name, an extension history), its dry run or the
// sentence that it has none.

// SpendKind is what an intent does.
type SpendKind int

const (
	SpendPurchase SpendKind = iota
	SpendExtend
	SpendLaunch
)

// Words are how sentences name the kind: its noun and its past participle.
func (k SpendKind) Words() (noun, done string) {
	switch k {
	case SpendExtend:
		return "extension", "extended"
	case SpendLaunch:
		return "launch", "launched"
	}
	return "purchase", "bought"
}

// Intent is what a person asks to spend on.
type Intent struct {
	Kind      SpendKind
	Offering  model.Offering // a purchase's
	Platform  string         // a block's purchase: "" is DefaultPlatform
	Tags      map[string]string
	Block     model.Block             // the reservation extended or launched into
	Extension model.ExtensionOffering // an extension's; DurationHours is enough before Lookup
	Launch    LaunchSpec
	// Lookup, when set, finds what is bought (the command line runs again the search that
	// listed the offering, or asks for the extension offerings): Prepare calls it after
	// settling, so that what an interrupted run bought is told before a search says it
	// is gone.
	Lookup func(ctx context.Context, in *Intent) error
	// CheckOnly asks for the dry run alone (--dry-run): it is allowed in read-only mode, and
	// nothing is settled, since nothing is bought.
	CheckOnly bool
	// Again buys what an interrupted run already bought (Prepared.Earlier), on purpose.
	Again bool
}

// fee is what the intent would spend.
func (in Intent) fee() model.Money {
	switch in.Kind {
	case SpendPurchase:
		return in.Offering.Fee
	case SpendExtend:
		return in.Extension.Fee
	}
	return model.Money{}
}

func (in Intent) region() string {
	if in.Kind == SpendPurchase {
		return in.Offering.Region
	}
	return in.Block.Region
}

// SpendCall is what a source adds to the one path for one intent.
type SpendCall struct {
	// Entry is the intent's journal line; Commit sets its request id and time.
	Entry JournalEntry
	// DryRun asks whether the identity may; nil when the source has none, and NoDryRun
	// then says so.
	DryRun   func(ctx context.Context) (Permission, error)
	NoDryRun string
	// Call makes the call once, under requestID (a tag, a name, a client token), marking
	// mark when it reaches the network, and fills res; ref is what the journal records
	// of what was bought ("" when the answer did not say).
	Call func(ctx context.Context, requestID string, mark *SentMark, res *SpendResult) (ref string, err error)
	// Find looks, after a lost reply, for what requestID bought, and fills res.
	Find func(ctx context.Context, requestID string, res *SpendResult) (ref string, found bool, err error)
	// Lost is what is told when the reply of requestID's call did not say.
	Lost func(requestID string) NoAnswer
	// Taken reports a refusal meaning the call's key is already used (a plan's name, its
	// request id): the call went through before, and is looked up as after a lost reply.
	Taken func(error) bool
	// Idempotent: requestID is the call's idempotency token (RunInstances' client token),
	// so the SDK may retry it and an interrupted call leaves nothing to settle.
	Idempotent bool
}

// NoAnswer says what a spend tells when its reply did not say what was bought.
type NoAnswer struct {
	NoAnswer string      // the error of an answer without what was bought
	What     string      // "training plan purchase", "extension"
	Unknown  Explanation // when the look-up failed as well
	NotFound string      // the hint when the look-up answered without it
}

// SpendResult is a finished purchase, extension or launch.
type SpendResult struct {
	RequestID  string // the request tag, plan name, journal id or client token
	Permission Permission
	Outcome    Outcome
	Block      model.Block     // a purchase's reservation
	Extension  model.Extension // an extension's
	Instances  []model.Instance
	SubnetID   string
	// Recovered: the reply was lost and what was bought found by the source's key.
	Recovered bool
	// Settled are the interrupted purchases and extensions Prepare settled.
	Settled []Settled
	// JournalErr is why the outcome line could not be written (what was bought stands).
	JournalErr error
}

// The results of each kind are the one result.
type (
	PurchaseResult = SpendResult
	ExtendResult   = SpendResult
	LaunchResult   = SpendResult
)

// Prepared is an intent checked, with everything the person must see before agreeing.
type Prepared struct {
	Intent     Intent
	Permission Permission // the dry run's answer
	NoDryRun   string     // the source has no dry run: its sentence
	Settled    []Settled  // the open intents of the region, settled
	// Earlier is the outcome line of what an interrupted run bought of this intent; only
	// with Intent.Again does the intent go ahead then.
	Earlier  *JournalEntry
	Account  string // the account that pays
	call     SpendCall
	refusal  error
	payerErr error
}

// PayerUnknown is why the paying account could not be learnt, or nil: a confirmation
// that cannot name it must not be asked.
func (p Prepared) PayerUnknown() error { return p.payerErr }

// ErrNotAllowed is wrapped by the refusal of an intent the dry run did not allow.
var ErrNotAllowed = errors.New("not allowed by the dry run")

// Prepare checks the intent through src without buying anything (see the steps above).
// The error is Refusal().
func (c *Client) Prepare(ctx context.Context, src Source, in Intent) (Prepared, error) {
	return c.prepare(ctx, in, func(in Intent) (SpendCall, error) { return src.SpendCall(ctx, in) })
}

// SpendWith is Prepare then Commit with a source's own call builder, for a source's typed
// entry points whose caller agreed beforehand (opts: Again).
func (c *Client) SpendWith(ctx context.Context, in Intent, callOf func(Intent) (SpendCall, error), opts ...SpendOption) (SpendResult, error) {
	in.Again = in.Again || spendOpts(opts).again
	p, err := c.prepare(ctx, in, callOf)
	if err != nil {
		return SpendResult{Outcome: NotBought, Permission: p.Permission, Settled: p.Settled}, err
	}
	return c.Commit(ctx, p)
}

func (c *Client) prepare(ctx context.Context, in Intent, callOf func(Intent) (SpendCall, error)) (p Prepared, _ error) {
	p.Intent = in
	refuse := func(err error) (Prepared, error) { p.refusal = err; return p, err }
	_, done := in.Kind.Words()
	if c.cfg.ReadOnly && !in.CheckOnly {
		return refuse(&PurchaseError{Outcome: NotBought, Err: ErrReadOnly, Explanation: Explanation{Summary: model.ReadOnlyRefusal(c.cfg.ReadOnlyRule, done)}})
	}
	tags := in.Tags
	if in.Kind == SpendLaunch {
		tags = in.Launch.Tags
	}
	if err := model.CheckTags(tags); err != nil {
		return refuse(notBought("Bad tags: "+err.Error()+".", "", err))
	}
	if in.Lookup == nil && in.Kind == SpendPurchase && mustAskAgain(in.Offering, time.Now()) {
		in.Lookup = c.askAgain
	}
	if in.Lookup == nil {
		if err := c.checkCap(in.fee()); err != nil {
			return refuse(err)
		}
	}
	if !in.CheckOnly {
		if in.Kind != SpendLaunch {
			var err error
			if p.Settled, err = c.SettleOpen(ctx, in.region()); err != nil {
				return refuse(err)
			}
		}
		if e, ok := c.earlier(in); ok {
			p.Earlier = &e
			if !in.Again {
				return refuse(AlreadyBoughtError(e))
			}
		}
	}
	if in.Lookup != nil {
		if err := in.Lookup(ctx, &in); err != nil {
			return refuse(err)
		}
		p.Intent = in
		if err := c.checkCap(in.fee()); err != nil {
			return refuse(err)
		}
	}
	call, err := callOf(in)
	if err != nil {
		return refuse(err)
	}
	p.call = call
	// The account is named in every confirmation; a caller without a person (the typed
	// entry points) goes ahead without it, as the journal does.
	if id, err := c.Identity(ctx); err != nil {
		p.payerErr = &PurchaseError{Outcome: NotBought, Err: err, Explanation: Explanation{
			Summary: "Cannot tell which account would pay: " + strings.TrimSuffix(c.ExplainError(err).Summary, ".") + ". Nothing was " + done + ".",
			Hint:    c.ExplainError(err).Hint}}
	} else {
		p.Account = id.Account
	}
	if call.DryRun == nil {
		p.NoDryRun = call.NoDryRun
		if in.CheckOnly {
			return refuse(&PurchaseError{Outcome: NotBought, Err: ErrNoDryRun, Explanation: Explanation{Summary: call.NoDryRun}})
		}
		return p, nil
	}
	perm, err := call.DryRun(ctx)
	if err != nil {
		var pe *PurchaseError
		if errors.As(err, &pe) {
			return refuse(err)
		}
		return refuse(notBought("", "", err))
	}
	p.Permission = perm
	if !perm.Allowed {
		return refuse(&PurchaseError{Outcome: NotBought, Err: ErrNotAllowed, Explanation: Explanation{
			Summary: model.NotAllowed(perm.Action, done), Action: perm.Action, Code: "UnauthorizedOperation"}})
	}
	return p, nil
}

// earlier is the one earlier-purchase check: what an interrupted run, settled since,
// bought of this intent.
func (c *Client) earlier(in Intent) (JournalEntry, bool) {
	switch in.Kind {
	case SpendPurchase:
		return c.EarlierPurchase(in.Offering)
	case SpendExtend:
		return c.EarlierExtension(in.Block, in.Extension.DurationHours)
	}
	return JournalEntry{}, false
}

// checkCap is the one cap check, in model.CapRefusal's words.
func (c *Client) checkCap(fee model.Money) error {
	if s := model.CapRefusal(fee, c.cfg.MaxSpend, c.cfg.MaxSpendRule); s != "" {
		return &PurchaseError{Outcome: NotBought, Err: ErrOverSpendCap, Explanation: Explanation{Summary: s}}
	}
	return nil
}

// Commit spends what p prepared, once (see the steps above). The error, when not nil, is a
// *PurchaseError: Outcome NotBought, or Unknown when AWS did not answer and the look-up
// afterwards failed too (never buy again on it).
func (c *Client) Commit(ctx context.Context, p Prepared) (SpendResult, error) {
	res := SpendResult{Outcome: NotBought, Permission: p.Permission, Settled: p.Settled}
	noun, done := p.Intent.Kind.Words()
	switch {
	case p.refusal != nil:
		return res, p.refusal
	case p.call.Call == nil:
		return res, notBought("Nothing was prepared: the "+noun+" was not checked first.", "", nil)
	}
	call := p.call
	res.RequestID = newRequestID()
	entry := call.Entry
	entry.RequestID = res.RequestID
	if p.Intent.Kind == SpendExtend {
		ctx = withExtensionRequestID(ctx, res.RequestID)
	}
	if err := c.journalIntent(ctx, &entry); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		// Cancelled before anything was sent: certainly not done.
		c.journalOutcome(entry, NotBought, false, "", err)
		return res, &PurchaseError{Outcome: NotBought, Err: err, Explanation: Explanation{Summary: "Cancelled before the " + noun + " was sent; nothing was " + done + "."}}
	}
	var mark SentMark
	ref, callErr := call.Call(ctx, res.RequestID, &mark, &res)
	if call.Idempotent {
		return c.classifyIdempotent(entry, ref, callErr, res)
	}
	if callErr != nil || ref == "" {
		lost := call.Lost(res.RequestID)
		find := func() (string, bool, error) { return call.Find(ctx, res.RequestID, &res) }
		var err error
		if call.Taken != nil && call.Taken(callErr) {
			// The key is this spend's own: taken means it went through; find it to be sure.
			var found bool
			if ref, found, err = find(); err != nil || !found {
				c.journalOutcome(entry, Unknown, false, "", callErr)
				return res, &PurchaseError{Outcome: Unknown, Err: callErr, Explanation: lost.Unknown}
			}
		} else if ref, res.Outcome, err = settle(c, entry, callErr, mark.Sent(), lostReply{noAnswer: lost.NoAnswer, what: lost.What,
			unknown: lost.Unknown, notFound: lost.NotFound, done: done}, find); err != nil {
			return res, err
		}
		res.Recovered = true
	}
	res.Outcome = Bought
	res.JournalErr = c.journalOutcome(entry, Bought, res.Recovered, ref, nil)
	return res, nil
}

// classifyIdempotent is the outcome of a call under an idempotency token (a launch): the
// SDK retried it as it may, so a failure that leaves it unknown is said, not looked up.
func (c *Client) classifyIdempotent(entry JournalEntry, ref string, err error, res SpendResult) (SpendResult, error) {
	switch {
	case err != nil && ambiguous(err):
		c.journalOutcome(entry, Unknown, false, "", err)
		res.Outcome = Unknown
		return res, &PurchaseError{Outcome: Unknown, Err: err, Explanation: Explanation{
			Summary: "The launch may or may not have started instances: " + ExplainError(err).Summary,
			Hint:    "Check `" + c.NextStep("blocks", entry.Region) + "` before launching again."}}
	case err != nil:
		c.journalOutcome(entry, "not-launched", false, "", err)
		return res, &PurchaseError{Outcome: NotBought, Explanation: ExplainError(err), Err: err}
	case ref == "":
		c.journalOutcome(entry, Unknown, false, "", errors.New(entry.Action+" answered without instances"))
		res.Outcome = Unknown
		return res, &PurchaseError{Outcome: Unknown, Explanation: Explanation{
			Summary: "AWS answered the launch without listing any instance.",
			Hint:    "Check the block with `" + c.NextStep("blocks", entry.Region) + "` before launching again."}}
	}
	res.Outcome = Bought
	res.JournalErr = c.journalOutcome(entry, "launched", false, ref, nil)
	return res, nil
}

// FreshFor is how long a listed Capacity Block offering is bought as listed; an older one
// (a cached row, or a screen left open) is asked again first, so its fee and its being
// still on sale are AWS's answer of now.
const FreshFor = time.Minute

// mustAskAgain reports whether a purchase of o must look it up again first. An offering of
// unknown age (built by a caller, not listed by a search) is left to the caller's Lookup.
func mustAskAgain(o model.Offering, now time.Time) bool {
	return o.Source == model.SourceCapacityBlock && !o.AskedAt.IsZero() && now.Sub(o.AskedAt) > FreshFor
}

// askAgain is the Lookup of a listed offering that is too old: the one search call that
// can list it, in its own region, type, count, length and window.
func (c *Client) askAgain(ctx context.Context, in *Intent) error {
	o := in.Offering
	days := int((o.Minutes() + 24*60 - 1) / (24 * 60))
	q := model.Query{InstanceTypes: []string{o.InstanceType}, Count: o.Count, Regions: []string{o.Region},
		Durations: model.DurationRange{MinDays: days, MaxDays: days}, Start: o.Start, End: o.End, AllZones: true}
	fresh, _, err := c.FindOffering(ctx, q, o.ID)
	if errors.Is(err, ErrNotListed) {
		return notBought("Offering "+o.ID+" is no longer offered: AWS did not list it when asked again. Search again.", "", err)
	}
	if err != nil {
		return notBought("Could not ask AWS again for offering "+o.ID+": "+strings.TrimSuffix(c.ExplainError(err).Summary, ".")+".", c.ExplainError(err).Hint, err)
	}
	in.Offering = fresh
	return nil
}
