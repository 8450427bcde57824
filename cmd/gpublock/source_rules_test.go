package main

import (
	"strings"
	"testing"
)

// Each source searched is checked by its own rules before any call, and a refusal names
// the rule's source and how to search the other alone.
func TestSourceRulesBeforeAnyCall(t *testing.T) {
	cs := startPlanSim(t)
	asPerson(t, false, "")
	search := func(extra ...string) []string {
		return append([]string{"offerings", "--endpoint-url", cs.url, "--type", "p5.48xlarge"}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{search("--source", "training-plans", "--duration", "1d-20d"), []string{"a training plan search sweeps at most 14 lengths"}},
		{search("--source", "all", "--duration", "2d", "--count", "3"),
			[]string{"not 3", "(training plans' rule; --source capacity-blocks searches Capacity Blocks alone)"}},
		{search("--source", "training-plans", "--duration", "2d", "--type", "g5.xlarge"), []string{"--type g5.xlarge", "training plans do not reserve ml.g5.xlarge"}},
		{search("--source", "training-plans", "--duration", "2d", "--count", "4", "--type", "ml.u-p6e-gb200x72", "--count", "0"), []string{"at least 1 UltraServer"}},
		{search("--source", "training-plans", "--duration", "2d", "-o", "csv"), []string{"-o csv has Capacity Blocks' columns only; list training plans"}},
		{search("--source", "training-plans"), []string{"--duration is required: training plans last 1 to 182 whole days"}},
	} {
		code, out, errs := runCLI(tc.args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2", tc.args, code, out, errs)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q, want %q", tc.args, errs, w)
			}
		}
	}
	if n := cs.calls.Load(); n != 0 {
		t.Fatalf("bad usage made %d calls", n)
	}
}
