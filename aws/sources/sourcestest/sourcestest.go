// Package sourcestest is the emulator the front ends' tests drive: ec2sim served over HTTP
// and reached through the real adapters and SDK, as the program reaches AWS, with static
// credentials and none of the host's AWS configuration. Only tests import it.
package sourcestest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/aws/trainingplans"
)

// Env gives the test static credentials and empty AWS configuration files, and clears
// what would point the SDK elsewhere, so that the host's AWS setup never leaks in.
func Env(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"config", "credentials"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAUITEST0000000000")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ui-test-secret")
	for _, k := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_SAGEMAKER"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// Backend serves an emulator of opts (with SageMaker's protocol, and a clock slowed to a
// crawl unless opts sets its speed, so that a test's seconds do not move the market) and
// returns the backend the program would open on it: both sources, through the SDK.
func Backend(t testing.TB, opts ec2sim.Options) (source.Backend, *ec2sim.Server) {
	t.Helper()
	Env(t)
	if opts.Speed == 0 {
		opts.Speed = 1e-9
	}
	opts.Protocols = append(opts.Protocols, sagemakersim.Protocol())
	sim, err := ec2sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	c, err := awsapi.New(context.Background(), awsapi.Config{
		Region: "us-east-1", EndpointURL: srv.URL, Version: "test",
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Join(t.TempDir(), "journal"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return sources.New(c, []source.Source{capacityblocks.New(c), trainingplans.Source(trainingplans.New(c))}), sim
}
