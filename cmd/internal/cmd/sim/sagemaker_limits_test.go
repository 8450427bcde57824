package sim

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// --rate-limits governs SageMaker's buckets with EC2's: on by default, scaled by N, off
// with off.
func TestSimRateLimitsCoverSageMaker(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		limit string // a line of GET /_sim/limits?service=sagemaker
		intro string
	}{
		{nil, "SearchTrainingPlanOfferings 10 0.15\n", "SearchTrainingPlanOfferings 10, then 0.15 per second"},
		{[]string{"--rate-limits", "10"}, "SearchTrainingPlanOfferings 10 1.5\n", "SearchTrainingPlanOfferings 10, then 1.5 per second"},
		{[]string{"--rate-limits", "off"}, "off\n", "Rate limits: off"},
	} {
		base, out, cancel, wait := cli.ServeSim(t, append([]string{"--seed", "5"}, tc.args...)...)
		resp, err := http.Get(base + "/_sim/limits?service=sagemaker")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), tc.limit) {
			t.Errorf("%v: SageMaker's limits = %q, want a line %q", tc.args, b, tc.limit)
		}
		if !strings.Contains(out.String(), tc.intro) {
			t.Errorf("%v: instructions lack %q:\n%s", tc.args, tc.intro, out.String())
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
}
