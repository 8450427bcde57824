package sim

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

func TestSimBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"--fault", "throttle=2"}, "0 to 1"},
		{[]string{"--fault", "explode=1"}, "lost-reply"},
		{[]string{"--fault", "latency=soon"}, "duration"},
		{[]string{"--fault", "down=mars-1"}, "us-east-1"},
		{[]string{"--speed", "0"}, "positive number"},
		{[]string{"--speed", "fast"}, "positive number"},
		{[]string{"--clock", "tomorrow"}, "RFC 3339"},
		{[]string{"--seed", "x"}, "seed"},
		{[]string{"--region", "moon-1"}, "us-east-1"},
		// The emulator serves only the regions that sell Capacity Blocks.
		{[]string{"--region", "us-west-1"}, "only the regions where Capacity Blocks are sold: ap-northeast-1, ap-south-1, ap-southeast-2, eu-north-1, eu-west-2, us-east-1, us-east-2, us-west-2"},
		{[]string{"--fault", "down=us-west-1"}, "Capacity Blocks are sold in ap-northeast-1"},
		{[]string{"--fault", "deny=BuyEverything"}, "PurchaseCapacityBlock"},
		{[]string{"--fault", "payfail=-1"}, "whole number"},
		{[]string{"--payment-delay", "13h"}, "within 12 hours"},
		{[]string{"--payment-delay", "2h-1h"}, "longer than the longest"},
		{[]string{"--payment-delay", "soon"}, "MIN-MAX"},
		{[]string{"--colour"}, "unknown flag: --colour"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--addr", "nohost"}, "host:port"},
		{[]string{"--state", t.TempDir() + "/no/such/dir/state.json"}, "--state"},
		{[]string{"--state", t.TempDir()}, "not a regular file (it is a directory)"},
		{[]string{"--state", "/dev/zero"}, "not a regular file (it is a device)"},
	} {
		var out, errb bytes.Buffer
		code := cli.RunContext(context.Background(), &out, &errb, append([]string{"sim"}, tc.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), tc.mention) {
			t.Errorf("%v: stderr %q does not mention %q", tc.args, errb.String(), tc.mention)
		}
		if !strings.HasSuffix(errb.String(), "Run 'gpublock sim --help' for its flags.\n") {
			t.Errorf("%v: stderr %q does not end with where the help is", tc.args, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errb, "sim", "-h"); code != 0 || !strings.Contains(out.String(), "--fault") {
		t.Errorf("sim -h: exit %d, %q", code, out.String())
	}
}

func TestSimServesUntilCancelled(t *testing.T) {
	base, out, cancel, wait := cli.ServeSim(t, "--seed", "5", "--clock", "2026-12-01T12:00:00Z",
		"--fault", "latency=1ms", "--fault", "down=us-west-2")
	for _, want := range []string{"AWS_ENDPOINT_URL_STS=" + base, "AWS_ENDPOINT_URL_CLOUDWATCH=" + base, "AWS_ACCESS_KEY_ID=", "AWS_REGION=us-east-1", "/_sim/clock",
		"gpublock prices --refresh --endpoint-url " + base, "Faults: latency=1ms down=us-west-2\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("instructions lack %q:\n%s", want, out.String())
		}
	}
	if b := cmdtest.Get(t, base+"/_sim/clock"); !strings.HasPrefix(b, "2026-12-01T12:0") {
		t.Errorf("clock = %q, want the --clock time", b)
	}
	cancel()
	if code := wait(); code != 0 {
		t.Errorf("exit %d after cancel", code)
	}
}

