package sim

import (
	"bytes"
	"context"
	"errors"
	"io"
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
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
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
	resp, err := http.Get(base + "/_sim/clock")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(b), "2026-12-01T12:0") {
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
