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

// PurchaseResult is a finished purchase of a block.
type PurchaseResult struct {
	RequestID  string // the value of the gpublock:request-id tag
	Permission Permission
	Outcome    Outcome
	Block      model.Block // the reservation, when bought
	// Recovered is true when the purchase reply was lost and the reservation was then
	// found by its request-id tag.
	Recovered bool
}

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
	return s
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

func checkTags(tags map[string]string) error {
	if len(tags) > 40 {
		return fmt.Errorf("%d tags; at most 40 (AWS allows 50 and gpublock adds its own)", len(tags))
	}
	for k, v := range tags {
		switch {
		case k == "" || len(k) > 128:
			return fmt.Errorf("tag key %q: must be 1–128 characters", k)
		case strings.HasPrefix(strings.ToLower(k), "aws:"):
			return fmt.Errorf("tag key %q: the aws: prefix is reserved by AWS", k)
		case k == RequestIDTag:
			return fmt.Errorf("tag key %q is set by gpublock itself", k)
		case len(v) > 256:
			return fmt.Errorf("tag %q: value longer than 256 characters", k)
		}
	}
	return nil
}

// ErrReadOnly is wrapped by the error of a purchase, extension or launch in read-only mode.
var ErrReadOnly = errors.New("read-only mode")

func (c *Client) checkWritable(what string) error {
	if c.cfg.ReadOnly {
		return &PurchaseError{Outcome: NotBought, Err: ErrReadOnly, Explanation: Explanation{
			Summary: "Refused: gpublock runs read-only, so nothing can be " + what + ".",
			Hint:    "Run without --read-only to allow it."}}
	}
	return nil
}

func (c *Client) checkCap(fee model.Money) error {
	if c.cfg.MaxSpend != nil && fee.Cmp(*c.cfg.MaxSpend) > 0 {
		return &PurchaseError{Outcome: NotBought, Err: ErrOverSpendCap, Explanation: Explanation{
			Summary: fmt.Sprintf("Refused: the fee %s is above the spending cap of %s.", fee.Dollars(), c.cfg.MaxSpend.Dollars()),
			Hint:    "Raise the cap (--max-spend) if this is intended; nothing was sent to AWS.",
		}}
	}
	return nil
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

// mayBuy is the last check before a purchase is journalled: the spending cap, then the
// DryRun, whose permission comes back also when it refuses.
func (c *Client) mayBuy(fee model.Money, dryRun func() (Permission, error)) (Permission, error) {
	if err := c.checkCap(fee); err != nil {
		return Permission{}, err
	}
	perm, err := dryRun()
	if err != nil {
		return Permission{}, notBought("", "", err)
	}
	if !perm.Allowed {
		return perm, &PurchaseError{Outcome: NotBought, Explanation: Explanation{
			Summary: "Not allowed: this identity lacks " + perm.Action + ".",
			Hint:    "Ask an administrator to allow " + perm.Action + "; nothing was bought.",
			Action:  perm.Action, Code: "UnauthorizedOperation"}}
	}
	return perm, nil
}

// CheckPurchase asks AWS, with a DryRun, whether this identity may buy the offering.
func (c *Client) CheckPurchase(ctx context.Context, o model.Offering, platform string) (Permission, error) {
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return Permission{}, err
	}
	_, err := c.ec2In(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: sdkaws.String(o.ID),
		InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
		DryRun:                  sdkaws.Bool(true),
	})
	return dryRun(err, "ec2:PurchaseCapacityBlock")
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

