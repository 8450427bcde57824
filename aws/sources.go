package aws

import (
	"context"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go/middleware"

	"github.com/gpublock/gpublock/model"
)

// The API another capacity source's package (aws/trainingplans) builds on, so that every
// source shares one credential chain, retryer, journal, spending cap, read-only mode and
// settling after a lost reply. Each is a thin door onto the rule written here once.

// SDKConfig is the loaded SDK configuration: credential chain, region, app id, logger and
// call log, for another service's clients.
func (c *Client) SDKConfig() sdkaws.Config { return c.awscfg.Copy() }

// ReadRetryer is the retryer every read shares (throttles reported, patient backoff).
func (c *Client) ReadRetryer() sdkaws.RetryerV2 { return c.retryer }

// EndpointFlag is the --endpoint-url given (Config.EndpointURL), "" when none was.
func (c *Client) EndpointFlag() string { return c.endpointFlag }

// CheckWritable refuses, in read-only mode, anything that would be what (e.g. "bought").
func (c *Client) CheckWritable(what string) error { return c.checkWritable(what) }

// CheckCap refuses a fee above the spending cap, before any call.
func (c *Client) CheckCap(fee model.Money) error { return c.checkCap(fee) }

// JournalIntent records a purchase about to be sent; the purchase must not go ahead when
// it fails. It fills in the account.
func (c *Client) JournalIntent(ctx context.Context, e *JournalEntry) error {
	return c.journalIntent(ctx, e)
}

// JournalOutcome records what became of a purchase.
func (c *Client) JournalOutcome(e JournalEntry, outcome Outcome, recovered bool, result string, err error) error {
	return c.journalOutcome(e, outcome, recovered, result, err)
}

// NewRequestID is a fresh purchase request id ("gpb-" and 24 hex digits).
func NewRequestID() string { return newRequestID() }

// NoAnswer says what a purchase tells when its reply did not say what was bought.
type NoAnswer struct {
	NoAnswer string      // the error of an answer without what was bought
	What     string      // "training plan", "extension"
	Unknown  Explanation // when the look-up failed as well
	NotFound string      // the hint when the look-up answered without it
}

// SentMark tells whether a call reached the network: add StackOption to the call's
// APIOptions, and a call that failed without Sent was never sent (credentials, signing).
type SentMark struct{ m sentMark }

// StackOption is the middleware that marks the call as sent, for any SDK client's APIOptions.
func (s *SentMark) StackOption(st *middleware.Stack) error { return s.m.stackOption(st) }

// Sent reports whether the call reached the network.
func (s *SentMark) Sent() bool { return s.m.sent.Load() }

// Settle decides what a purchase sent once, without retries, did when its reply did not
// say (see settle): never sent or a 4xx bought nothing; otherwise find looks for it first.
func Settle[T any](c *Client, entry JournalEntry, callErr error, sent bool, say NoAnswer, find func() (T, bool, error)) (T, Outcome, error) {
	return settle(c, entry, callErr, sent, lostReply{noAnswer: say.NoAnswer, what: say.What, unknown: say.Unknown, notFound: say.NotFound}, find)
}

// Confirm asks look, a few times, whether a call whose reply was lost went through.
func Confirm[T any](ctx context.Context, c *Client, look func(context.Context) (T, bool, error)) (T, bool, error) {
	return confirm(ctx, c, look)
}

// Ambiguous reports whether a failed call may still have been carried out.
func Ambiguous(err error) bool { return ambiguous(err) }

// WithThrottleHook returns a context whose SDK calls report each throttled attempt.
func WithThrottleHook(ctx context.Context, hook func(error)) context.Context {
	return withThrottleHook(ctx, hook)
}

// SetConfirmPace sets how often, and how far apart, a lost reply is looked up (tests and
// demos shorten it).
func (c *Client) SetConfirmPace(tries int, delay time.Duration) {
	c.confirmTries, c.confirmDelay = max(1, tries), delay
}

// WithExtensionRequestID marks ctx's extension purchase, and the look-up that settles its
// lost reply, with the request id of their journal lines, for the call log.
func WithExtensionRequestID(ctx context.Context, id string) context.Context {
	return withExtensionRequestID(ctx, id)
}
