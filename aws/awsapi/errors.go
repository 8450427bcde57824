package awsapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// ConfigError is a failure to load the SDK configuration (a missing profile, a broken
// config file).
type ConfigError struct {
	Profile string
	Err     error
}

func (e *ConfigError) Error() string {
	return source.Redact("loading AWS configuration: " + e.Err.Error())
}
func (e *ConfigError) Unwrap() error { return e.Err }

// CredentialsError is a failure to find or refresh credentials.
type CredentialsError struct {
	Profile string
	Err     error
}

func (e *CredentialsError) Error() string { return source.Redact("AWS credentials: " + e.Err.Error()) }
func (e *CredentialsError) Unwrap() error { return e.Err }

// ExplainError is the one place that turns errors into a sentence and a hint.
func ExplainError(err error) source.Explanation { return explain(err, "") }

// ExplainError is the package function with this client's profile filled into hints.
func (c *Client) ExplainError(err error) source.Explanation { return explain(err, c.profile) }

// credentialChain is what the SDK tries, in order, when no credentials are given.
const credentialChain = "environment (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY), web identity (AWS_WEB_IDENTITY_TOKEN_FILE), " +
	"the shared config and credentials files (static keys, SSO, credential_process, role chaining), container credentials, EC2 instance metadata"

// explain is explainRaw with every text through Redact: an SDK error can carry a
// credential helper's output, secrets included.
func explain(err error, profile string) source.Explanation {
	ex := explainRaw(err, profile)
	ex.Summary, ex.Hint = source.Redact(ex.Summary), source.Redact(ex.Hint)
	return ex
}

func explainRaw(err error, profile string) source.Explanation {
	if err == nil {
		return source.Explanation{}
	}
	var pe *source.ActionError
	if errors.As(err, &pe) && pe.Explanation.Summary != "" {
		return pe.Explanation
	}
	profileFlag := "--profile " + profile
	if profile == "" {
		profileFlag = "--profile <name>"
	}
	var ce *ConfigError
	if errors.As(err, &ce) {
		return source.Explanation{Summary: "The AWS configuration could not be loaded: " + FirstLine(ce.Err) + ".",
			Hint: "Check ~/.aws/config and the profile name (aws configure list-profiles)."}
	}
	if errors.Is(err, context.Canceled) {
		return source.Explanation{Summary: "Cancelled."}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return source.Explanation{Summary: "AWS did not answer in time.", Hint: "Check the network and try again.", Retryable: true}
	}
	msg := err.Error()
	if isSSO(err) {
		return source.Explanation{Summary: "The AWS SSO session has expired or is not signed in.",
			Hint: "Run: aws sso login " + profileFlag}
	}
	if isNoCredentials(err) {
		return source.Explanation{Summary: "No AWS credentials were found.",
			Hint: "Tried: " + credentialChain + ". Set up a profile (aws configure / aws configure sso), or run with --demo to use the built-in simulator."}
	}
	if i := strings.Index(msg, "failed to refresh cached credentials, "); i >= 0 {
		// A credential source that is set up and broken (a credential_process helper, role
		// chaining); the request was never signed, let alone sent.
		return source.Explanation{Summary: "The AWS credentials could not be obtained: " + strings.TrimSuffix(msg[i+len("failed to refresh cached credentials, "):], ".") + ".",
			Hint: "Check the credential source of the profile (" + profileFlag + "): its credential_process, SSO or role settings."}
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return explainAPI(err, apiErr, profileFlag)
	}
	var netErr net.Error
	if errors.As(err, &netErr) || strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host") {
		detail := msg
		if netErr != nil {
			detail = netErr.Error() // not what wraps it (an error that names what was not done)
		}
		return source.Explanation{Summary: "AWS could not be reached: " + lastPart(detail) + ".",
			Hint: "Check the network, proxy or --endpoint-url.", Retryable: true}
	}
	return source.Explanation{Summary: FirstLine(err)}
}

