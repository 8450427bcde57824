package simcore

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// APIError is an error a protocol answers a request with: an HTTP status, a code and a
// message, which each protocol writes in its own wire shape.
type APIError struct {
	status  int
	code    string
	message string
}

// Errf makes an APIError.
func Errf(status int, code, format string, args ...any) *APIError {
	return &APIError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

func (e *APIError) Error() string { return e.code + ": " + e.message }

// Status is the HTTP status of the answer.
func (e *APIError) Status() int { return e.status }

// Code is the error code, as the SDKs match it.
func (e *APIError) Code() string { return e.code }

// Message is the error's text.
func (e *APIError) Message() string { return e.message }

// The core's own answers, in EC2's codes, which the other protocols translate into
// theirs (FaultHit, and a state that cannot be locked or saved).
var (
	// ErrUnsigned is the answer to a request with no Authorization header: EC2's common
	// errors give MissingAuthenticationToken, HTTP 403
	// (docs.aws.amazon.com/AWSEC2/latest/APIReference/CommonErrors.html); the message is
	// the one of the EC2 error-codes page.
	ErrUnsigned = Errf(http.StatusForbidden, "MissingAuthenticationToken",
		"The request must contain either a valid (registered) AWS access key ID or X.509 certificate.")
	// ErrUnservedRegion is SignedRegion's answer for a region the emulator does not serve;
	// each protocol answers it in its own words with UnservedRegionMessage. Against AWS
	// such a region is an endpoint that does not resolve (or, for a region not enabled,
	// AuthFailure): the emulator has one endpoint for every region, so it answers a
	// client error that names the regions served, which no SDK retries and no one takes
	// for a credentials problem.
	ErrUnservedRegion = Errf(http.StatusBadRequest, "UnsupportedOperation", "The region is not served by this emulator.")
	ErrThrottled      = Errf(http.StatusServiceUnavailable, "RequestLimitExceeded", "Request limit exceeded.")
	ErrInternal       = Errf(http.StatusInternalServerError, "InternalError", "An internal error has occurred.")
)

// NewRequestID is a request id in AWS's shape, a random UUID.
func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// UnservedRegionMessage says that region is not served, and which are.
func UnservedRegionMessage(region string) string {
	return fmt.Sprintf("The region %q of the request's credential scope is not served by this emulator, which serves the regions where Capacity Blocks are sold: %s.",
		region, strings.Join(model.Regions(), ", "))
}
