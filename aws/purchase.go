package aws

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/model"
)

// RequestIDTag is the tag every purchase carries, so that after a lost reply the
// reservation can be found and the purchase never repeated.
const RequestIDTag = "gpublock:request-id"

// DefaultPlatform is the instance platform used when none is given.
const DefaultPlatform = "Linux/UNIX"

// Permission is the answer of a DryRun.
type Permission struct {
	Allowed bool
	Action  string // the IAM action checked, e.g. "ec2:PurchaseCapacityBlock"
	Message string // when not allowed: why, naming the missing action
}

// Outcome is what became of a purchase. There is no "maybe" unless AWS could not be
// asked afterwards; then it is Unknown, and the caller must not buy again.
type Outcome string

const (
	Bought    Outcome = "bought"
	NotBought Outcome = "not-bought"
	Unknown   Outcome = "unknown"
)

// PurchaseError is why a purchase, extension or launch did not happen (or may have).
// Outcome is NotBought or Unknown; Explanation is ready to show.
type PurchaseError struct {
	Outcome     Outcome
	Explanation Explanation
	Err         error
}

func (e *PurchaseError) Error() string {
	s := e.Explanation.String()
	if e.Err != nil && e.Explanation.Code == "" && !strings.Contains(s, e.Err.Error()) {
		s += " (" + e.Err.Error() + ")"
	}
	return Redact(s)
}
func (e *PurchaseError) Unwrap() error { return e.Err }

func notBought(summary, hint string, err error) *PurchaseError {
	ex := Explanation{Summary: summary, Hint: hint}
	if err != nil && summary == "" {
		ex = ExplainError(err)
	}
	return &PurchaseError{Outcome: NotBought, Explanation: ex, Err: err}
}

// ErrOverSpendCap is wrapped by the error of a purchase above Config.MaxSpend.
var ErrOverSpendCap = errors.New("above the spending cap")

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return requestIDPrefix + hex.EncodeToString(b[:])
}

// requestIDPrefix starts every request id, which tells one apart from the SDK's tokens.
const requestIDPrefix = "gpb-"

// noRetries turns the SDK's retries off for one call. Purchases have no idempotency
// token: a retried 5xx could buy twice.
func noRetries(o *ec2.Options) {
	o.Retryer = sdkaws.NopRetryer{}
	o.RetryMaxAttempts = 1
}

func validPlatform(p string) bool { return slices.Contains(Platforms(), p) }

// CheckTags is model.CheckTags, the one rule of a person's tags, for the configuration
// file's reader.
func CheckTags(tags map[string]string) error { return model.CheckTags(tags) }

// ErrReadOnly is wrapped by the error of a purchase, extension or launch in read-only mode.
var ErrReadOnly = errors.New("read-only mode")

// notSent marks the error of a call that never left this machine (no credentials, a
// signing failure): it was certainly not carried out.
func notSent(err error, sent bool, what string) error {
	if err == nil || sent {
		return err
	}
	return &PurchaseError{Outcome: NotBought, Err: err, Explanation: Explanation{
		Summary: "Not sent: the " + what + " never left this machine (" + strings.TrimSuffix(ExplainError(err).Summary, ".") + ").",
		Hint:    ExplainError(err).Hint}}
}

// dryRun interprets the error of a DryRun call: DryRunOperation means allowed,
// UnauthorizedOperation means not allowed; anything else is returned as an error.
func dryRun(err error, action string) (Permission, error) {
	if err == nil {
		// A DryRun must fail one way or the other; a success means the endpoint ignored the
		// flag, and the real call might do the same thing for real.
		return Permission{}, fmt.Errorf("%s: the dry run was answered as a real call; refusing to continue", action)
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "DryRunOperation":
			return Permission{Allowed: true, Action: action}, nil
		case "UnauthorizedOperation", "AccessDenied":
			return Permission{Allowed: false, Action: action,
				Message: "not allowed: this identity lacks " + action}, nil
		}
	}
	return Permission{}, err
}

// CheckPurchase asks AWS, with a DryRun, whether this identity may buy the offering.
func (c *Client) CheckPurchase(ctx context.Context, o model.Offering, platform string) (Permission, error) {
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return Permission{}, err
	}
	var mark sentMark
	_, err := c.ec2In(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: sdkaws.String(o.ID),
		InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
		DryRun:                  sdkaws.Bool(true),
	}, mark.option)
	return dryRun(notSent(err, mark.sent.Load(), "permission check"), "ec2:PurchaseCapacityBlock")
}

func checkOffering(o model.Offering, platform string) error {
	switch {
	case strings.TrimSpace(o.ID) == "":
		return notBought("The offering has no id.", "Pick an offering from a search.", nil)
	case o.Region == "":
		return notBought("The offering has no region.", "Pick an offering from a search.", nil)
	case !validPlatform(platform):
		return notBought(fmt.Sprintf("Platform %q is not one AWS accepts.", platform), "Use Linux/UNIX, Windows, Red Hat Enterprise Linux, SUSE Linux, Ubuntu Pro…", nil)
	}
	return nil
}

// Purchase buys an offering through the one spend path (Prepare, then Commit): it never
// buys twice. The error, when not nil, is a *PurchaseError.
func (c *Client) Purchase(ctx context.Context, o model.Offering, platform string, tags map[string]string, opts ...SpendOption) (PurchaseResult, error) {
	return c.spend(ctx, c.CapacityBlocks(), Intent{Kind: SpendPurchase, Offering: o, Platform: platform, Tags: tags, Again: spendOpts(opts).again})
}