func explainAPI(err error, apiErr smithy.APIError, profileFlag string) source.Explanation {
	code, text := apiErr.ErrorCode(), apiErr.ErrorMessage()
	ex := source.Explanation{Code: code}
	switch {
	case code == "UnauthorizedOperation" || code == "AccessDenied" || code == "AccessDeniedException":
		ex.Action = iamAction(err)
		ex.Summary = "AWS refused the call: this identity lacks permission " + ex.Action + "."
		ex.Hint = "Ask an administrator to allow " + ex.Action + " for this role or user."
	case IsThrottle(err):
		// Explanations describe a final error, after the retryer has given up: saying it is
		// still retrying would tell the person to wait for something that will not happen.
		ex.Summary, ex.Hint, ex.Retryable = "AWS is throttling requests.", "The calls were retried with backoff and still refused; wait a minute, or ask for fewer regions or durations at once.", true
	case code == "InvalidCapacityBlockOfferingIdExpired" || code == "InvalidCapacityBlockOfferingIdNotFound":
		ex.Summary = "That offering is no longer available: someone else bought it, or it expired."
		ex.Hint = "Search again; nothing was bought."
	case code == "InvalidCapacityBlockOfferingIdMalformed":
		ex.Summary, ex.Hint = "The offering id is malformed.", "Use an id from a fresh search (cbr-…)."
	case code == "InvalidCapacityReservationState.PendingActivation":
		ex.Summary, ex.Hint = "The Capacity Block is not active yet.", "Instances can be launched from its start time."
	case code == "ReservationCapacityExceeded":
		ex.Summary, ex.Hint = "The block has fewer free instances than asked for.", "Launch fewer, or wait for terminating instances to free their slots."
	case code == "InvalidParameterValue" && strings.Contains(text, "EndDateRange") && strings.Contains(text, "after the start"):
		// A search asked again after its window's end went by (a row listed before the
		// clock moved on): AWS names its parameter; the person needs what happened.
		ex.Summary = "The search window has passed: its end is before now, so nothing in it can start any more."
		ex.Hint = "Search again with a window that ends later; nothing was bought."
	case code == "InvalidParameterValue" && strings.Contains(strings.ToLower(text), "market type"):
		ex.Summary = "The launch lacks the capacity-block market type."
		ex.Hint = "Launches into a Capacity Block need InstanceMarketOptions.MarketType=capacity-block."
	case code == "AuthFailure" || code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch" || code == "UnrecognizedClientException":
		ex.Summary = "AWS rejected the credentials (" + code + ")."
		if text != "" {
			// AWS's own words say which part failed (a region not enabled, an unknown
			// key); the emulator names the regions it serves there
			ex.Summary = "AWS rejected the credentials (" + code + "): " + strings.TrimSuffix(text, ".") + "."
		}
		ex.Hint = "Check the access key and secret, or the profile (" + profileFlag + ")."
	case code == "ExpiredToken" || code == "ExpiredTokenException" || code == "RequestExpired":
		ex.Summary = "The AWS session token has expired."
		ex.Hint = "Refresh the credentials (for SSO: aws sso login " + profileFlag + ")."
	case code == "OptInRequired":
		ex.Summary, ex.Hint = "The account is not opted in to this region or zone.", "Enable the region or Local Zone in the EC2 console."
	case code == "InsufficientInstanceCapacity":
		ex.Summary, ex.Hint, ex.Retryable = "AWS has no capacity for this request right now.", "Try another zone, count or window.", true
	case code == "CapacityBlockDescribeLimitExceeded":
		ex.Summary, ex.Hint = explainCapacityBlockQuota(err)
	case code == "DryRunOperation":
		ex.Summary = "Permission check passed (dry run)."
	case code == "ServiceUnavailable" || code == "Unavailable":
		ex.Summary, ex.Hint, ex.Retryable = service(err)+" is unavailable in this region right now ("+code+").", "Try again in a moment, or leave the region out.", true
	case code == "InternalError" || code == "InternalFailure" || code == "ServerInternal":
		ex.Summary, ex.Hint, ex.Retryable = "AWS had an internal problem ("+code+").", "Try again in a moment.", true
	default:
		ex.Summary = code + ": " + text
	}
	if t, regions := notSoldHere(code, text); t != "" {
		ex.Summary = t + " is not sold in this region."
		ex.Hint = "Capacity Blocks of " + t + " are sold in " + strings.Join(regions, ", ") + "."
	}
	return ex
}

// notSoldHere recognises an error about an instance type the region does not offer and
// names the regions that sell it.
func notSoldHere(code, text string) (string, []string) {
	if code != "InvalidParameterValue" && code != "Unsupported" && code != "UnsupportedOperation" && code != "InvalidInstanceType" {
		return "", nil
	}
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "not supported") && !strings.Contains(lower, "not available") && !strings.Contains(lower, "not sold") &&
		!strings.Contains(lower, "unsupported") && !strings.Contains(lower, "not offered") {
		return "", nil
	}
	for _, t := range model.Catalog() {
		if strings.Contains(text, t.Name) {
			return t.Name, t.Regions
		}
	}
	return "", nil
}

// service names the service of the failed operation (EC2, CloudWatch), EC2 when unknown.
func service(err error) string {
	var op *smithy.OperationError
	if errors.As(err, &op) && op.ServiceID != "" {
		return op.ServiceID
	}
	return "EC2"
}