// --fault deny= and payfail= reach the emulator: a denied action answers
// UnauthorizedOperation through the SDK, and a purchase ends payment-failed.
func TestSimDenyAndPayFailFaults(t *testing.T) {
	base, out, cancel, wait := cli.ServeSim(t, "--clock", "2026-12-01T12:00:00Z", "--payment-delay", "30s-2m",
		"--fault", "deny=ec2:RunInstances,DescribeRegions", "--fault", "payfail=1")
	if !strings.Contains(out.String(), "Payment: 30s-2m0s after each purchase") {
		t.Errorf("payment line:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Faults: deny=RunInstances,DescribeRegions payfail=1\n") {
		t.Errorf("fault summary:\n%s", out.String())
	}
	cl := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(base), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider("AKIATESTCLI000000001", "cli-test-secret", "")})
	var ae smithy.APIError
	if _, err := cl.DescribeRegions(context.Background(), &ec2.DescribeRegionsInput{}); !errors.As(err, &ae) || ae.ErrorCode() != "UnauthorizedOperation" {
		t.Errorf("a denied DescribeRegions: %v", err)
	}
	offs, err := cl.DescribeCapacityBlockOfferings(context.Background(), &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24)})
	if err != nil || len(offs.CapacityBlockOfferings) == 0 {
		t.Fatalf("offerings: %+v, %v", offs, err)
	}
	bought, err := cl.PurchaseCapacityBlock(context.Background(), &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: offs.CapacityBlockOfferings[0].CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(base+"/_sim/clock", url.Values{"advance": {"10m"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	rs, err := cl.DescribeCapacityReservations(context.Background(), &ec2.DescribeCapacityReservationsInput{
		CapacityReservationIds: []string{aws.ToString(bought.CapacityReservation.CapacityReservationId)}})
	if err != nil || len(rs.CapacityReservations) != 1 || rs.CapacityReservations[0].State != types.CapacityReservationStatePaymentFailed {
		t.Errorf("after payment: %+v, %v", rs, err)
	}
	cancel()
	wait()
}

func TestSimOnAnUnspecifiedAddressPrintsAReachableOneAndWarns(t *testing.T) {
	for in, want := range map[string]struct {
		url     string
		exposed bool
	}{
		"http://[::]:4566":       {"http://127.0.0.1:4566", true},
		"http://0.0.0.0:4566":    {"http://127.0.0.1:4566", true},
		"http://127.0.0.1:4566":  {"http://127.0.0.1:4566", false},
		"http://[::1]:4566":      {"http://[::1]:4566", false},
		"http://192.0.2.10:4566": {"http://192.0.2.10:4566", true},
	} {
		if got, exposed := reachableURL(in); got != want.url || exposed != want.exposed {
			t.Errorf("reachableURL(%q) = %q, %v; want %q, %v", in, got, exposed, want.url, want.exposed)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errb := &cmdtest.Buffer{}, &cmdtest.Buffer{}
	done := make(chan int, 1)
	go func() { done <- cli.RunContext(ctx, out, errb, "sim", "--addr", "0.0.0.0:0") }()
	urlRE := regexp.MustCompile(`AWS_ENDPOINT_URL_EC2=(\S+)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	cancel()
	<-done
	if !strings.HasPrefix(base, "http://127.0.0.1:") || strings.HasSuffix(base, ":0") {
		t.Errorf("printed endpoint %q, want http://127.0.0.1:PORT\n%s", base, out.String())
	}
	if !strings.Contains(errb.String(), "WARNING") || !strings.Contains(errb.String(), "not a loopback address") || !strings.Contains(errb.String(), "clock") {
		t.Errorf("stderr %q: want the warning", errb.String())
	}
}

// cli runs `gpublock sim` as the program does.
var cli = cmdtest.NewCLI(NewCmdSim)

// `gpublock sim --account ID` stands for that account: two emulators are two accounts.
func TestSimAccountFlag(t *testing.T) {
	for _, account := range []string{"111122223333", "444455556666"} {
		base, out, cancel, wait := cli.ServeSim(t, "--account", account)
		if !strings.Contains(out.String(), "account "+account+".") {
			t.Errorf("--account %s: the instructions do not name it:\n%s", account, out.String())
		}
		c := sts.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")},
			func(o *sts.Options) { o.BaseEndpoint = aws.String(base); o.RetryMaxAttempts = 1 })
		id, err := c.GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
		if err != nil || aws.ToString(id.Account) != account {
			t.Errorf("--account %s: STS says %v (%v)", account, id, err)
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
	var out, errb bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errb, "sim", "--account", "12-34"); code != 2 || !strings.Contains(errb.String(), "12 digits") {
		t.Errorf("--account 12-34: exit %d, %q", code, errb.String())
	}
}

// `gpublock sim --price-drop` serves the demo's market, which gets cheaper as its clock
// moves; without the flag the same two minutes leave the same offerings at the same fees.
func TestSimPriceDropFlag(t *testing.T) {
	for _, drop := range []bool{false, true} {
		args := []string{"--clock", "2026-12-01T12:00:00Z", "--speed", "0.000001", "--rate-limits", "off"}
		if drop {
			args = append(args, "--price-drop")
		}
		base, out, cancel, wait := cli.ServeSim(t, args...)
		if said := strings.Contains(out.String(), "Price drop: every price 4% of the published rate cheaper every 1m"); said != drop {
			t.Errorf("--price-drop %v: the instructions say a drop: %v\n%s", drop, said, out.String())
		}
		c := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(base), RetryMaxAttempts: 1,
			Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")})
		fees := func() map[string]string {
			t.Helper()
			r, err := c.DescribeCapacityBlockOfferings(context.Background(), &ec2.DescribeCapacityBlockOfferingsInput{
				InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(2), CapacityDurationHours: aws.Int32(72),
				StartDateRange: aws.Time(time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)), EndDateRange: aws.Time(time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC))})
			if err != nil || len(r.CapacityBlockOfferings) == 0 {
				t.Fatalf("search: %v, %d offerings", err, len(r.CapacityBlockOfferings))
			}
			out := map[string]string{}
			for _, o := range r.CapacityBlockOfferings {
				out[key(o)] = aws.ToString(o.UpfrontFee)
			}
			return out
		}
		// Asking to start it (as the demo's watchers do) is refused without the flag, and
		// changes nothing with it: it started with the emulator.
		resp, err := http.Post(base+"/_sim/price-drop", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]int{false: http.StatusConflict, true: http.StatusOK}[drop]; resp.StatusCode != want {
			t.Errorf("--price-drop %v: POST /_sim/price-drop answered %d, want %d", drop, resp.StatusCode, want)
		}
		before := fees()
		resp, err = http.PostForm(base+"/_sim/clock", url.Values{"advance": {"2m"}})
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("advancing the clock: %v %v", resp, err)
		}
		resp.Body.Close()
		after := fees()
		compared := 0
		for k, fee := range before {
			got, ok := after[k]
			if !ok {
				continue
			}
			compared++
			if cheaper := money(t, got).Cmp(money(t, fee)) < 0; cheaper != drop || (!drop && got != fee) {
				t.Errorf("--price-drop %v: %s cost %s, two minutes later %s", drop, k, fee, got)
			}
		}
		if compared == 0 {
			t.Errorf("--price-drop %v: no offering of %v is still offered two minutes later: %v", drop, before, after)
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
}

func key(o types.CapacityBlockOffering) string {
	return aws.ToString(o.AvailabilityZone) + " " + aws.ToTime(o.StartDate).String()
}

func money(t *testing.T, s string) model.Money {
	t.Helper()
	m, err := model.ParseMoney(s)
	if err != nil {
		t.Fatalf("fee %q: %v", s, err)
	}
	return m
}

// `gpublock sim` models AWS's request buckets unless told not to, and says so; --rate-limits
// governs SageMaker's buckets with EC2's: on by default, scaled by N, off with off.
func TestSimRateLimitsFlag(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		ec2, sagemaker string // a line of GET /_sim/limits, of each service
		forbidden      string // in EC2's limits
		intro          []string
	}{
		{nil, "DescribeCapacityBlockOfferings 10 0.15\n", "SearchTrainingPlanOfferings 10 0.15\n", "",
			[]string{"Rate limits: EC2's request token buckets", "SearchTrainingPlanOfferings 10, then 0.15 per second"}},
		{[]string{"--rate-limits", "10"}, "DescribeCapacityBlockOfferings 10 1.5\n", "SearchTrainingPlanOfferings 10 1.5\n", "",
			[]string{"then 1.5 per second", "SearchTrainingPlanOfferings 10, then 1.5 per second"}},
		{[]string{"--rate-limits", "off"}, "off\n", "off\n", "DescribeCapacityBlockOfferings", []string{"Rate limits: off"}},
	} {
		base, out, cancel, wait := cli.ServeSim(t, append([]string{"--seed", "5"}, tc.args...)...)
		if b := cmdtest.Get(t, base+"/_sim/limits"); !strings.Contains(b, tc.ec2) || (tc.forbidden != "" && strings.Contains(b, tc.forbidden)) {
			t.Errorf("%v: /_sim/limits = %q, want a line %q", tc.args, b, tc.ec2)
		}
		if b := cmdtest.Get(t, base+"/_sim/limits?service=sagemaker"); !strings.Contains(b, tc.sagemaker) {
			t.Errorf("%v: SageMaker's limits = %q, want a line %q", tc.args, b, tc.sagemaker)
		}
		for _, intro := range tc.intro {
			if !strings.Contains(out.String(), intro) {
				t.Errorf("%v: instructions lack %q:\n%s", tc.args, intro, out.String())
			}
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
	for _, bad := range []string{"fast", "0", "-1", "NaN"} {
		var out, errb bytes.Buffer
		if code := cli.RunContext(context.Background(), &out, &errb, "sim", "--rate-limits", bad); code != 2 || !strings.Contains(errb.String(), "want aws, off, or a positive number") {
			t.Errorf("--rate-limits %s: exit %d, %q", bad, code, errb.String())
		}
	}
}

// `gpublock sim` serves SageMaker Training Plans on the EC2 address and says so.
func TestSimServesSageMaker(t *testing.T) {
	base, out, cancel, wait := cli.ServeSim(t, "--clock", "2026-12-01T12:00:00Z")
	if !strings.Contains(out.String(), "AWS_ENDPOINT_URL_SAGEMAKER="+base+"\n") {
		t.Errorf("instructions lack AWS_ENDPOINT_URL_SAGEMAKER:\n%s", out.String())
	}
	c := sagemaker.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")},
		func(o *sagemaker.Options) { o.BaseEndpoint = aws.String(base); o.RetryMaxAttempts = 1 })
	l, err := c.ListTrainingPlans(context.Background(), &sagemaker.ListTrainingPlansInput{})
	if err != nil {
		t.Fatalf("ListTrainingPlans against gpublock sim: %v", err)
	}
	if l.TrainingPlanSummaries == nil {
		t.Fatal("no TrainingPlanSummaries member in the answer")
	}
	cancel()
	if code := wait(); code != 0 {
		t.Errorf("exit %d after cancel", code)
	}
}
