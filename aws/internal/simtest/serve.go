package simtest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
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
	return ServeWith(t, ec2sim.Options{Seed: seed, Start: Start, Speed: 1e-9, Faults: f, Protocols: protocols})
}

// ServeWith serves a fresh emulator of opts, as they are, over httptest until the test ends.
func ServeWith(t testing.TB, opts ec2sim.Options) (*ec2sim.Server, string) {
	t.Helper()
	sim := NewSim(t, opts)
	return sim, ServeHandler(t, sim)
}

// NewSim is a fresh emulator of opts, for a test that serves it behind a handler of its own.
func NewSim(t testing.TB, opts ec2sim.Options) *ec2sim.Server {
	t.Helper()
	sim, err := ec2sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// ServeHandler serves h over httptest until the test ends, and returns its URL.
func ServeHandler(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// ClearAWSEnv gives the test empty AWS configuration files and clears every variable that
// would point the SDK elsewhere or change its retries, so that the host's setup never leaks
// in.
func ClearAWSEnv(t testing.TB) {
	t.Helper()
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/credentials")
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
		"AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_SAGEMAKER", "AWS_ENDPOINT_URL_CLOUDWATCH", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE"} {
		t.Setenv(k, "")
	}
}

// TypeNotSoldIn is a catalog type (not an UltraServer) and one of regions that does not sell
// it; the test fails, rather than stops testing, when the catalog sells every type everywhere.
func TypeNotSoldIn(t testing.TB, regions []string) (instanceType, region string) {
	t.Helper()
	for _, tt := range model.Catalog() {
		for _, r := range regions {
			if !tt.UltraServer && !tt.Sells(r) {
				return tt.Name, r
			}
		}
	}
	t.Fatal("every catalog type is sold in every served region: no unsold type to test with")
	return "", ""
}
