package offerings

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// Against the emulator's buckets, a search larger than the burst queues: the progress lines
// on a terminal's stderr name the calls done and left and the wait AWS's rate imposes, the
// final line says every call was made, and stdout is the JSON alone.
func TestOfferingsProgressNamesCallsLeftAndWait(t *testing.T) {
	tty := true
	cli.Tweak(t, func(f *cmdutil.Factory) { f.IOStreams.SetStderrTTY(tty) })
	cmdtest.Env(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIATESTCLI000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "cli-test-secret")
	base, _, cancel, wait := cli.ServeSim(t, "--seed", "5", "--rate-limits", "10")
	defer func() { cancel(); wait() }()
	from, to := time.Now().UTC().AddDate(0, 0, 2).Format("2006-01-02"), time.Now().UTC().AddDate(0, 0, 30).Format("2006-01-02")
	// 1–14 days in one region: 14 calls, more than the burst of 10 (9 with headroom).
	code, out, errs := cli.Run("offerings", "--endpoint-url", base, "--region", "us-east-1", "--type", "p5.48xlarge",
		"--duration", "1d-14d", "--from", from, "--to", to, "-o", "json", "--no-cache")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.HasPrefix(strings.TrimSpace(out), "[") || strings.Contains(out, "calls") {
		t.Errorf("stdout is not the JSON alone: %.200q", out)
	}
	if !regexp.MustCompile(`(?m)^gpublock offerings: us-east-1 \d+/14 calls · waiting \d+s for AWS's rate · done in ~\d+s$`).MatchString(errs) {
		t.Errorf("no progress line naming the calls left and the wait:\n%s", errs)
	}
	if !strings.Contains(errs, "gpublock offerings: us-east-1 14/14 calls · done\n") {
		t.Errorf("no progress line at the end:\n%s", errs)
	}
	if !strings.HasSuffix(errs, "gpublock offerings: 14 of 14 calls made (us-east-1 14/14)\n") {
		t.Errorf("final line missing:\n%s", errs)
	}
	// Not a terminal and a small search: stderr stays empty for the scripts.
	tty = false
	_, _, errs = cli.Run("offerings", "--endpoint-url", base, "--region", "us-east-1", "--type", "p5.48xlarge",
		"--duration", "2d", "--from", from, "--to", to, "-o", "json", "--no-cache")
	if errs != "" {
		t.Errorf("stderr not a terminal: %q", errs)
	}
}
