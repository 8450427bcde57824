package awsapi

import (
	"context"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// reportingRetryer is the SDK's retryer with one addition: before it backs off after a
// throttle it tells the caller, through a hook carried by the context, so a search can
// show "throttled (retrying)" while the SDK does the waiting.
type reportingRetryer struct {
	aws.RetryerV2
	pacers *pacers // nil in tests of the retryer alone
}

type throttleHookKey struct{}

// WithThrottleHook returns a context whose SDK calls report each throttled attempt.
func WithThrottleHook(ctx context.Context, hook func(error)) context.Context {
	return context.WithValue(ctx, throttleHookKey{}, hook)
}

func (r reportingRetryer) GetRetryToken(ctx context.Context, opErr error) (func(error) error, error) {
	if IsThrottle(opErr) {
		if hook, ok := ctx.Value(throttleHookKey{}).(func(error)); ok && hook != nil {
			hook(opErr)
		}
	}
	return r.RetryerV2.GetRetryToken(ctx, opErr)
}

// OtherAttempts bounds the tries of a call that failed for any reason but throttling
// (counted by paceAttempt, whatever throttles came between): a region that is down should
// be reported in seconds, not after a throttle's patience.
const OtherAttempts = 3

// AnsweredAttempts bounds those tries in a region that has answered other calls of the
// client: at a 30% failure rate, a call then fails for good about once in 15,000.
const AnsweredAttempts = 8

// RetryDelay leaves a throttled call's wait to the region's pacer, which knows when the
// bucket has a token again; the SDK's exponential backoff would only add to it.
func (r reportingRetryer) RetryDelay(attempt int, opErr error) (time.Duration, error) {
	if IsThrottle(opErr) && r.pacers != nil && r.pacers.on() {
		return 0, nil
	}
	return r.RetryerV2.RetryDelay(attempt, opErr)
}

var throttleCheck = retry.IsErrorThrottles(retry.DefaultThrottles)

// IsThrottle reports whether AWS refused the call for its rate (RequestLimitExceeded and
// the other codes the SDK treats as throttles).
func IsThrottle(err error) bool {
	return err != nil && throttleCheck.IsErrorThrottle(err) == aws.TrueTernary
}

func profileFromEnv() string {
	if p := os.Getenv("AWS_PROFILE"); p != "" {
		return p
	}
	return os.Getenv("AWS_DEFAULT_PROFILE")
}