// spend is Prepare then Commit, for the callers that agreed beforehand.
func (c *Client) spend(ctx context.Context, src Source, in Intent) (SpendResult, error) {
	return c.SpendWith(ctx, in, func(in Intent) (SpendCall, error) { return src.SpendCall(ctx, in) })
}

// purchaseCall is the Capacity Block's part of a purchase: one PurchaseCapacityBlock
// tagged with the request id, found again by that tag.
func (c *Client) purchaseCall(in Intent) (SpendCall, error) {
	o, platform, tags := in.Offering, in.Platform, in.Tags
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return SpendCall{}, err
	}
	return SpendCall{
		Entry: JournalEntry{Action: actionPurchase, Region: o.Region, Zone: o.AvailabilityZone, Offering: o.ID, Type: o.InstanceType,
			Count: o.Count, Start: utc(o.Start), End: utc(o.End), Fee: o.Fee.String(), Currency: o.Currency, Platform: platform, Tags: tags},
		DryRun: func(ctx context.Context) (Permission, error) { return c.CheckPurchase(ctx, o, platform) },
		Call: func(ctx context.Context, id string, mark *SentMark, res *SpendResult) (string, error) {
			all := map[string]string{RequestIDTag: id}
			maps.Copy(all, tags)
			out, err := c.ec2In(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
				CapacityBlockOfferingId: sdkaws.String(o.ID),
				InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
				TagSpecifications:       []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation, Tags: sdkTags(all)}},
			}, noRetries, mark.m.option)
			if err != nil || out.CapacityReservation == nil || out.CapacityReservation.CapacityReservationId == nil {
				return "", err
			}
			res.Block = blockFromReservation(o.Region, *out.CapacityReservation)
			return res.Block.ReservationID, nil
		},
		Find: func(ctx context.Context, id string, res *SpendResult) (string, bool, error) {
			b, found, err := c.findByRequestID(ctx, o.Region, o.AvailabilityZone, o.InstanceType, id)
			res.Block = b
			return b.ReservationID, found, err
		},
		Lost: func(id string) NoAnswer {
			return NoAnswer{
				NoAnswer: "PurchaseCapacityBlock answered without a reservation",
				What:     "purchase",
				Unknown: Explanation{
					Summary: "The purchase may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
					Hint:    "Do not buy again. Settle it with " + c.SettleCommand(o.Region) + " once AWS answers: it looks for the reservation tagged " + RequestIDTag + "=" + id + "."},
				NotFound: "No reservation carries this purchase's request id; it is safe to search and try again.",
			}
		},
	}, nil
}

// ambiguous reports whether a failed call may still have been carried out by AWS: no
// response at all (timeout, reset, cancellation after sending), a server error, or a
// success whose body could not be read. Only a 4xx answer is a refusal: nothing was done.
func ambiguous(err error) bool {
	st := httpStatus(err)
	return st < 400 || st >= 500
}

func sdkTags(m map[string]string) []types.Tag {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	out := make([]types.Tag, 0, len(m))
	for _, k := range keys {
		out = append(out, types.Tag{Key: sdkaws.String(k), Value: sdkaws.String(m[k])})
	}
	return out
}

// findByRequestID looks for the reservation tagged with a purchase's request id, asking
// a few times (see confirm).
func (c *Client) findByRequestID(ctx context.Context, region, zone, instanceType, requestID string) (model.Block, bool, error) {
	return confirm(ctx, c, func(ctx context.Context) (model.Block, bool, error) {
		return c.lookReservation(ctx, region, zone, instanceType, requestID)
	})
}

// journalIntent records what is about to be sent. It fills in e's account, when it can be
// learnt, so that the outcome line carries it too.
func (c *Client) journalIntent(ctx context.Context, e *JournalEntry) error {
	if id, err := c.Identity(ctx); err == nil {
		e.Account = id.Account
	}
	if c.cfg.EndpointURL != "" {
		// The emulator's clock may be far from this machine's; an extension is settled
		// against the time its history uses.
		if t, ok := c.simClock(ctx); ok {
			e.BackendTime = &t
		}
	}
	intent := *e
	intent.Time, intent.Phase = time.Now().UTC(), "intent"
	if err := c.journal.write(intent); err != nil {
		return &PurchaseError{Outcome: NotBought, Err: err, Explanation: Explanation{
			Summary: "Refused: the purchase journal cannot be written (" + err.Error() + ").",
			Hint:    "Fix the journal directory (or set XDG_STATE_HOME); nothing was sent to AWS."}}
	}
	return nil
}

// journalOutcome records the result. Its own failure cannot undo the purchase: it is
// returned for the caller to say (the intent line is already on disk, so a later run
// settles it).
func (c *Client) journalOutcome(e JournalEntry, outcome Outcome, recovered bool, result string, err error) error {
	e.Time, e.Phase = time.Now().UTC(), "outcome"
	e.Outcome, e.Recovered, e.Result = string(outcome), recovered, result
	e.BackendTime = nil
	if err != nil {
		e.Error = Redact(firstLine(err))
	}
	return c.journal.write(e)
}
