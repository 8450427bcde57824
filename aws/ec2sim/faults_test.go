package ec2sim

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/simcore"
)

// counter counts the requests each action receives, to make the SDK's retries visible.
type counter struct {
	mu sync.Mutex
	n  map[string]int
	h  http.Handler
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	v, _ := url.ParseQuery(string(b))
	c.mu.Lock()
	c.n[v.Get("Action")]++
	c.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(b))
	c.h.ServeHTTP(w, r)
}

func (c *counter) get(action string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[action]
}

// countedServer serves an emulator behind a request counter.
func countedServer(t *testing.T, opts Options) (*Server, *counter, string) {
	t.Helper()
	opts.Start, opts.Seed = testStart, 42
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cnt := &counter{n: map[string]int{}, h: s}
	ts := httptest.NewServer(cnt)
	t.Cleanup(ts.Close)
	return s, cnt, ts.URL
}

// retryingClient keeps the SDK's standard retry policy (3 attempts, what is retryable)
// without its backoff sleeps.
func retryingClient(url, region string) *ec2.Client {
	return ec2Client(url, region, func(o *ec2.Options) {
		o.RetryMaxAttempts = 0
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
			so.RateLimiter = ratelimit.None
		})
	})
}

func httpStatus(err error) int {
	var se interface{ HTTPStatusCode() int }
	if errors.As(err, &se) {
		return se.HTTPStatusCode()
	}
	return 0
}

func TestFaultThrottleRetried(t *testing.T) {
	_, cnt, base := countedServer(t, Options{Faults: Faults{Throttle: 1}})
	_, err := retryingClient(base, "us-east-1").DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
	wantCode(t, err, "RequestLimitExceeded")
	if httpStatus(err) != 503 {
		t.Errorf("status %d, want 503", httpStatus(err))
	}
	if n := cnt.get("DescribeCapacityBlockOfferings"); n != 3 {
		t.Errorf("%d attempts, want the SDK's 3", n)
	}
}

func TestFaultErrorRetried(t *testing.T) {
	_, cnt, base := countedServer(t, Options{Faults: Faults{Error: 1}})
	_, err := retryingClient(base, "us-east-1").DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	wantCode(t, err, "InternalError")
	if httpStatus(err) != 500 {
		t.Errorf("status %d, want 500", httpStatus(err))
	}
	if n := cnt.get("DescribeCapacityReservations"); n != 3 {
		t.Errorf("%d attempts, want the SDK's 3", n)
	}
	// STS gets the same fault in its own error shape.
	_, err = sts.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: testCreds}, func(o *sts.Options) {
		o.BaseEndpoint = aws.String(base)
		o.RetryMaxAttempts = 1
	}).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	wantCode(t, err, "InternalError")
	// The control API is never faulted.
	resp, err := http.Get(base + "/_sim/clock")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("control API under faults: %v %v", err, resp)
	}
	resp.Body.Close()
}

func TestFaultRegionDown(t *testing.T) {
	s, cnt, base := countedServer(t, Options{})
	s.SetFaults(Faults{Down: []string{"us-west-2"}})
	_, err := retryingClient(base, "us-west-2").DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
	wantCode(t, err, "Unavailable")
	if httpStatus(err) != 503 || cnt.get("DescribeCapacityBlockOfferings") != 3 {
		t.Errorf("status %d after %d attempts, want 503 after 3", httpStatus(err), cnt.get("DescribeCapacityBlockOfferings"))
	}
	mustSearch(t, ec2Client(base, "us-east-1"), p5Search(1, 24))
	s.SetFaults(Faults{})
	mustSearch(t, ec2Client(base, "us-west-2"), p5Search(1, 24))
}

func TestFaultLatency(t *testing.T) {
	_, base := newTestServer(t, Options{Faults: Faults{Latency: 200 * time.Millisecond, Jitter: 10 * time.Millisecond}})
	short, cancel := context.WithTimeout(ctx, time.Millisecond)
	defer cancel()
	_, err := ec2Client(base, "us-east-1").DescribeRegions(short, &ec2.DescribeRegionsInput{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with 200ms latency and a 1ms deadline: %v", err)
	}
	out, err := ec2Client(base, "us-east-1").DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	if err != nil || len(out.Regions) == 0 {
		t.Fatalf("with latency: %v %+v", err, out)
	}
}

func TestFaultSold(t *testing.T) {
	s, _, base := countedServer(t, Options{})
	c := retryingClient(base, "us-east-1")
	o := mustSearch(t, c, p5Search(1, 24))[0]
	s.SetFaults(Faults{Sold: 1})
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")
	s.SetFaults(Faults{})
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("sold offering bought something: %v %+v", err, out)
	}
	for _, again := range mustSearch(t, c, p5Search(1, 24)) {
		if aws.ToString(again.CapacityBlockOfferingId) == aws.ToString(o.CapacityBlockOfferingId) {
			t.Errorf("the sold offering is still offered")
		}
	}
	_, err = c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")
}

