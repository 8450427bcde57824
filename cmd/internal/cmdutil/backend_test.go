package cmdutil_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

func TestOpenBackendDemo(t *testing.T) {
	cmdtest.Env(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, info, err := cmdutil.OpenBackend(ctx, cmdtest.AWSFlags(t, "--demo", "--region", "us-west-2"), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode != cmdutil.ModeSimulated || info.Sim == nil || !strings.HasPrefix(info.Endpoint, "http://127.0.0.1:") || c.Region() != "us-west-2" {
		t.Fatalf("info %+v, region %s", info, c.Region())
	}
	id, err := c.Identity(ctx)
	if err != nil || id.Account != ec2sim.DemoAccount {
		t.Fatalf("identity %+v, %v", id, err)
	}
	p, _ := c.JournalPath()
	if !strings.Contains(p, "simulated") {
		t.Errorf("simulated purchases journal to %s, beside real ones", p)
	}
}

func TestOpenBackendFallsBackOnlyWhenAllowed(t *testing.T) {
	cmdtest.Env(t) // no credentials anywhere, IMDS disabled
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := cmdutil.AWSFlags{PerRegion: 4, Overall: 32}
	c, info, err := cmdutil.OpenBackend(ctx, &f, &bytes.Buffer{})
	if err != nil || info.Mode != cmdutil.ModeLive {
		t.Fatalf("without autoDemo: %+v, %v; want LIVE (scripts never get simulated data)", info, err)
	}
	if _, err := c.Identity(ctx); err == nil {
		t.Error("identity without credentials succeeded")
	}

	f.AutoDemo = true
	var stderr bytes.Buffer
	c, info, err = cmdutil.OpenBackend(ctx, &f, &stderr)
	if err != nil || info.Mode != cmdutil.ModeSimulated || !strings.Contains(info.Reason, "no AWS credentials") {
		t.Fatalf("with autoDemo: %+v, %v", info, err)
	}
	if !strings.Contains(stderr.String(), "simulator") {
		t.Errorf("stderr %q does not say the simulator is used", stderr.String())
	}
	if id, err := c.Identity(ctx); err != nil || id.Account != ec2sim.DemoAccount {
		t.Errorf("identity %+v, %v", id, err)
	}

	t.Setenv("AWS_ACCESS_KEY_ID", "AKIATESTCLI000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "x")
	if _, info, err = cmdutil.OpenBackend(ctx, &f, &bytes.Buffer{}); err != nil || info.Mode != cmdutil.ModeLive {
		t.Errorf("with credentials: %+v, %v; want LIVE", info, err)
	}
}

func TestOpenBackendSaysSimulatedForAnEmulatorEndpoint(t *testing.T) {
	cs := cmdtest.StartSim(t)
	f := cmdutil.AWSFlags{PerRegion: 4, Overall: 32, EndpointURL: cs.URL}
	_, info, err := cmdutil.OpenBackend(context.Background(), &f, &bytes.Buffer{})
	if err != nil || info.Mode != cmdutil.ModeSimulated || info.Endpoint != cs.URL || info.Sim != nil {
		t.Fatalf("%+v, %v", info, err)
	}
	if cs.Calls.Load() != 0 {
		t.Errorf("opening the backend made %d EC2 calls", cs.Calls.Load())
	}
}

// A cap that does not read as dollars never stands for no cap: it refuses every fee.
func TestSpendCapFailsClosed(t *testing.T) {
	f := &cmdutil.AWSFlags{MaxSpend: "lots"}
	c := f.SpendCap()
	if c == nil || !c.IsZero() {
		t.Fatalf("spendCap of %q = %v, want a zero cap", f.MaxSpend, c)
	}
	if (&cmdutil.AWSFlags{}).SpendCap() != nil {
		t.Error("no --max-spend gave a cap")
	}
}

// --demo --rate-limits aws keeps AWS's request buckets in the in-process simulator, which
// the client reads and paces by: the four Capacity Block actions 10 at once, then 0.15 per
// second; without it the demo has none. Outside the demo the flag is refused.
func TestDemoRateLimits(t *testing.T) {
	cmdtest.Env(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(args ...string) (cmdutil.BackendInfo, error) {
		_, info, err := cmdutil.OpenBackend(ctx, cmdtest.AWSFlags(t, args...), &bytes.Buffer{})
		return info, err
	}
	info, err := open("--demo", "--rate-limits", "aws")
	if err != nil {
		t.Fatal(err)
	}
	got := cmdtest.Get(t, info.Endpoint+"/_sim/limits")
	for _, a := range []string{"DescribeCapacityBlockOfferings", "DescribeCapacityBlockExtensionOfferings", "PurchaseCapacityBlock", "PurchaseCapacityBlockExtension"} {
		if !strings.Contains(got, "\n"+a+" 10 0.15\n") && !strings.HasPrefix(got, a+" 10 0.15\n") {
			t.Errorf("the demo's buckets lack %s 10 0.15:\n%s", a, got)
		}
	}
	// The simulator refuses the eleventh search of a burst, as AWS does.
	throttled := 0
	for i := 0; i < 11; i++ {
		req, _ := http.NewRequest(http.MethodPost, info.Endpoint+"/", strings.NewReader(
			"Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=1&CapacityDurationHours=24"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261201/us-east-1/ec2/aws4_request, SignedHeaders=host, Signature=x")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), "RequestLimitExceeded") {
			throttled++
			if i < 10 {
				t.Errorf("call %d of the burst throttled", i+1)
			}
		}
	}
	if throttled != 1 {
		t.Errorf("%d of 11 calls throttled; want the eleventh", throttled)
	}
	if info, err := open("--demo"); err != nil || strings.TrimSpace(cmdtest.Get(t, info.Endpoint+"/_sim/limits")) != "off" {
		t.Errorf("the demo without --rate-limits: %v, limits %q; want off", err, cmdtest.Get(t, info.Endpoint+"/_sim/limits"))
	}
	if _, err := open("--demo", "--rate-limits", "fast"); err == nil || !strings.Contains(err.Error(), "want aws, off, or a positive number") {
		t.Errorf("--rate-limits fast: %v", err)
	}
	if _, err := open("--rate-limits", "aws", "--region", "us-east-1"); err == nil || !strings.Contains(err.Error(), "--demo") {
		t.Errorf("--rate-limits against AWS: %v; want it refused", err)
	}
}

// demo_rate_limits in the configuration file does what --rate-limits does for the demo,
// the flag winning; a bad value names the file's line; against AWS it is no error.
func TestDemoRateLimitsConfigKey(t *testing.T) {
	cmdtest.Env(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	limitsOf := func(args ...string) (string, error) {
		t.Helper()
		f := cmdtest.AWSFlags(t, args...)
		if _, err := cmdutil.TUIConfigFor(f, cmdutil.LoadUserConfig); err != nil {
			return "", err
		}
		_, info, err := cmdutil.OpenBackend(ctx, f, &bytes.Buffer{})
		if err != nil || info.Sim == nil {
			return "", err
		}
		return cmdtest.Get(t, info.Endpoint+"/_sim/limits"), nil
	}
	cmdtest.WriteConfig(t, "demo_rate_limits: aws\n")
	if got, err := limitsOf("--demo"); err != nil || !strings.Contains(got, "DescribeCapacityBlockOfferings 10 0.15\n") {
		t.Errorf("demo_rate_limits: aws: %v, limits %q", err, got)
	}
	if got, err := limitsOf("--demo", "--rate-limits", "off"); err != nil || strings.TrimSpace(got) != "off" {
		t.Errorf("the flag does not win over the file: %v, limits %q", err, got)
	}
	if _, err := limitsOf("--region", "us-east-1"); err != nil {
		t.Errorf("demo_rate_limits against AWS: %v; want no error (it is the demo's only)", err)
	}
	cmdtest.WriteConfig(t, "theme: dark\ndemo_rate_limits: fast\n")
	if _, err := limitsOf("--demo"); err == nil || !strings.Contains(err.Error(), "line 2: demo_rate_limits") {
		t.Errorf("a bad demo_rate_limits: %v; want its line named", err)
	}
}
