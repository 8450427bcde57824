package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

func ecDown(regions ...string) ec2sim.Faults { return ec2sim.Faults{Down: regions} }

func TestOpenBackendDemo(t *testing.T) {
	cliEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var f awsFlags
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	f.register(fs)
	if err := fs.Parse([]string{"--demo", "--region", "us-west-2"}); err != nil {
		t.Fatal(err)
	}
	c, info, err := openBackend(ctx, &f, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode != modeSimulated || info.Sim == nil || !strings.HasPrefix(info.Endpoint, "http://127.0.0.1:") || c.Region() != "us-west-2" {
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
	cliEnv(t) // no credentials anywhere, IMDS disabled
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := awsFlags{perRegion: 4, overall: 32}
	c, info, err := openBackend(ctx, &f, &bytes.Buffer{})
	if err != nil || info.Mode != modeLive {
		t.Fatalf("without autoDemo: %+v, %v; want LIVE (scripts never get simulated data)", info, err)
	}
	if _, err := c.Identity(ctx); err == nil {
		t.Error("identity without credentials succeeded")
	}

	f.autoDemo = true
	var stderr bytes.Buffer
	c, info, err = openBackend(ctx, &f, &stderr)
	if err != nil || info.Mode != modeSimulated || !strings.Contains(info.Reason, "no AWS credentials") {
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
	if _, info, err = openBackend(ctx, &f, &bytes.Buffer{}); err != nil || info.Mode != modeLive {
		t.Errorf("with credentials: %+v, %v; want LIVE", info, err)
	}
}

func TestOpenBackendSaysSimulatedForAnEmulatorEndpoint(t *testing.T) {
	cs := startCLISim(t)
	f := awsFlags{perRegion: 4, overall: 32, endpointURL: cs.url}
	_, info, err := openBackend(context.Background(), &f, &bytes.Buffer{})
	if err != nil || info.Mode != modeSimulated || info.Endpoint != cs.url || info.Sim != nil {
		t.Fatalf("%+v, %v", info, err)
	}
	if cs.calls.Load() != 0 {
		t.Errorf("opening the backend made %d EC2 calls", cs.calls.Load())
	}
}

// A cap that does not read as dollars never stands for no cap: it refuses every fee.
func TestSpendCapFailsClosed(t *testing.T) {
	f := &awsFlags{maxSpend: "lots"}
	c := f.spendCap()
	if c == nil || !c.IsZero() {
		t.Fatalf("spendCap of %q = %v, want a zero cap", f.maxSpend, c)
	}
	if (&awsFlags{}).spendCap() != nil {
		t.Error("no --max-spend gave a cap")
	}
}
