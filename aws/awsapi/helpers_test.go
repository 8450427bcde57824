package awsapi

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// simStart is the emulator clock of every test: a fixed moment, so the market (a function
// of seed and clock) is the same on every run.
var simStart = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

const (
	testAccessKey = "AKIATESTGPUBLOCK0001"
	testSecretKey = "test-secret-key-that-must-never-be-journaled"
)

// newSim serves a fresh emulator over httptest. The clock barely moves (speed 1e-9) so
// that two searches of a test see the same market.
func newSim(t testing.TB, seed int64, f ec2sim.Faults) (*ec2sim.Server, string) {
	t.Helper()
	sim, err := ec2sim.New(ec2sim.Options{Seed: seed, Start: simStart, Speed: 1e-9, Faults: f})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return sim, srv.URL
}

// newTestClient points the real adapter at an emulator URL with static credentials, and
// with short waits so that retries and confirmations do not slow the tests.
func newTestClient(t testing.TB, url string, tweak func(*Config)) *Client {
	t.Helper()
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/credentials")
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EC2", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE"} {
		t.Setenv(k, "")
	}
	cfg := Config{
		Region:      "us-east-1",
		EndpointURL: url,
		Version:     "test",
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(testAccessKey, testSecretKey, "")),
		JournalDir:  t.TempDir(),
		MaxBackoff:  2 * time.Millisecond,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.confirmDelay = time.Millisecond
	return c
}
