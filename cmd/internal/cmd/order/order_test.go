package order

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdOrder(f, nil) }}

func runOrder(cs *cmdtest.Sim, args ...string) (int, string, string) {
	return cli.Run(append([]string{"order", "--endpoint-url", cs.URL, "--region", "us-east-1"}, args...)...)
}

var want = []string{"--type", "p5.48xlarge,p5en.48xlarge", "--count", "2", "--duration", "2d-4d"}

func list(t *testing.T, cs *cmdtest.Sim) []model.Order {
	t.Helper()
	code, out, errs := runOrder(cs, "--list", "-o", "json")
	var os []model.Order
	if code != 0 || json.Unmarshal([]byte(out), &os) != nil {
		t.Fatalf("--list: exit %d\n%s\n%s", code, out, errs)
	}
	return os
}

func TestBadOrdersAreUsageErrorsAndPlaceNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{want, "exactly one ceiling"},
		{append(want, "--max-fee", "1000", "--max-per-accelerator-hour", "4"), "exactly one ceiling"},
		{append(want, "--max-per-accelerator-hour", "0"), "above zero"},
		{append(want, "--max-per-accelerator-hour", "4,5"), "above zero"},
		{[]string{"--type", "p5.48xlarge", "--max-fee", "1000"}, "--duration"},
		{append(want, "--max-fee", "1000", "--then", "launch"), "--image"},
		{append(want, "--max-fee", "1000", "--then", "handoff", "--handoff-for", "karpenter"), "--handoff-file"},
		{append(want, "--max-fee", "1000", "--then", "dance"), "launch, handoff or notify"},
		{append(want, "--max-fee", "1000", "--on-refusal", "close"), "--approve-cmd"},
		{append(want, "--max-fee", "1000", "--expires", "-1d"), "expire"},
		{append(want, "--max-fee", "1000", "--tag", "gpublock-order=x"), "the order's own"},
		{[]string{"--list", "--cancel", "ord-1"}, "alone"},
		{[]string{"--list", "--max-fee", "1"}, "no order flags"},
	} {
		code, _, errs := runOrder(cs, append(tc.args, "--yes")...)
		if code != 2 || !strings.Contains(errs, tc.says) {
			t.Errorf("%v: exit %d, stderr %q: want 2 saying %q", tc.args, code, errs, tc.says)
		}
	}
	if os := list(t, cs); len(os) != 0 {
		t.Errorf("bad orders were placed: %+v", os)
	}
}

// Placing shows the worst case and asks for the purchase's word; another word places
// nothing, and without a terminal --yes is needed.
func TestPlacingAsksTheWordWithTheWorstCase(t *testing.T) {
	cs := cmdtest.StartSim(t)
	args := append(want, "--max-per-accelerator-hour", "4")
	cli.AsPerson(t, true, "no\n")
	code, _, errs := runOrder(cs, args...)
	// 16 accelerators × 95.5 usable hours × $4.
	if code != 1 || !strings.Contains(errs, "Worst case") || !strings.Contains(errs, "$6,112.00") || !strings.Contains(errs, "cannot be cancelled") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if os := list(t, cs); len(os) != 0 {
		t.Fatalf("a refused confirmation placed %+v", os)
	}
	cli.AsPerson(t, false, "")
	if code, _, errs := runOrder(cs, args...); code != 2 || !strings.Contains(errs, "--yes") {
		t.Fatalf("without a terminal: exit %d\n%s", code, errs)
	}
	if code, _, errs := runOrder(cs, append(args, "--read-only", "--yes")...); code == 0 || !strings.Contains(errs, "read-only") {
		t.Fatalf("read-only: exit %d\n%s", code, errs)
	}
	if os := list(t, cs); len(os) != 0 {
		t.Fatalf("placed %+v", os)
	}
}

func TestPlaceListCancel(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := runOrder(cs, append(want, "--max-per-accelerator-hour", "4", "--max-spend", "5000", "--tag", "team=ml", "--yes")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	id := strings.Fields(out)[0]
	os := list(t, cs)
	if len(os) != 1 || os[0].ID != id || os[0].State != model.OrderOpen || os[0].MaxSpend == nil || os[0].MaxSpend.Cmp(model.MustMoney("5000")) != 0 ||
		os[0].Tags["team"] != "ml" || os[0].Ceiling.Kind != model.PerAcceleratorHour || len(os[0].Query.InstanceTypes) != 2 {
		t.Fatalf("listed %+v", os)
	}
	if !strings.Contains(errs, "$5,000.00: the most") {
		t.Errorf("the worst case is not capped by --max-spend:\n%s", errs)
	}
	if code, out, _ := runOrder(cs, "--list"); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "open") {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
	if code, _, errs := runOrder(cs, "--cancel", id); code != 0 {
		t.Fatalf("--cancel: exit %d\n%s", code, errs)
	}
	if os := list(t, cs); os[0].State != model.OrderCancelled {
		t.Errorf("after --cancel: %s", os[0].State)
	}
	if code, _, errs := runOrder(cs, "--cancel", id); code != 1 || !strings.Contains(errs, "cancelled already") {
		t.Errorf("cancelled twice: exit %d\n%s", code, errs)
	}
	if code, _, errs := runOrder(cs, "--cancel", "ord-000000000000"); code != 1 || !strings.Contains(errs, "no such order") {
		t.Errorf("unknown id: exit %d\n%s", code, errs)
	}
}
