package sim

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// `gpublock sim` models AWS's request buckets unless told not to, and says so.
func TestSimRateLimitsFlag(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		limits    string // a line of GET /_sim/limits
		intro     string
		forbidden string
	}{
		{nil, "DescribeCapacityBlockOfferings 10 0.15\n", "Rate limits: EC2's request token buckets", ""},
		{[]string{"--rate-limits", "10"}, "DescribeCapacityBlockOfferings 10 1.5\n", "then 1.5 per second", ""},
		{[]string{"--rate-limits", "off"}, "off\n", "Rate limits: off", "DescribeCapacityBlockOfferings"},
	} {
		base, out, cancel, wait := cli.ServeSim(t, append([]string{"--seed", "5"}, tc.args...)...)
		resp, err := http.Get(base + "/_sim/limits")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), tc.limits) || (tc.forbidden != "" && strings.Contains(string(b), tc.forbidden)) {
			t.Errorf("%v: /_sim/limits = %q, want a line %q", tc.args, b, tc.limits)
		}
		if !strings.Contains(out.String(), tc.intro) {
			t.Errorf("%v: instructions lack %q:\n%s", tc.args, tc.intro, out.String())
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
	for _, bad := range []string{"fast", "0", "-1", "NaN"} {
		var out, errb bytes.Buffer
		if code := cli.RunContext(context.Background(), &out, &errb, "sim", "--rate-limits", bad); code != 2 || !strings.Contains(errb.String(), "want aws, off, or a positive number") {
			t.Errorf("--rate-limits %s: exit %d, %q", bad, code, errb.String())
		}
	}
}