// Purchase buys an offering, safely: the spending cap is checked before any call, a
// DryRun checks permission, the journal records the intent, then one single call, with
// the SDK's retries off, tagged with a unique request id. If that call fails in a way
// that leaves it unknown whether AWS committed (timeout, 5xx, connection reset), the
// reservation is looked up by its tag before anything is reported. It never buys twice.
// The error, when not nil, is a *PurchaseError.
func (c *Client) Purchase(ctx context.Context, o model.Offering, platform string, tags map[string]string) (PurchaseResult, error) {
	res := PurchaseResult{Outcome: NotBought}
	if err := c.checkWritable("bought"); err != nil {
		return res, err
	}
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return res, err
	}
	if err := checkTags(tags); err != nil {
		return res, notBought("Bad tags: "+err.Error()+".", "", err)
	}
	var err error
	if res.Permission, err = c.mayBuy(o.Fee, func() (Permission, error) { return c.CheckPurchase(ctx, o, platform) }); err != nil {
		return res, err
	}

	res.RequestID = newRequestID()
	all := map[string]string{RequestIDTag: res.RequestID}
	maps.Copy(all, tags)
	entry := JournalEntry{Action: "PurchaseCapacityBlock", RequestID: res.RequestID, Region: o.Region,
		Zone: o.AvailabilityZone, Offering: o.ID, Type: o.InstanceType, Count: o.Count, Start: utc(o.Start), End: utc(o.End),
		Fee: o.Fee.String(), Currency: o.Currency, Platform: platform, Tags: tags}
	if err := c.journalIntent(ctx, &entry); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		// Cancelled before anything was sent: certainly not bought.
		c.journalOutcome(entry, NotBought, false, "", err)
		return res, &PurchaseError{Outcome: NotBought, Explanation: Explanation{Summary: "Cancelled before the purchase was sent; nothing was bought."}, Err: err}
	}

	out, callErr := c.ec2In(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: sdkaws.String(o.ID),
		InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
		TagSpecifications: []types.TagSpecification{{
			ResourceType: types.ResourceTypeCapacityReservation,
			Tags:         sdkTags(all),
		}},
	}, noRetries)

	if callErr == nil && out.CapacityReservation != nil && out.CapacityReservation.CapacityReservationId != nil {
		res.Outcome = Bought
		res.Block = blockFromReservation(o.Region, *out.CapacityReservation)
	} else {
		res.Block, res.Outcome, err = settle(c, entry, callErr, lostReply{
			noAnswer: "PurchaseCapacityBlock answered without a reservation",
			what:     "purchase",
			unknown: Explanation{
				Summary: "The purchase may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
				Hint: fmt.Sprintf("Do not buy again. Run `gpublock blocks --region %s` and look for the tag %s=%s.",
					o.Region, RequestIDTag, res.RequestID)},
			notFound: "No reservation carries this purchase's request id; it is safe to search and try again.",
		}, func() (model.Block, bool, error) { return c.findByRequestID(ctx, o.Region, res.RequestID) })
		if err != nil {
			return res, err
		}
		res.Recovered = true
	}
	c.journalOutcome(entry, Bought, res.Recovered, res.Block.ReservationID, nil)
	return res, nil
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

// findByRequestID looks for the reservation tagged with a purchase's request id.
func (c *Client) findByRequestID(ctx context.Context, region, requestID string) (model.Block, bool, error) {
	ctx = withExtensionRequestID(ctx, requestID) // for the call log: the input has no tag
	return confirm(ctx, c, func(ctx context.Context) (model.Block, bool, error) {
		// No tag filter is documented for DescribeCapacityReservations: list them and match
		// the tag in the reply.
		p := ec2.NewDescribeCapacityReservationsPaginator(c.ec2In(region), &ec2.DescribeCapacityReservationsInput{})
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
	})
}

// journalIntent records what is about to be sent. It fills in e's account, when it can be
// learnt, so that the outcome line carries it too.
func (c *Client) journalIntent(ctx context.Context, e *JournalEntry) error {
	if id, err := c.Identity(ctx); err == nil {
		e.Account = id.Account
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

// journalOutcome records the result. Its own failure cannot undo the purchase, so it is
// only reported through the entry's absence; the intent line is already on disk.
func (c *Client) journalOutcome(e JournalEntry, outcome Outcome, recovered bool, result string, err error) {
	e.Time, e.Phase = time.Now().UTC(), "outcome"
	e.Outcome, e.Recovered, e.Result = string(outcome), recovered, result
	if err != nil {
		e.Error = firstLine(err)
	}
	_ = c.journal.write(e)
}
