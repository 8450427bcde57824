package aws

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/gpublock/gpublock/model"
)

// ErrUnsettled is wrapped by the refusal to spend in a region where an interrupted
// purchase or extension could not be settled: AWS could not be asked what became of it.
var ErrUnsettled = errors.New("an interrupted purchase is not settled")

// ErrAlreadyBought is wrapped by the refusal to buy what an interrupted run already
// bought. Nothing new was bought; the caller reports it as done.
var ErrAlreadyBought = errors.New("already bought by an interrupted run")

// Settled is an intent that a crash (or a look-up that failed) left without an outcome,
// and what AWS now says became of it.
type Settled struct {
	Intent    JournalEntry
	Outcome   Outcome         // Bought or NotBought
	Block     model.Block     // the reservation of a purchase that went through
	Extension model.Extension // the extension that went through
	// Result is what another source's settler found (a training plan's ARN).
	Result string
}

// Sentence says what became of the interrupted attempt, plainly.
func (s Settled) Sentence() string {
	e := s.Intent
	when := e.Time.UTC().Format("2006-01-02 15:04 UTC")
	fee := e.Fee
	if m, err := model.ParseMoney(fee); err == nil {
		fee = m.Dollars()
	}
	if is, ok := intentSourceOf(e.Action); ok {
		return s.otherSentence(is, when, fee)
	}
	switch {
	case e.Action == actionExtend && s.Outcome == Bought:
		return fmt.Sprintf("The extension of %s interrupted at %s (journal id %s) went through: %s added, fee %s.",
			e.Target, when, e.RequestID, model.FormatDays(max(1, e.hours()/24)), fee)
	case e.Action == actionExtend:
		return fmt.Sprintf("The extension of %s interrupted at %s (journal id %s) did not go through: the block's extension history does not list it.",
			e.Target, when, e.RequestID)
	case s.Outcome == Bought:
		return fmt.Sprintf("The purchase interrupted at %s (request id %s) went through: reservation %s, %s × %d in %s, fee %s.",
			when, e.RequestID, s.Block.ReservationID, e.Type, e.Count, e.Zone, fee)
	}
	return fmt.Sprintf("The purchase interrupted at %s (request id %s) did not go through: no reservation in %s carries its request tag.",
		when, e.RequestID, e.Region)
}

// otherSentence is Sentence for an intent of a registered source.
func (s Settled) otherSentence(is IntentSource, when, fee string) string {
	e := s.Intent
	switch {
	case e.Action == is.Extend && s.Outcome == Bought:
		return fmt.Sprintf("The extension of %s %s interrupted at %s (journal id %s) went through: %s added, fee %s.",
			is.Noun, e.Target, when, e.RequestID, model.FormatDays(max(1, e.hours()/24)), fee)
	case e.Action == is.Extend:
		return fmt.Sprintf("The extension of %s %s interrupted at %s (journal id %s) did not go through: the %s's extension history does not list it.",
			is.Noun, e.Target, when, e.RequestID, is.Noun)
	case s.Outcome == Bought:
		return fmt.Sprintf("The %s purchase interrupted at %s (request id %s) went through: %s %s, %s × %d in %s, fee %s.",
			is.Noun, when, e.RequestID, is.Noun, s.Result, e.Type, e.Count, e.Zone, fee)
	}
	return fmt.Sprintf("The %s purchase interrupted at %s (request id %s) did not go through: AWS knows no %s of that purchase in %s.",
		is.Noun, when, e.RequestID, is.Noun, e.Region)
}

const (
	actionPurchase = "PurchaseCapacityBlock"
	actionExtend   = "PurchaseCapacityBlockExtension"
)

// hours is an extension intent's length: its own field, or its window.
func (e JournalEntry) hours() int {
	if e.Hours > 0 {
		return e.Hours
	}
	if e.Start != nil && e.End != nil {
		return int(e.End.Sub(*e.Start) / time.Hour)
	}
	return 0
}

