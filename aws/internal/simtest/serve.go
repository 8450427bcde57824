package simtest

import (
	"net/http/httptest"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// The static keys the adapters' tests sign with; the secret must never reach a journal or
// a log, which the tests check.
const (
	AccessKey = "AKIATESTGPUBLOCK0001"
	SecretKey = "test-secret-key-that-must-never-be-journaled"
)

// Serve serves a fresh emulator of seed at Start over httptest, with the protocols given
// besides EC2's. The clock barely moves (speed 1e-9) so that two searches of a test see the
// same market.
func Serve(t testing.TB, seed int64, f ec2sim.Faults, protocols ...ec2sim.Protocol) (*ec2sim.Server, string) {
	t.Helper()
	sim, err := ec2sim.New(ec2sim.Options{Seed: seed, Start: Start, Speed: 1e-9, Faults: f, Protocols: protocols})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return sim, srv.URL
}

// ClearAWSEnv gives the test empty AWS configuration files and clears every variable that
// would point the SDK elsewhere or change its retries, so that the host's setup never leaks
// in.
func ClearAWSEnv(t testing.TB) {
	t.Helper()
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/credentials")
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
		"AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_SAGEMAKER", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE"} {
		t.Setenv(k, "")
	}
}
