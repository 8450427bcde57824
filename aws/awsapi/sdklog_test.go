package awsapi

import (
	"bytes"
	"strings"
	"testing"

	"github.com/aws/smithy-go/logging"
)

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
