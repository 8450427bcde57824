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
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

func TestCapacityBlocksOwnReservationIDs(t *testing.T) {
	src := &Client{}
	for id, want := range map[string]bool{"cr-0123456789abcdef0": true, "cr-0123": false, "gpb-0123456789abcdef01234567": false,
		"my-plan": false, "cr-0123456789ABCDEF0": false} {
		if got := src.Owns(id); got != want {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}

// A block carries the account that owns it, as the reservation's OwnerId names it.
func TestListedBlocksCarryTheirAccount(t *testing.T) {
	_, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Account: "222233334444"})
	c := newTestClient(t, url, nil)
	_, bought := boughtBlock(t, c)
	if bought.Account != "222233334444" {
		t.Errorf("the purchase's block: account %q", bought.Account)
	}
	l, err := c.List(context.Background(), []string{"us-east-1"})
	if err != nil || len(l.Blocks) != 1 {
		t.Fatalf("list: %+v, %v", l, err)
	}
	if got := l.Blocks[0].Account; got != "222233334444" {
		t.Errorf("listed block: account %q, want the emulator's 222233334444", got)
	}
}

// The hints of a refused extension or launch name the step against the same backend: a
// demo's `gpublock blocks` keeps --demo and the block's region.
func TestRefusalHintsKeepTheDemo(t *testing.T) {
	c := New(demoAPI(t))
	err := c.checkExtendable(model.Block{ReservationID: "cr-1"})
	if err == nil || !strings.Contains(err.Error(), "Pick a block from `gpublock blocks --demo`.") {
		t.Errorf("extend without a region: %v", err)
	}
	_, err = c.planLaunch(context.Background(), model.Block{ReservationID: "cr-1", Region: "us-west-2"}, source.LaunchSpec{Count: 1})
	if err == nil || !strings.Contains(err.Error(), "Pick a block from `gpublock blocks --demo --region us-west-2`.") {
		t.Errorf("launch without a zone: %v", err)
	}
}

// A per-family quota of 0 (CapacityBlockDescribeLimitExceeded) is no throttle: the call
// is made once, never retried or shown as throttled, and the region's failure names the
// quota and where to raise it.
func TestQuotaErrorIsNotRetriedAndNamesTheQuota(t *testing.T) {
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("quota=trn2", &f); err != nil {
		t.Fatal(err)
	}
	_, rec, url := simtest.NewRecordedSim(t, 7, f)
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.InstanceTypes, q.Regions = []string{"trn2.48xlarge", "p5.48xlarge"}, []string{"us-east-2"}
	_, final, evs := collect(t, c.Search(context.Background(), q))
	trn2 := rec.Count(func(r simtest.Recorded) bool {
		return r.Action == "DescribeCapacityBlockOfferings" && r.Form.Get("InstanceType") == "trn2.48xlarge"
	})
	if trn2 != 1 {
		t.Errorf("the trn2 search was sent %d times; a quota error must not be retried", trn2)
	}
	if p5 := rec.Count(func(r simtest.Recorded) bool { return r.Form.Get("InstanceType") == "p5.48xlarge" }); p5 != 1 {
		t.Errorf("the p5 search was sent %d times, want once", p5)
	}
	for _, ev := range evs {
		if ev.Status != nil && ev.Status.State == model.RegionThrottled {
			t.Errorf("the region was shown throttled: %+v", *ev.Status)
		}
	}
	st := final["us-east-2"]
	if st.State != model.RegionError || st.Err == nil {
		t.Fatalf("us-east-2: %+v; want the quota failure", st)
	}
	ex := awsapi.ExplainError(st.Err)
	if ex.Code != "CapacityBlockDescribeLimitExceeded" || ex.Retryable || awsapi.IsThrottle(st.Err) {
		t.Errorf("explanation %+v: want the quota code, not retryable, not a throttle", ex)
	}
	if !strings.Contains(st.Message, `"Concurrent TRN2 Capacity Blocks per account"`) || !strings.Contains(ex.Summary, "not a rate") {
		t.Errorf("the failure does not name the quota: %q", st.Message)
	}
	if !strings.Contains(ex.Hint, "Service Quotas console") || !strings.Contains(ex.Hint, "aws service-quotas request-service-quota-increase --service-code ec2") {
		t.Errorf("the hint does not say where to raise it: %q", ex.Hint)
	}
}

// Without the instance type, the explanation still says it is a quota, with the TRN2 name
// as the example.
func TestQuotaExplanationWithoutType(t *testing.T) {
	err := apiErrorFor(t, 400, "CapacityBlockDescribeLimitExceeded", "You've reached the limit for this account.")
	ex := awsapi.ExplainError(err)
	if ex.Retryable || !strings.Contains(ex.Summary, "per-family Capacity Blocks quota") || !strings.Contains(ex.Hint, "service-quotas") {
		t.Errorf("%+v", ex)
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
