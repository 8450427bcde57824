package awsapi

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpublock/gpublock/aws/source"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// CallLog is the troubleshooting log of --log-file: one logfmt line per HTTP attempt of
// every API call (retries are lines of their own), written by a middleware in the SDK's
// stack so that it sees what was really sent. It records names, codes, ids and timings
// only: never a request header (Authorization carries the signature, X-Amz-Security-Token
// the session token), never a request or response body.
//
// A line reads, in this order:
//
//	time=2026-12-01T08:00:00.123Z service=EC2 action=DescribeCapacityBlockOfferings region=us-east-1
//	host=ec2.us-east-1.amazonaws.com attempt=1 status=503 code=RequestLimitExceeded
//	request_id=6f1c… duration_ms=41.2 gpublock_request_id=…
//
// time is when the attempt was sent (UTC, ms); status is "-" and error="…" takes code's
// place when no HTTP answer came (connection refused, timeout, cancelled); code, error,
// request_id and gpublock_request_id (the gpublock:request-id tag of a purchase or launch,
// the journal's request id of an extension, or the one a look-up after a lost reply
// searches for) appear only when known.
type CallLog struct {
	path string
	mu   sync.Mutex
	w    io.Writer
	c    io.Closer
}

// OpenCallLog opens path for appending (created 0600, its missing directories 0700), so
// that a failure to write it shows before any call is made.
func OpenCallLog(path string) (*CallLog, error) {
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("empty path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &CallLog{path: path, w: f, c: f}, nil
}

// NewCallLog logs to w (which need not be safe for concurrent use).
func NewCallLog(w io.Writer) *CallLog { return &CallLog{w: w} }

// Path is the file's path, "" for a log made by NewCallLog.
func (l *CallLog) Path() string { return l.path }

// Close closes the file; later lines are dropped.
func (l *CallLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w = nil
	if l.c == nil {
		return nil
	}
	c := l.c
	l.c = nil
	return c.Close()
}

// write appends one line in a single Write under the lock, so that lines from the
// search's concurrent calls never interleave (and, with O_APPEND, neither do lines of two
// gpublock processes sharing the file). A failing write is not the call's failure: the
// call goes on unlogged.
func (l *CallLog) write(line []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		_, _ = l.w.Write(line)
	}
}

// APIOption adds the log to an SDK client's middleware stack; it suits any service client
// (config APIOptions, or a client's Options.APIOptions).
func (l *CallLog) APIOption() func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		if err := s.Initialize.Add(callLogCall{}, middleware.After); err != nil {
			return err
		}
		// First in Deserialize, so it wraps the HTTP round trip once per attempt (the retry
		// loop is in Finalize, above it) and sees the error as the SDK finally reports it.
		return s.Deserialize.Add(callLogAttempt{l}, middleware.Before)
	}
}

// callState is one operation's, shared by its attempts.
type callState struct {
	attempts   atomic.Int32
	requestTag string
}

type callStateKey struct{}

// callLogCall runs once per operation, before the retry loop: it counts the attempts and
// reads the input's request-id tag (the only part of an input the log shows).
type callLogCall struct{}

func (callLogCall) ID() string { return "gpublock.CallLogCall" }

func (callLogCall) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	// A stack value, not a plain context value: the SDK clears stack values at the start of
	// every operation, so a call nested in this one (a credential provider's) gets its own.
	ctx = middleware.WithStackValue(ctx, callStateKey{}, &callState{requestTag: requestTagOf(ctx, in.Parameters)})
	return next.HandleInitialize(ctx, in)
}

// extensionRequestIDKey carries an extension's request id to the call log: an extension
// has no tags to carry it in its input, and its journal lines have one all the same.
type extensionRequestIDKey struct{}

// WithExtensionRequestID marks ctx's extension purchase, and the history look-up that
// settles its lost reply, with the request id of their journal lines.
func WithExtensionRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, extensionRequestIDKey{}, id)
}

// WithLookupRequestID marks ctx's look-up of a purchase's reservation with the request id
// it matches in the reply (the look-up filters on documented fields only, never the tag).
func WithLookupRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, extensionRequestIDKey{}, id)
}

