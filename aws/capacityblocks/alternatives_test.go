package capacityblocks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

func TestLargestCount(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 5, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-2"}
	n, err := c.LargestCount(context.Background(), "us-east-2", "p5.48xlarge", 2, q.Start, q.End)
	if err != nil {
		t.Fatal(err)
	}
	if calls := rc.Total(); calls > 8 {
		t.Errorf("%d calls; bisection needs at most 8", calls)
	}
	has := func(count int) bool {
		q.Count = count
		offs, _, _ := collect(t, c.Search(context.Background(), q))
		return len(offs) > 0
	}
	if n == 0 {
		if has(1) {
			t.Fatal("LargestCount 0, yet one instance is on offer")
		}
		t.Fatal("the market of seed 5 offers no p5.48xlarge for 2 days in us-east-2: this test needs a market that does")
	}
	if !has(n) {
		t.Errorf("LargestCount %d, but nothing is on offer for %d", n, n)
	}
	if n < model.MaxCount && has(n+1) {
		t.Errorf("LargestCount %d, but %d is on offer too", n, n+1)
	}
	t.Logf("largest count %d", n)

	for _, bad := range []struct {
		region, typ string
		days        int
	}{{"us-east-2", "m5.large", 2}, {"", "p5.48xlarge", 2}, {"us-east-2", "p5.48xlarge", 15}} {
		if _, err := c.LargestCount(context.Background(), bad.region, bad.typ, bad.days, q.Start, q.End); err == nil {
			t.Errorf("LargestCount%v accepted", bad)
		}
	}
}

func TestAlternativesWhenNothingIsFound(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	// A query the market of seed 1 has nothing for, even split into segments across the
	// zones: 64 instances for 14 days starting in the next three days.
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	q.Count = 64
	q.Durations = model.DurationRange{MinDays: 14, MaxDays: 14}
	q.End = simtest.Start.Add(17 * 24 * time.Hour)
	if offs, _, _ := collect(t, c.Search(context.Background(), q)); len(offs) != 0 {
		t.Fatalf("the market of seed 1 offers %d × p5.48xlarge in us-east-1: this test needs a query that finds nothing", q.Count)
	}
	sugs, err := c.Alternatives(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(sugs) == 0 {
		t.Fatalf("no alternative for %d × p5.48xlarge", q.Count)
	}
	for _, s := range sugs {
		if s.Description == "" || s.Offerings == 0 {
			t.Errorf("suggestion %+v", s)
		}
		offs, _, _ := collect(t, c.Search(context.Background(), s.Query))
		if len(offs) != s.Offerings {
			t.Errorf("suggestion %q claims %d offerings, its query finds %d", s.Description, s.Offerings, len(offs))
		}
		if err := s.Query.Validate(simtest.Start); err != nil {
			t.Errorf("suggestion %q is not a valid query: %v", s.Description, err)
		}
		t.Logf("%s: %d", s.Description, s.Offerings)
	}
}

// apiErrorFor makes the real SDK produce the error of an EC2 answer.
func apiErrorFor(t *testing.T, status int, code, msg string) error {
	t.Helper()
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		simtest.WriteEC2Error(w, status, code, msg)
		return true
	})
	c := newTestClient(t, url, func(cfg *awsapi.Config) { t.Setenv("AWS_MAX_ATTEMPTS", "1") })
	_, err := c.LargestCount(context.Background(), "us-east-1", "p5.48xlarge", 2, simtest.Start, simtest.Start.Add(48*time.Hour))
	if err == nil {
		t.Fatal("no error")
	}
	return err
}

func TestExplainError(t *testing.T) {
	cases := []struct {
		name                 string
		err                  error
		summary, hint, field string
	}{
		{"unauthorized", apiErrorFor(t, 403, "UnauthorizedOperation", "You are not authorized to perform this operation."),
			"lacks permission ec2:DescribeCapacityBlockOfferings", "allow ec2:DescribeCapacityBlockOfferings", ""},
		{"throttled", apiErrorFor(t, 503, "RequestLimitExceeded", "Request limit exceeded."), "throttling", "were retried with backoff and still refused", "retryable"},
		{"sold", apiErrorFor(t, 400, "InvalidCapacityBlockOfferingIdExpired", "The Capacity Block offering ID is no longer available."),
			"no longer available", "Search again", ""},
		{"market type", apiErrorFor(t, 400, "InvalidParameterValue", "The market type (purchasing) option is not valid. Choose a different market type and try again"),
			"market type", "MarketType=capacity-block", ""},
		{"not sold here", apiErrorFor(t, 400, "InvalidParameterValue", "The instance type p5e.48xlarge is not supported in us-east-1."),
			"p5e.48xlarge is not sold in this region", "us-east-2, us-west-2", ""},
		{"not active", apiErrorFor(t, 400, "InvalidCapacityReservationState.PendingActivation", "Your Capacity Block is not active yet."),
			"not active yet", "start time", ""},
		{"sso", fmt.Errorf("get credentials: %w", &ssocreds.InvalidTokenError{Err: errors.New("the SSO session has expired")}),
			"SSO session", "aws sso login --profile <name>", ""},
		{"cancelled", fmt.Errorf("op: %w", context.Canceled), "Cancelled", "", ""},
		{"auth failure", apiErrorFor(t, 401, "AuthFailure", "AWS was not able to validate the provided access credentials"),
			"AWS rejected the credentials (AuthFailure): AWS was not able to validate the provided access credentials.", "Check the access key", ""},
	}
	for _, tc := range cases {
		ex := awsapi.ExplainError(tc.err)
		if !strings.Contains(ex.Summary, tc.summary) || !strings.Contains(ex.Hint, tc.hint) {
			t.Errorf("%s: %+v\nwant summary ~ %q, hint ~ %q", tc.name, ex, tc.summary, tc.hint)
		}
		if tc.field == "retryable" && !ex.Retryable {
			t.Errorf("%s: not retryable", tc.name)
		}
	}
}

// The stop time AWS writes in a state transition reason is read; any other reason is no time.
func TestTransitionTime(t *testing.T) {
	if got := transitionTime("User initiated (2026-12-03 11:00:02 GMT)"); !got.Equal(time.Date(2026, 12, 3, 11, 0, 2, 0, time.UTC)) {
		t.Errorf("transitionTime = %v", got)
	}
	for _, r := range []string{"", "User initiated", "Server.SpotInstanceTermination (soon)", "x (2026-13-03 11:00:02 GMT)"} {
		if got := transitionTime(r); !got.IsZero() {
			t.Errorf("transitionTime(%q) = %v, want zero", r, got)
		}
	}
}
