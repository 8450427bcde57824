package aws

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

func TestIdentityAndNow(t *testing.T) {
	_, rc, url := newRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	id, err := c.Identity(context.Background())
	if err != nil || id.Account != ec2sim.DemoAccount || !strings.HasPrefix(id.ARN, "arn:aws:") {
		t.Fatalf("identity %+v, %v", id, err)
	}
	if _, err := c.Identity(context.Background()); err != nil || rc.total() != 1 {
		t.Errorf("identity asked %d times, want once (%v)", rc.total(), err)
	}
	// The SDK writes the "/" of the app id "gpublock/test" as "-".
	if ua := rc.calls[0].UserAgent; !strings.Contains(ua, "app/gpublock-test") {
		t.Errorf("user agent %q lacks the app id", ua)
	}
	if now := c.Now(context.Background()); now.Sub(simStart).Abs() > time.Second {
		t.Errorf("Now %s, want the emulator's clock %s", now, simStart)
	}
	if c.Region() != "us-east-1" || c.Endpoint() != url {
		t.Errorf("region %q endpoint %q", c.Region(), c.Endpoint())
	}
}

func TestIdentityRejectsAnEmptyAnswer(t *testing.T) {
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"not":"xml"}`) // the SDK parses this into an empty answer without error
	})
	_, rc, url := newRecordedSim(t, 1, ec2sim.Faults{})
	rc.setIntercept(func(w http.ResponseWriter, r recorded, _ *http.Request) bool { srv(w, nil); return true })
	c := newTestClient(t, url, nil)
	if id, err := c.Identity(context.Background()); err == nil {
		t.Fatalf("identity %+v from a body that is not XML", id)
	}
}

func TestLargestCount(t *testing.T) {
	_, rc, url := newRecordedSim(t, 5, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-2"}
	n, err := c.LargestCount(context.Background(), "us-east-2", "p5.48xlarge", 2, q.Start, q.End)
	if err != nil {
		t.Fatal(err)
	}
	if calls := rc.total(); calls > 8 {
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
		t.Skip("nothing on offer in this market")
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
	_, url := newSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	// Look for a query that finds nothing: many instances, short window.
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	found := false
	for _, count := range []int{64, 48, 32, 24, 16} {
		q.Count = count
		offs, _, _ := collect(t, c.Search(context.Background(), q))
		if len(offs) == 0 {
			found = true
			break
		}
	}
	if !found {
		t.Skip("every count finds offerings in this market")
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
		if err := s.Query.Validate(simStart); err != nil {
			t.Errorf("suggestion %q is not a valid query: %v", s.Description, err)
		}
		t.Logf("%s: %d", s.Description, s.Offerings)
	}
}

// apiErrorFor makes the real SDK produce the error of an EC2 answer.
func apiErrorFor(t *testing.T, status int, code, msg string) error {
	t.Helper()
	_, rc, url := newRecordedSim(t, 1, ec2sim.Faults{})
	rc.setIntercept(func(w http.ResponseWriter, r recorded, _ *http.Request) bool {
		writeEC2Error(w, status, code, msg)
		return true
	})
	c := newTestClient(t, url, func(cfg *Config) { t.Setenv("AWS_MAX_ATTEMPTS", "1") })
	_, err := c.LargestCount(context.Background(), "us-east-1", "p5.48xlarge", 2, simStart, simStart.Add(48*time.Hour))
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
		ex := ExplainError(tc.err)
		if !strings.Contains(ex.Summary, tc.summary) || !strings.Contains(ex.Hint, tc.hint) {
			t.Errorf("%s: %+v\nwant summary ~ %q, hint ~ %q", tc.name, ex, tc.summary, tc.hint)
		}
		if tc.field == "retryable" && !ex.Retryable {
			t.Errorf("%s: not retryable", tc.name)
		}
	}
	c := &Client{profile: "ml-prod"}
	if ex := c.ExplainError(&ssocreds.InvalidTokenError{Err: errors.New("expired")}); ex.Hint != "Run: aws sso login --profile ml-prod" {
		t.Errorf("client hint %q", ex.Hint)
	}
}

func TestNoCredentialsAnywhere(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	c, err := New(context.Background(), Config{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckCredentials(context.Background())
	if !IsNoCredentials(err) {
		t.Fatalf("CheckCredentials: %v, want no credentials", err)
	}
	ex := ExplainError(err)
	if !strings.Contains(ex.Summary, "No AWS credentials") || !strings.Contains(ex.Hint, "--demo") || !strings.Contains(ex.Hint, "AWS_ACCESS_KEY_ID") {
		t.Errorf("explanation %+v", ex)
	}
}

func TestLoopbackEndpointFromEnvironment(t *testing.T) {
	_, url := newSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *Config) {
		cfg.EndpointURL = ""
		t.Setenv("AWS_ENDPOINT_URL_EC2", url)
	})
	if c.Endpoint() != url {
		t.Fatalf("endpoint %q, want %q from AWS_ENDPOINT_URL_EC2", c.Endpoint(), url)
	}
	if id, err := c.Identity(context.Background()); err != nil || id.Account != ec2sim.DemoAccount {
		t.Fatalf("identity through the env endpoint: %+v, %v", id, err)
	}
	if now := c.Now(context.Background()); now.Sub(simStart).Abs() > time.Second {
		t.Errorf("Now %s, want the emulator's clock", now)
	}

	t.Setenv("AWS_ENDPOINT_URL_EC2", "https://vpce-123.ec2.us-east-1.vpce.amazonaws.com")
	if got := loopbackEndpointFromEnv(); got != "" {
		t.Errorf("a remote endpoint was taken over: %q", got)
	}
}

func TestProfileFromSharedFiles(t *testing.T) {
	_, rc, url := newRecordedSim(t, 1, ec2sim.Faults{})
	dir := t.TempDir()
	mustWrite(t, dir+"/config", "[profile ml]\nregion = us-east-2\n")
	mustWrite(t, dir+"/credentials", "[ml]\naws_access_key_id = AKIAPROFILE000000001\naws_secret_access_key = profile-secret\n")
	c := newTestClient(t, url, func(cfg *Config) {
		cfg.Credentials, cfg.Region, cfg.Profile = nil, "", "ml"
		t.Setenv("AWS_CONFIG_FILE", dir+"/config")
		t.Setenv("AWS_SHARED_CREDENTIALS_FILE", dir+"/credentials")
	})
	if c.Region() != "us-east-2" || c.Profile() != "ml" {
		t.Fatalf("region %q profile %q, want the profile's", c.Region(), c.Profile())
	}
	if _, err := c.Identity(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rc.calls[0].Region != "us-east-2" {
		t.Errorf("signed for %q", rc.calls[0].Region)
	}

	_, err := New(context.Background(), Config{Profile: "nope"})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ExplainError(err).Hint, "profile") {
		t.Errorf("missing profile: %v", err)
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
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