// A lost reply commits the purchase and answers 500; the SDK retries, the retry finds the
// offering spent, and exactly one reservation exists, findable by its tag.
func TestFaultLostReply(t *testing.T) {
	s, cnt, base := countedServer(t, Options{})
	c := retryingClient(base, "us-east-1")
	o := mustSearch(t, c, p5Search(1, 24))[0]
	s.SetFaults(Faults{LostReply: 1})
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix,
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation, Tags: []types.Tag{{Key: aws.String("gpublock:request-id"), Value: aws.String("r-42")}}}},
	})
	if err == nil {
		t.Fatal("lost reply answered success")
	}
	if n := cnt.get("PurchaseCapacityBlock"); n < 2 {
		t.Errorf("%d attempts: the SDK should have retried the 500", n)
	}
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil {
		t.Fatal(err)
	}
	out.CapacityReservations = slices.DeleteFunc(out.CapacityReservations, func(r types.CapacityReservation) bool {
		return !slices.ContainsFunc(r.Tags, func(tg types.Tag) bool { return aws.ToString(tg.Value) == "r-42" })
	})
	if len(out.CapacityReservations) != 1 || !aws.ToTime(out.CapacityReservations[0].StartDate).Equal(aws.ToTime(o.StartDate)) {
		t.Fatalf("after a lost reply: %+v, want exactly one reservation", out.CapacityReservations)
	}
	all, _ := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if len(all.CapacityReservations) != 1 {
		t.Fatalf("%d reservations in all", len(all.CapacityReservations))
	}

	// Extensions too.
	s.SetFaults(Faults{})
	s.Advance(maxPaymentDelay)
	id := aws.ToString(out.CapacityReservations[0].CapacityReservationId)
	eo := extensionOfferings(t, c, id, 24)
	if len(eo) != 1 {
		t.Fatal("no extension offering")
	}
	s.SetFaults(Faults{LostReply: 1})
	_, err = c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{CapacityBlockExtensionOfferingId: eo[0].CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(id)})
	if err == nil {
		t.Fatal("lost extension reply answered success")
	}
	s.SetFaults(Faults{})
	hist, err := c.DescribeCapacityBlockExtensionHistory(ctx, &ec2.DescribeCapacityBlockExtensionHistoryInput{CapacityReservationIds: []string{id}})
	if err != nil || len(hist.CapacityBlockExtensions) != 1 {
		t.Fatalf("extensions after a lost reply: %v %+v", err, hist)
	}
}

func TestParseFault(t *testing.T) {
	var f Faults
	for _, spec := range []string{"latency=150ms", "jitter=20ms", "throttle=0.3", "error=0.1", "down=us-west-2", "down=eu-north-1,ap-south-1", "sold=0.5", "lost-reply=1"} {
		if err := ParseFault(spec, &f); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
	want := Faults{Latency: 150 * time.Millisecond, Jitter: 20 * time.Millisecond, Throttle: 0.3, Error: 0.1,
		Down: []string{"us-west-2", "eu-north-1", "ap-south-1"}, Sold: 0.5, LostReply: 1}
	if f.Latency != want.Latency || f.Jitter != want.Jitter || f.Throttle != want.Throttle || f.Error != want.Error ||
		f.Sold != want.Sold || f.LostReply != want.LostReply || strings.Join(f.Down, ",") != strings.Join(want.Down, ",") {
		t.Fatalf("parsed %+v, want %+v", f, want)
	}
	for spec, mention := range map[string]string{
		"latency":        "NAME=VALUE",
		"latency=fast":   "duration",
		"latency=-1s":    "duration",
		"throttle=1.5":   "0 to 1",
		"error=-0.1":     "0 to 1",
		"sold=NaN":       "0 to 1",
		"down=mars-1":    "us-east-1",
		"explode=1":      "lost-reply",
		"lost-reply=yes": "0 to 1",
	} {
		err := ParseFault(spec, &f)
		if err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("%s: %v, want an error mentioning %q", spec, err, mention)
		}
	}
}

