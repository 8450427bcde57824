// Package cmdtest is what the commands' tests share: an emulator behind the commands, the
// environment of a script, and a command run as the program runs it.
package cmdtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
)

// SimStart is the emulator clock of the command tests; the commands read dates
// against it through /_sim/clock.
var SimStart = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

// Sim serves an emulator and counts the EC2/STS calls (POSTs) it receives.
type Sim struct {
	Emulator *ec2sim.Server
	URL      string
	Calls    atomic.Int64
	srv      *httptest.Server
}

// Stop stops serving, as an emulator (an account's endpoint) that went away.
func (s *Sim) Stop() { s.srv.Close() }

// StartSim starts an emulator and sets the environment as a script's would: static
// keys in env, empty AWS config files so the host's never leak in, a private state dir.
func StartSim(t *testing.T, tweak ...func(*ec2sim.Options)) *Sim {
	t.Helper()
	opts := ec2sim.Options{Seed: 1, Start: SimStart, Speed: 1e-9}
	for _, f := range tweak {
		f(&opts)
	}
	sim, err := ec2sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cs := &Sim{Emulator: sim}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			cs.Calls.Add(1)
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cs.URL, cs.srv = srv.URL, srv
	Env(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIATESTCLI000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "cli-test-secret")
	return cs
}

func Env(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"XDG_STATE_HOME": dir + "/state", "AWS_EC2_METADATA_DISABLED": "true", "XDG_CACHE_HOME": dir + "/cache",
		"XDG_CONFIG_HOME": dir + "/cfg", "AWS_PROFILE": "", "AWS_DEFAULT_PROFILE": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
		"AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_EC2": "", "AWS_MAX_ATTEMPTS": "", "AWS_RETRY_MODE": "",
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
	} {
		t.Setenv(k, v)
	}
	for _, name := range []string{"/config", "/credentials"} {
		if err := writeEmpty(dir + name); err != nil {
			t.Fatal(err)
		}
	}
}

// Client is an adapter on the same emulator, to set up state the commands then read.
func Client(t *testing.T, url string) *awsapi.Client {
	t.Helper()
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: url,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider("AKIATESTCLI000000001", "cli-test-secret", "")),
		JournalDir:  t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func writeEmpty(path string) error { return os.WriteFile(path, nil, 0o600) }
