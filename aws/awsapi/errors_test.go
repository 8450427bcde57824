package awsapi

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
	"github.com/aws/smithy-go"
)

// The client's own explanation names its profile in the hint.
func TestExplainErrorNamesTheClientsProfile(t *testing.T) {
	c := &Client{profile: "ml-prod"}
	if ex := c.ExplainError(&ssocreds.InvalidTokenError{Err: errors.New("expired")}); ex.Hint != "Run: aws sso login --profile ml-prod" {
		t.Errorf("client hint %q", ex.Hint)
	}
}

// A service that is down is named: the report reads CloudWatch as well as EC2.
func TestUnavailableNamesTheService(t *testing.T) {
	down := &smithy.GenericAPIError{Code: "ServiceUnavailable", Message: "down"}
	for svc, want := range map[string]string{"CloudWatch": "CloudWatch is unavailable", "EC2": "EC2 is unavailable", "": "EC2 is unavailable"} {
		err := &smithy.OperationError{ServiceID: svc, OperationName: "GetMetricData", Err: down}
		if got := ExplainError(err).Summary; !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q, want %q…", svc, got, want)
		}
	}
}

// A search whose window has passed (a row listed before the clock moved on) is said as
// such, not as AWS's raw parameter error.
func TestPassedWindowIsASentence(t *testing.T) {
	err := &smithy.GenericAPIError{Code: "InvalidParameterValue",
		Message: "Value (2026-12-01T08:00:00Z) for parameter EndDateRange is invalid. It must be after the start of the range (2026-12-02T08:00:00Z)."}
	ex := ExplainError(err)
	if !strings.Contains(ex.Summary, "window has passed") || strings.Contains(ex.Summary, "EndDateRange") || !strings.Contains(ex.Hint, "Search again") {
		t.Errorf("%+v", ex)
	}
}

// A backend that cannot be reached is named by the network's error, not by the words of
// what wraps it (a store that was not opened).
func TestUnreachableNamesTheNetworksError(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	err := &AccountUnknownError{Where: "http://127.0.0.1:1", Err: fmt.Errorf("get identity: %w", dial)}
	ex := ExplainError(err)
	if !strings.Contains(ex.Summary, "connection refused") || strings.Contains(ex.Summary, "records") {
		t.Errorf("summary %q", ex.Summary)
	}
}