// quota=FAMILY makes that family's Capacity Block quota 0: its searches answer
// CapacityBlockDescribeLimitExceeded (HTTP 400, which the SDK does not retry), the other
// families' are served.
func TestQuotaFault(t *testing.T) {
	var f Faults
	if err := ParseFault("quota=nope", &f); err == nil || !strings.Contains(err.Error(), "trn2") {
		t.Errorf("quota=nope: %v; want the families listed", err)
	}
	if err := ParseFault("quota=TRN2,p6e-gb200", &f); err != nil {
		t.Fatal(err)
	}
	s, url := newTestServer(t, Options{Faults: f})
	cn := &counter{n: map[string]int{}, h: s}
	srv := httptest.NewServer(cn)
	t.Cleanup(srv.Close)
	url = srv.URL
	c := ec2.NewFromConfig(aws.Config{Region: "us-east-2", Credentials: testCreds}, func(o *ec2.Options) { o.BaseEndpoint = aws.String(url) })
	_, err := c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("trn2.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(48)})
	wantCode(t, err, "CapacityBlockDescribeLimitExceeded")
	if n := cn.n["DescribeCapacityBlockOfferings"]; n != 1 {
		t.Errorf("the SDK sent the search %d times; a quota error is not retried", n)
	}
	_, err = ec2Client(url, "us-east-1").DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		UltraserverType: aws.String("u-p6e-gb200x72"), UltraserverCount: aws.Int32(1), CapacityDurationHours: aws.Int32(48)})
	wantCode(t, err, "CapacityBlockDescribeLimitExceeded")
	if _, err := c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(48)}); err != nil {
		t.Errorf("p5 has its quota: %v", err)
	}
}

func TestParseDenyFault(t *testing.T) {
	var f Faults
	for _, spec := range []string{"deny=PurchaseCapacityBlock,RunInstances", "deny= ec2:runinstances , describecapacityblocks"} {
		if err := ParseFault(spec, &f); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
	if want := []string{"PurchaseCapacityBlock", "RunInstances", "DescribeCapacityBlocks"}; !slices.Equal(f.Deny, want) {
		t.Errorf("Deny = %q, want %q (canonical names, each once)", f.Deny, want)
	}
	var all Faults
	if err := ParseFault("deny=ALL", &all); err != nil || !slices.Equal(all.Deny, []string{"all"}) {
		t.Errorf("deny=ALL: %q, %v", all.Deny, err)
	}
	for _, bad := range []string{"deny=", "deny=BuyEverything", "deny=RunInstances,", "deny=sts:GetCallerIdentity"} {
		var g Faults
		err := ParseFault(bad, &g)
		if err == nil {
			t.Errorf("%s accepted: %q", bad, g.Deny)
			continue
		}
		if bad != "deny=" && !strings.Contains(err.Error(), "PurchaseCapacityBlockExtension") {
			t.Errorf("%s: %v does not list the actions", bad, err)
		}
	}
	if !strings.Contains(simcore.FaultHelp, "deny=") || !strings.Contains(simcore.FaultHelp, "payfail=") {
		t.Errorf("FaultHelp lacks the new faults: %s", simcore.FaultHelp)
	}
}

// wantUnauthorized checks err is EC2's refusal exactly as AWS sends it (reference §2.4).
func wantUnauthorized(t *testing.T, what string, err error) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("%s: want UnauthorizedOperation, got %v", what, err)
	}
	if ae.ErrorCode() != "UnauthorizedOperation" || ae.ErrorMessage() != "You are not authorized to perform this operation." || httpStatus(err) != http.StatusForbidden {
		t.Fatalf("%s: got %d %s %q, want 403 UnauthorizedOperation", what, httpStatus(err), ae.ErrorCode(), ae.ErrorMessage())
	}
}

func TestDenyPurchase(t *testing.T) {
	_, cnt, url := countedServer(t, Options{Faults: Faults{Deny: []string{"PurchaseCapacityBlock"}}})
	c := ec2Client(url, "us-east-1")
	o := mustSearch(t, c, p5Search(2, 48))[0] // describing is still allowed
	in := &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId,
		InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}

	dry := *in
	dry.DryRun = aws.Bool(true)
	_, err := c.PurchaseCapacityBlock(ctx, &dry)
	wantUnauthorized(t, "dry run", err)
	_, err = c.PurchaseCapacityBlock(ctx, in)
	wantUnauthorized(t, "purchase", err)

	// Validation still comes first, as it does before DryRunOperation.
	bad := dry
	bad.CapacityBlockOfferingId = aws.String("cbr-nothex")
	_, err = c.PurchaseCapacityBlock(ctx, &bad)
	wantCode(t, err, "InvalidCapacityBlockOfferingIdMalformed")

	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("a denied purchase bought something: %+v, %v", out, err)
	}
	// The SDK does not retry a 403: one request per call.
	if n := cnt.get("PurchaseCapacityBlock"); n != 3 {
		t.Errorf("%d PurchaseCapacityBlock requests for 3 calls", n)
	}
}

