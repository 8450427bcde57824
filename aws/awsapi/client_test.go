package awsapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go/logging"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

func TestIdentityAndNow(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	id, err := c.Identity(context.Background())
	if err != nil || id.Account != ec2sim.DemoAccount || !strings.HasPrefix(id.ARN, "arn:aws:") {
		t.Fatalf("identity %+v, %v", id, err)
	}
	if _, err := c.Identity(context.Background()); err != nil || rc.Total() != 1 {
		t.Errorf("identity asked %d times, want once (%v)", rc.Total(), err)
	}
	// The SDK writes the "/" of the app id "gpublock/test" as "-".
	if ua := rc.Calls[0].UserAgent; !strings.Contains(ua, "app/gpublock-test") {
		t.Errorf("user agent %q lacks the app id", ua)
	}
	if now := c.Now(context.Background()); now.Sub(simtest.Start).Abs() > time.Second {
		t.Errorf("Now %s, want the emulator's clock %s", now, simtest.Start)
	}
	if c.Region() != "us-east-1" || c.Endpoint() != url {
		t.Errorf("region %q endpoint %q", c.Region(), c.Endpoint())
	}
}

func TestIdentityRejectsAnEmptyAnswer(t *testing.T) {
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"not":"xml"}`) // the SDK parses this into an empty answer without error
	})
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool { srv(w, nil); return true })
	c := newTestClient(t, url, nil)
	if id, err := c.Identity(context.Background()); err == nil {
		t.Fatalf("identity %+v from a body that is not XML", id)
	}
}

func TestNoCredentialsAnywhere(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	c, err := New(context.Background(), Config{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckCredentials(context.Background())
	if !IsNoCredentials(err) {
		t.Fatalf("CheckCredentials: %v, want no credentials", err)
	}
	ex := ExplainError(err)
	if !strings.Contains(ex.Summary, "No AWS credentials") || !strings.Contains(ex.Hint, "--demo") || !strings.Contains(ex.Hint, "AWS_ACCESS_KEY_ID") {
		t.Errorf("explanation %+v", ex)
	}
}

func TestLoopbackEndpointFromEnvironment(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *Config) {
		cfg.EndpointURL = ""
		t.Setenv("AWS_ENDPOINT_URL_EC2", url)
	})
	if c.Endpoint() != url {
		t.Fatalf("endpoint %q, want %q from AWS_ENDPOINT_URL_EC2", c.Endpoint(), url)
	}
	if id, err := c.Identity(context.Background()); err != nil || id.Account != ec2sim.DemoAccount {
		t.Fatalf("identity through the env endpoint: %+v, %v", id, err)
	}
	if now := c.Now(context.Background()); now.Sub(simtest.Start).Abs() > time.Second {
		t.Errorf("Now %s, want the emulator's clock", now)
	}

	t.Setenv("AWS_ENDPOINT_URL_EC2", "https://vpce-123.ec2.us-east-1.vpce.amazonaws.com")
	if got := loopbackEndpointFromEnv(); got != "" {
		t.Errorf("a remote endpoint was taken over: %q", got)
	}
}

func TestProfileFromSharedFiles(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	dir := t.TempDir()
	mustWrite(t, dir+"/config", "[profile ml]\nregion = us-east-2\n")
	mustWrite(t, dir+"/credentials", "[ml]\naws_access_key_id = AKIAPROFILE000000001\naws_secret_access_key = profile-secret\n")
	c := newTestClient(t, url, func(cfg *Config) {
		cfg.Credentials, cfg.Region, cfg.Profile = nil, "", "ml"
		t.Setenv("AWS_CONFIG_FILE", dir+"/config")
		t.Setenv("AWS_SHARED_CREDENTIALS_FILE", dir+"/credentials")
	})
	if c.Region() != "us-east-2" || c.Profile() != "ml" {
		t.Fatalf("region %q profile %q, want the profile's", c.Region(), c.Profile())
	}
	if _, err := c.Identity(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rc.Calls[0].Region != "us-east-2" {
		t.Errorf("signed for %q", rc.Calls[0].Region)
	}

	_, err := New(context.Background(), Config{Profile: "nope"})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(ExplainError(err).Hint, "profile") {
		t.Errorf("missing profile: %v", err)
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A block whose listing named no owner is the caller's: every reservation listed is the
// account's own. One the listing named keeps its account.
func TestFillAccountIsTheCallersIdentity(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	blocks := []model.Block{{ReservationID: "cr-1"}, {ReservationID: "cr-2", Account: "999988887777"}, {ReservationID: "cr-3"}}
	c.FillAccount(context.Background(), blocks)
	if blocks[0].Account != ec2sim.DemoAccount || blocks[2].Account != ec2sim.DemoAccount || blocks[1].Account != "999988887777" {
		t.Errorf("accounts %q %q %q", blocks[0].Account, blocks[1].Account, blocks[2].Account)
	}
}

// The SDK's own warnings go where Config.SDKLog says (the TUI sends them away from its
// screen); without it they keep the SDK's default, stderr.
func TestSDKLogTakesTheSDKsWarnings(t *testing.T) {
	var buf bytes.Buffer
	c := newTestClient(t, "http://127.0.0.1:1", func(cfg *Config) { cfg.SDKLog = &buf })
	c.awscfg.Logger.Logf(logging.Warn, "falling back to IMDSv1")
	if !strings.Contains(buf.String(), "falling back to IMDSv1") {
		t.Errorf("the SDK's logger wrote %q, not to SDKLog", buf.String())
	}
}