// iamAction names the IAM action of the failed operation, e.g. ec2:PurchaseCapacityBlock.
func iamAction(err error) string {
	var op *smithy.OperationError
	if errors.As(err, &op) {
		svc := strings.ToLower(op.ServiceID)
		return svc + ":" + op.OperationName
	}
	return "the required IAM action"
}

// IsNoCredentials reports whether err says that no credentials could be found at all
// (as opposed to credentials that were found and rejected, or an expired SSO session).
func IsNoCredentials(err error) bool { return err != nil && isNoCredentials(err) && !isSSO(err) }

func isSSO(err error) bool {
	var tokErr *ssocreds.InvalidTokenError
	msg := err.Error()
	return errors.As(err, &tokErr) || strings.Contains(msg, "SSO token") || strings.Contains(msg, "SSO session") ||
		strings.Contains(msg, "InvalidGrantException")
}

func isNoCredentials(err error) bool {
	var ce *CredentialsError
	msg := err.Error()
	if errors.As(err, &ce) {
		return !strings.Contains(msg, "SSO")
	}
	return strings.Contains(msg, "failed to retrieve credentials") ||
		strings.Contains(msg, "no EC2 IMDS role found") ||
		(strings.Contains(msg, "failed to refresh cached credentials") && strings.Contains(msg, "ec2imds"))
}

// FirstLine is the first line of err's text.
func FirstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}

// lastPart drops the SDK's "operation error EC2: X, https response error …" prefix chain.
func lastPart(s string) string {
	if i := strings.LastIndex(s, ", "); i >= 0 && i+2 < len(s) {
		return strings.TrimSuffix(s[i+2:], ".")
	}
	return s
}

// httpStatus is the HTTP status of a failed call, or 0 when no response came back.
func httpStatus(err error) int {
	var hs interface{ HTTPStatusCode() int }
	if errors.As(err, &hs) {
		return hs.HTTPStatusCode()
	}
	return 0
}

// typedCallError is the failure of a call about one instance type, so that an explanation
// can name what depends on the type (a quota per instance family).
type typedCallError struct {
	instanceType string
	err          error
}

func (e *typedCallError) Error() string { return e.err.Error() }
func (e *typedCallError) Unwrap() error { return e.err }

// WithInstanceType marks err (nil stays nil) as the failure of a call about instanceType.
func WithInstanceType(err error, instanceType string) error {
	if err == nil {
		return nil
	}
	return &typedCallError{instanceType: instanceType, err: err}
}

// explainCapacityBlockQuota explains CapacityBlockDescribeLimitExceeded. It is no
// throttle (the SDK's retryers do not take it for one, and neither does gpublock's pacer):
// AWS answers it when a per-family quota such as "Concurrent TRN2 Capacity Blocks per
// account" is 0 or used up, so waiting does not help and the quota must be raised. Only
// the TRN2 name has been seen; the others are named after it (UNCONFIRMED).
func explainCapacityBlockQuota(err error) (summary, hint string) {
	quota := `a per-family Capacity Blocks quota (such as "Concurrent TRN2 Capacity Blocks per account")`
	var te *typedCallError
	if errors.As(err, &te) {
		if f := model.Family(te.instanceType); f != "" {
			quota = fmt.Sprintf(`the quota "Concurrent %s Capacity Blocks per account" (for %s)`, strings.ToUpper(f), te.instanceType)
		}
	}
	summary = "AWS refused the search: the account has reached " + quota + ", which is 0 on many accounts (CapacityBlockDescribeLimitExceeded). This is a quota, not a rate: retrying or waiting will not help."
	hint = "Ask for an increase in the Service Quotas console (AWS services → Amazon Elastic Compute Cloud (Amazon EC2)), or with the CLI: " +
		`aws service-quotas list-service-quotas --service-code ec2 --query "Quotas[?contains(QuotaName,'Capacity Block')].[QuotaName,QuotaCode,Value]"` +
		" then aws service-quotas request-service-quota-increase --service-code ec2 --quota-code CODE --desired-value N (in the region searched)."
	return summary, hint
}

// NotBoughtError is the refusal of a spend that nothing was bought by: its summary and
// hint, or, when summary is empty, err explained.
func NotBoughtError(summary, hint string, err error) *source.ActionError {
	ex := source.Explanation{Summary: summary, Hint: hint}
	if err != nil && summary == "" {
		ex = ExplainError(err)
	}
	return &source.ActionError{Outcome: source.NotBought, Explanation: ex, Err: err}
}

// Ambiguous reports whether a failed call may still have been carried out by AWS: no
// response at all (timeout, reset, cancellation after sending), a server error, or a
// success whose body could not be read. Only a 4xx answer is a refusal: nothing was done.
func Ambiguous(err error) bool {
	st := httpStatus(err)
	return st < 400 || st >= 500
}