// OpenIntents are the journal's purchase and extension intents that have no final
// outcome (none at all, or only "unknown"), in region ("" for every region), oldest first.
func OpenIntents(entries []JournalEntry, region string) []JournalEntry {
	final := map[string]bool{}
	for _, e := range entries {
		if e.Phase == "outcome" && e.Outcome != string(Unknown) {
			final[e.RequestID] = true
		}
	}
	var out []JournalEntry
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Phase != "intent" || final[e.RequestID] || seen[e.RequestID] {
			continue
		}
		if !settles(e.Action) {
			continue // a launch carries a client token: AWS never runs it twice
		}
		if region != "" && e.Region != region {
			continue
		}
		seen[e.RequestID] = true
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// SettleOpen settles every open intent of this account in region ("" for every region)
// from what AWS lists: a purchase by its request tag, an extension in its block's history.
// Each gets an outcome line marked settled later. When one cannot be settled (AWS cannot
// be asked), the error wraps ErrUnsettled and nothing may be bought in that region: the
// settled ones are returned all the same.
func (c *Client) SettleOpen(ctx context.Context, region string) ([]Settled, error) {
	entries, _, err := c.Journal()
	if err != nil {
		return nil, c.unsettled(region, nil, err)
	}
	open := OpenIntents(entries, region)
	if len(open) == 0 {
		return nil, nil
	}
	id, err := c.Identity(ctx)
	if err != nil {
		return nil, c.unsettled(region, &open[0], err)
	}
	var done []Settled
	for _, e := range open {
		if e.Account != "" && e.Account != id.Account {
			continue // another account's: it is settled when that account buys
		}
		s, err := c.settleOne(ctx, e)
		if err != nil {
			return done, c.unsettled(e.Region, &e, err)
		}
		var result string
		switch {
		case s.Outcome == Bought && s.Result != "":
			result = s.Result
		case s.Outcome == Bought && e.Action == actionExtend:
			result = e.Target
		case s.Outcome == Bought:
			result = s.Block.ReservationID
		}
		e.SettledLater = true
		// The earlier-purchase check that follows reads this line back: unwritten, an
		// interrupted purchase that went through would not stop a second one.
		if err := c.journalOutcome(e, s.Outcome, s.Outcome == Bought, result, nil); err != nil {
			return done, c.unsettled(e.Region, &e, fmt.Errorf("its outcome could not be written to the journal: %w", err))
		}
		done = append(done, s)
	}
	return done, nil
}

func (c *Client) settleOne(ctx context.Context, e JournalEntry) (Settled, error) {
	s := Settled{Intent: e, Outcome: NotBought}
	// A young intent may be of a call AWS has not finished listing: it is asked a few
	// times, as after a lost reply. An old one is asked once.
	tries := 1
	if time.Since(e.Time) < 5*time.Minute {
		tries = c.confirmTries
	}
	if is, ok := intentSourceOf(e.Action); ok {
		// The source's settler asks as many times as its own look-up after a lost reply does.
		bought, result, err := is.Settler(c)(ctx, e)
		if err != nil {
			return s, err
		}
		if bought {
			s.Outcome, s.Result = Bought, result
		}
		return s, nil
	}
	if e.Action == actionExtend {
		b := model.Block{ReservationID: e.Target, Region: e.Region}
		after := e.Time
		if e.BackendTime != nil {
			after = *e.BackendTime
		}
		ext, found, err := confirmN(ctx, c, tries, func(ctx context.Context) (model.Extension, bool, error) {
			return c.lookExtension(withExtensionRequestID(ctx, e.RequestID), b, e.Offering, e.hours(), after)
		})
		if err != nil {
			return s, err
		}
		if found {
			s.Outcome, s.Extension = Bought, ext
		}
		return s, nil
	}
	blk, found, err := confirmN(ctx, c, tries, func(ctx context.Context) (model.Block, bool, error) {
		return c.lookReservation(ctx, e.Region, e.Zone, e.Type, e.RequestID)
	})
	if err != nil {
		return s, err
	}
	if found {
		s.Outcome, s.Block = Bought, blk
	}
	return s, nil
}

// unsettled is the refusal to spend while an intent cannot be settled.
func (c *Client) unsettled(region string, e *JournalEntry, err error) error {
	where := "this region"
	if region != "" {
		where = region
	}
	what := "An earlier purchase or extension"
	if e != nil {
		noun := map[string]string{actionPurchase: "purchase", actionExtend: "extension"}[e.Action]
		if is, ok := intentSourceOf(e.Action); ok {
			noun = is.Noun + " purchase"
			if e.Action == is.Extend {
				noun = is.Noun + " extension"
			}
		}
		what = fmt.Sprintf("An earlier %s (journal id %s, %s)", noun, e.RequestID, e.Time.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return &PurchaseError{Outcome: NotBought, Err: fmt.Errorf("%w: %w", ErrUnsettled, err), Explanation: Explanation{
		Summary: fmt.Sprintf("Refused: %s in %s was interrupted, and whether it went through cannot be learnt now (%s).",
			what, where, strings.TrimSuffix(ExplainError(err).Summary, ".")),
		Hint: "Nothing was sent to buy. Settle it first: " + c.SettleCommand(region) + "; it asks AWS and records what it finds.",
	}}
}

// SettleCommand is the command that settles the journal's open intents in region.
func (c *Client) SettleCommand(region string) string {
	return "`" + c.NextStep("journal", region) + "`"
}

// EarlierPurchase is the outcome line of a purchase that an interrupted run made and a
// later run settled as bought, for the same offering or the same zone, type, count and
// window as o: buying o would buy that block a second time.
func (c *Client) EarlierPurchase(o model.Offering) (JournalEntry, bool) {
	entries, _, err := c.Journal()
	if err != nil {
		return JournalEntry{}, false
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Phase != "outcome" || !e.SettledLater || e.Outcome != string(Bought) || e.Action != purchaseAction(o.Source) || e.Region != o.Region {
			continue
		}
		if o.ID != "" && e.Offering == o.ID {
			return atIntent(entries, e), true
		}
		// A plan's journal line holds its first part's count, which the offering's Count
		// (its largest part's) may not be: its zone, type and window identify it enough.
		sameCount := e.Count == o.Count || o.Source != model.SourceCapacityBlock
		if e.Zone == o.AvailabilityZone && e.Type == o.InstanceType && sameCount &&
			e.Start != nil && e.End != nil && e.Start.Equal(o.Start) && e.End.Equal(o.End) {
			return atIntent(entries, e), true
		}
	}
	return JournalEntry{}, false
}

// EarlierExtension is the outcome line of an extension of b by hours that an interrupted
// run made and a later run settled as bought, while b still ends where that extension
// started (its payment pending) or ended: extending again would add the time twice.
func (c *Client) EarlierExtension(b model.Block, hours int) (JournalEntry, bool) {
	entries, _, err := c.Journal()
	if err != nil {
		return JournalEntry{}, false
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		target := e.Target == b.ReservationID || (b.ARN != "" && e.Target == b.ARN)
		if e.Phase != "outcome" || !e.SettledLater || e.Outcome != string(Bought) || e.Action != extendAction(b.Source) ||
			!target || e.hours() != hours || e.Start == nil || e.End == nil {
			continue
		}
		if b.End.Equal(*e.Start) || b.End.Equal(*e.End) {
			return atIntent(entries, e), true
		}
	}
	return JournalEntry{}, false
}

// AlreadyBoughtError is the refusal, wrapping ErrAlreadyBought, to buy again what the
// interrupted run of e (an outcome line from EarlierPurchase or EarlierExtension) bought.
func AlreadyBoughtError(e JournalEntry) error {
	if isExtendAction(e.Action) {
		return alreadyBought(e, "extend by", "--again")
	}
	return alreadyBought(e, "buy", "--again")
}

// atIntent is an outcome line with the time of its intent: when the interrupted attempt
// was made, not when it was settled.
func atIntent(entries []JournalEntry, outcome JournalEntry) JournalEntry {
	for _, e := range entries {
		if e.Phase == "intent" && e.RequestID == outcome.RequestID {
			outcome.Time = e.Time
			break
		}
	}
	return outcome
}

// alreadyBought is the refusal to buy again what an interrupted run bought.
func alreadyBought(e JournalEntry, what, flag string) *PurchaseError {
	fee := e.Fee
	if m, err := model.ParseMoney(fee); err == nil {
		fee = m.Dollars()
	}
	as := "reservation"
	if is, ok := intentSourceOf(e.Action); ok {
		as = is.Noun
	}
	summary := fmt.Sprintf("Already bought: the purchase interrupted at %s went through as %s %s (fee %s). Nothing new was bought.",
		e.Time.UTC().Format("2006-01-02 15:04 UTC"), as, e.Result, fee)
	if isExtendAction(e.Action) {
		summary = fmt.Sprintf("Already extended: the extension of %s interrupted at %s went through (%s added, fee %s). Nothing new was bought.",
			e.Target, e.Time.UTC().Format("2006-01-02 15:04 UTC"), model.FormatDays(max(1, e.hours()/24)), fee)
	}
	return &PurchaseError{Outcome: NotBought, Err: ErrAlreadyBought, Explanation: Explanation{
		Summary: summary, Hint: "To " + what + " another one on purpose, run the command again with " + flag + "."}}
}

// SpendOption changes one purchase or extension.
type SpendOption func(*spendOptions)

type spendOptions struct{ again bool }

// Again allows buying what an interrupted run already bought (a second block or
// extension, on purpose).
func Again() SpendOption { return func(o *spendOptions) { o.again = true } }

func spendOpts(opts []SpendOption) spendOptions {
	var o spendOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// lookReservation lists the region's reservations of this type in this zone (filters
// DescribeCapacityReservations documents; it documents no tag: filter) and matches the
// request tag in the reply.
func (c *Client) lookReservation(ctx context.Context, region, zone, instanceType, requestID string) (model.Block, bool, error) {
	var filters []types.Filter
	if instanceType != "" {
		filters = append(filters, types.Filter{Name: sdkaws.String("instance-type"), Values: []string{instanceType}})
	}
	if zone != "" {
		filters = append(filters, types.Filter{Name: sdkaws.String("availability-zone"), Values: []string{zone}})
	}
	ctx = withLookupRequestID(ctx, requestID)
	p := ec2.NewDescribeCapacityReservationsPaginator(c.ec2In(region), &ec2.DescribeCapacityReservationsInput{Filters: filters})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return model.Block{}, false, err
		}
		for _, r := range page.CapacityReservations {
			if tagMap(r.Tags)[RequestIDTag] == requestID {
				return blockFromReservation(region, r), true, nil
			}
		}
	}
	return model.Block{}, false, nil
}

// lookExtension looks in b's extension history for the extension offering, or, when the
// offering is not listed by id, for an extension of b of this length purchased after the
// intent (a minute's leeway for clocks).
func (c *Client) lookExtension(ctx context.Context, b model.Block, offeringID string, hours int, after time.Time) (model.Extension, bool, error) {
	p := ec2.NewDescribeCapacityBlockExtensionHistoryPaginator(c.ec2In(b.Region), &ec2.DescribeCapacityBlockExtensionHistoryInput{
		CapacityReservationIds: []string{b.ReservationID},
	})
	var byLength *model.Extension
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return model.Extension{}, false, err
		}
		for _, h := range page.CapacityBlockExtensions {
			if sdkaws.ToString(h.CapacityReservationId) != b.ReservationID {
				continue
			}
			e := extensionFrom(h)
			if offeringID != "" && e.OfferingID == offeringID {
				return e, true, nil
			}
			if byLength == nil && hours > 0 && e.DurationHours == hours && !after.IsZero() && !e.PurchaseDate.Before(after.Add(-time.Minute)) {
				byLength = &e
			}
		}
	}
	if byLength != nil {
		return *byLength, true, nil
	}
	return model.Extension{}, false, nil
}

// sentMark records whether a call reached the network: the middleware runs after signing,
// just before the HTTP round trip, so a call that failed without it was never sent (no
// credentials, a signing failure) and certainly not carried out.
type sentMark struct{ sent atomic.Bool }

func (m *sentMark) option(o *ec2.Options) { o.APIOptions = append(o.APIOptions, m.stackOption) }

func (m *sentMark) stackOption(s *middleware.Stack) error {
	return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("gpublock.SentMark",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			m.sent.Store(true)
			return next.HandleDeserialize(ctx, in)
		}), middleware.After)
}