func TestDenyRunInstancesThenAllow(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(2, 24))
	s.SetTime(aws.ToTime(o.StartDate).Add(time.Hour))
	run := &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceType:          types.InstanceType(aws.ToString(o.InstanceType)),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: r.CapacityReservationId}},
	}
	dry := *run
	dry.DryRun = aws.Bool(true)
	_, err := c.RunInstances(ctx, &dry)
	wantCode(t, err, "DryRunOperation")

	s.SetFaults(Faults{Deny: []string{"RunInstances"}})
	_, err = c.RunInstances(ctx, &dry)
	wantUnauthorized(t, "dry run", err)
	_, err = c.RunInstances(ctx, run)
	wantUnauthorized(t, "launch", err)
	insts, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{})
	if err != nil || len(insts.Reservations) != 0 {
		t.Fatalf("a denied launch started instances: %+v, %v", insts.Reservations, err)
	}

	s.SetFaults(Faults{})
	out, err := c.RunInstances(ctx, run)
	if err != nil || len(out.Instances) != 1 {
		t.Fatalf("allowed again: %+v, %v", out, err)
	}
}

// deny=all refuses every EC2 action, describes included, but not STS GetCallerIdentity,
// which needs no permission in AWS.
func TestDenyAll(t *testing.T) {
	_, url := newTestServer(t, Options{Faults: Faults{Deny: []string{simcore.DenyAll}}})
	c := ec2Client(url, "us-west-2")
	_, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
	wantUnauthorized(t, "offerings", err)
	_, err = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{DryRun: aws.Bool(true)})
	wantUnauthorized(t, "reservations dry run", err)
	_, err = c.DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	wantUnauthorized(t, "regions", err)
	id, err := stsClient(url, "us-west-2").GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil || aws.ToString(id.Account) != DemoAccount {
		t.Errorf("GetCallerIdentity under deny=all: %+v, %v", id, err)
	}
}

// Under deny=all every action answers UnauthorizedOperation, or, for one whose required
// parameters are missing, its MissingParameter first (the actions that need parameters
// are denied through the SDK in the tests above). An action registered without guarded
// and needing no parameter would answer 200 here.
func TestEveryActionIsDenied(t *testing.T) {
	_, url := newTestServer(t, Options{Faults: Faults{Deny: []string{simcore.DenyAll}}})
	denied := 0
	for _, action := range actionNames() {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("Action="+action+"&Version="+ec2Version))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		sign(req, "us-east-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		readInto(&b, resp)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusForbidden && strings.Contains(b.String(), "<Code>UnauthorizedOperation</Code>"):
			denied++
		case resp.StatusCode == http.StatusBadRequest && strings.Contains(b.String(), "<Code>MissingParameter</Code>"):
		default:
			t.Errorf("%s under deny=all: %d %s", action, resp.StatusCode, b.String())
		}
	}
	if len(actionNames()) != len(ec2Actions) || denied < 8 {
		t.Errorf("%d of %v denied", denied, actionNames())
	}
}

// The faults in force are the emulator's own copy: a caller that reuses its slices after
// New or SetFaults does not change them behind its back.
func TestFaultListsAreCopied(t *testing.T) {
	deny := []string{"PurchaseCapacityBlock"}
	s, err := New(Options{Faults: Faults{Deny: deny}})
	if err != nil {
		t.Fatal(err)
	}
	deny[0] = "RunInstances"
	down := []string{"us-east-2"}
	s.SetFaults(Faults{Deny: []string{"DescribeInstances"}, Down: down})
	down[0] = "us-east-1"
	f := s.currentFaults()
	if !slices.Equal(f.Deny, []string{"DescribeInstances"}) || !slices.Equal(f.Down, []string{"us-east-2"}) {
		t.Errorf("faults in force: deny %q, down %q", f.Deny, f.Down)
	}
	s2, _ := New(Options{Faults: Faults{Deny: deny}})
	deny[0] = "PurchaseCapacityBlock"
	if f := s2.currentFaults(); !slices.Equal(f.Deny, []string{"RunInstances"}) {
		t.Errorf("after New the caller's slice changed the faults: %q", f.Deny)
	}
}
