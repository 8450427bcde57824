package aws

import (
	"context"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go/middleware"
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

// SentMark tells whether a call reached the network: add StackOption to the call's
// APIOptions, and a call that failed without Sent was never sent (credentials, signing).
type SentMark struct{ m sentMark }

// StackOption is the middleware that marks the call as sent, for any SDK client's APIOptions.
func (s *SentMark) StackOption(st *middleware.Stack) error { return s.m.stackOption(st) }

// Sent reports whether the call reached the network.
func (s *SentMark) Sent() bool { return s.m.sent.Load() }

// Confirm asks look, a few times, whether a call whose reply was lost went through.
func Confirm[T any](ctx context.Context, c *Client, look func(context.Context) (T, bool, error)) (T, bool, error) {
	return confirm(ctx, c, look)
}

// WithThrottleHook returns a context whose SDK calls report each throttled attempt.
func WithThrottleHook(ctx context.Context, hook func(error)) context.Context {
	return withThrottleHook(ctx, hook)
}

// SetConfirmPace sets how often, and how far apart, a lost reply is looked up (tests and
// demos shorten it).
func (c *Client) SetConfirmPace(tries int, delay time.Duration) {
	c.confirmTries, c.confirmDelay = max(1, tries), delay
}