// requestTagOf is the gpublock:request-id of the inputs that carry one: the tag of a
// purchase or launch, or the filter of the look-up that follows a purchase's lost reply;
// for an extension and its look-up, the id Extend put in ctx. Only these inputs read ctx,
// so a call nested in one (a credential provider's) is not marked.
func requestTagOf(ctx context.Context, params any) string {
	var specs []types.TagSpecification
	switch in := params.(type) {
	case *ec2.PurchaseCapacityBlockExtensionInput, *ec2.DescribeCapacityBlockExtensionHistoryInput,
		*sagemaker.ExtendTrainingPlanInput, *sagemaker.DescribeTrainingPlanExtensionHistoryInput:
		if id, ok := ctx.Value(extensionRequestIDKey{}).(string); ok {
			return id
		}
	case *sagemaker.CreateTrainingPlanInput:
		return planRequestID(in.TrainingPlanName)
	case *sagemaker.DescribeTrainingPlanInput:
		return planRequestID(in.TrainingPlanName)
	case *ec2.PurchaseCapacityBlockInput:
		specs = in.TagSpecifications
	case *ec2.RunInstancesInput:
		// a launch carries its request id as the client token (its tags are the
		// person's); a dry run's token is left to the SDK, a UUID without the prefix
		if t := aws.ToString(in.ClientToken); strings.HasPrefix(t, requestIDPrefix) {
			return t
		}
		specs = in.TagSpecifications
	case *ec2.DescribeCapacityReservationsInput:
		// the look-up after a lost reply lists the reservations (no tag filter is
		// documented) with the purchase's id in ctx
		if id, ok := ctx.Value(extensionRequestIDKey{}).(string); ok {
			return id
		}
	}
	for _, s := range specs {
		for _, t := range s.Tags {
			if t.Key != nil && *t.Key == RequestIDTag && t.Value != nil {
				return *t.Value
			}
		}
	}
	return ""
}

// planRequestID is the request id of a training plan gpublock bought, which is named after
// it; describing that name is the look-up after a lost reply.
func planRequestID(name *string) string {
	if n := aws.ToString(name); strings.HasPrefix(n, requestIDPrefix) {
		return n
	}
	return ""
}

type callLogAttempt struct{ log *CallLog }

func (callLogAttempt) ID() string { return "gpublock.CallLogAttempt" }

func (m callLogAttempt) HandleDeserialize(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	start := time.Now()
	out, md, err := next.HandleDeserialize(ctx, in)
	m.log.write(attemptLine(ctx, start, time.Since(start), in, out, md, err))
	return out, md, err
}

func attemptLine(ctx context.Context, start time.Time, d time.Duration, in middleware.DeserializeInput, out middleware.DeserializeOutput, md middleware.Metadata, err error) []byte {
	var b strings.Builder
	field := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(logfmtValue(v))
	}
	field("time", start.UTC().Format("2006-01-02T15:04:05.000Z"))
	field("service", orDash(awsmiddleware.GetServiceID(ctx)))
	field("action", orDash(awsmiddleware.GetOperationName(ctx)))
	field("region", orDash(awsmiddleware.GetRegion(ctx)))
	host := ""
	if req, ok := in.Request.(*smithyhttp.Request); ok && req.URL != nil {
		host = req.URL.Host // never userinfo: Host has none
	}
	field("host", orDash(host))
	st, _ := middleware.GetStackValue(ctx, callStateKey{}).(*callState)
	attempt := "-"
	if st != nil {
		attempt = strconv.Itoa(int(st.attempts.Add(1)))
	}
	field("attempt", attempt)
	status := "-"
	// A request that got no answer still has a response, of status 0.
	if resp, ok := out.RawResponse.(*smithyhttp.Response); ok && resp.Response != nil && resp.StatusCode > 0 {
		status = strconv.Itoa(resp.StatusCode)
	}
	field("status", status)
	if err != nil {
		var apiErr smithy.APIError
		if errors.As(err, &apiErr) && apiErr.ErrorCode() != "" {
			field("code", apiErr.ErrorCode())
		} else {
			field("error", errorText(err))
		}
	}
	if id := requestID(md, err); id != "" {
		field("request_id", id)
	}
	field("duration_ms", strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64))
	if st != nil && st.requestTag != "" {
		field("gpublock_request_id", st.requestTag)
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

// requestID is AWS's id of the attempt: from a header, or from an error's body.
func requestID(md middleware.Metadata, err error) string {
	if id, ok := awsmiddleware.GetRequestIDMetadata(md); ok && id != "" {
		return id
	}
	var withID interface{ ServiceRequestID() string }
	if errors.As(err, &withID) {
		return withID.ServiceRequestID()
	}
	return ""
}

// errorText is a failure without an AWS error code, in one short line: for a request
// that got no answer, the cause alone ("dial tcp …: connection refused"), without the
// SDK's wrapping and the URL that the host field already gives.
func errorText(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline exceeded"
	}
	var send *smithyhttp.RequestSendError
	if errors.As(err, &send) && send.Err != nil {
		err = send.Err
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	s := source.RedactError(err)
	const max = 200
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// logfmtValue quotes a value that a logfmt reader would otherwise split or misread.
func logfmtValue(v string) string {
	if v == "" {
		return `""`
	}
	for _, r := range v {
		if r <= ' ' || r == '=' || r == '"' || r == '\\' || r > '~' {
			return strconv.Quote(v)
		}
	}
	return v
}
