package advise

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing/advisor"
)

// A recurring job's searches say, one by one, how far the advice is and what is left, and
// the advice still follows the last (the threshold lowered: the tests cannot wait for
// AWS's buckets).
func TestRecurringAdviceSaysHowFarItIs(t *testing.T) {
	cs := cmdtest.StartSim(t)
	old := progressAfter
	progressAfter = 0
	t.Cleanup(func() { progressAfter = old })
	code, out, errs := cli.Run("advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--instances", "1",
		"--monthly-hours", "200", "--months", "12", "--region", "us-east-1")
	if code != 0 || !strings.Contains(out, "RANK") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	first := regexp.MustCompile(`^gpublock advise: search 1 of (\d+); the advice follows the last; left: (\d+) searches, (\d+) calls`)
	m := first.FindStringSubmatch(lines[0])
	if m == nil || m[1] != m[2] || m[1] == "1" {
		t.Fatalf("first line %q", lines[0])
	}
	if n, _ := strconv.Atoi(m[1]); len(lines) != n {
		t.Fatalf("%d lines for %s searches:\n%s", len(lines), m[1], errs)
	}
	last := regexp.MustCompile(`^gpublock advise: search ` + m[1] + ` of ` + m[1] + `; (nothing on offer so far|\d+ offerings? so far, the lowest fee \$[\d,]+\.\d\d USD \(p5\.48xlarge × 1 for .+, us-east-1, from .+ UTC\)); left: 1 search, 1 call$`)
	if !last.MatchString(lines[len(lines)-1]) {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
}

// The note names the lowest fee found, and the wait left as the buckets make it.
func TestSearchNote(t *testing.T) {
	start := time.Date(2026, 12, 10, 11, 30, 0, 0, time.UTC)
	off := func(fee string) advisor.Offering {
		return advisor.Offering{Offering: model.Offering{ID: "cb-" + fee, Region: "us-west-2", InstanceType: "p5.48xlarge", Count: 2,
			Start: start, End: start.Add(9 * 24 * time.Hour), DurationHours: 216, Fee: model.MustMoney(fee), Currency: "USD"}}
	}
	left := capacityblocks.SearchCost{Calls: 20, Region: "us-east-1", Wait: 67 * time.Second}
	got := searchNote(2, 9, []advisor.Offering{off("9000.00"), off("8000.50"), off("8500.00")}, left)
	want := "gpublock advise: search 3 of 9; 3 offerings so far, the lowest fee $8,000.50 USD (p5.48xlarge × 2 for 9d, us-west-2, from 2026-12-10 11:30 UTC); " +
		"left: 7 searches, 20 calls: about 67 seconds at AWS's rate in us-east-1"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := searchNote(1, 2, nil, capacityblocks.SearchCost{}); got != "gpublock advise: search 2 of 2; nothing on offer so far; left: 1 search" {
		t.Fatalf("got %q", got)
	}
}

// A SageMaker job's searches are training plans': their calls are counted too.
func TestRecurringSageMakerAdviceCountsPlanCalls(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	old := progressAfter
	progressAfter = 0
	t.Cleanup(func() { progressAfter = old })
	code, out, errs := cli.Run("advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--instances", "2",
		"--monthly-hours", "200", "--months", "12", "--sagemaker", "--region", "us-east-1")
	if code != 0 || !strings.Contains(out, "RANK") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	m := regexp.MustCompile(`search 1 of (\d+); the advice follows the last; left: (\d+) searches, (\d+) calls`).FindStringSubmatch(errs)
	if m == nil || m[1] != m[2] || m[3] != m[1] { // one type, one length, one region: a call a search
		t.Fatalf("stderr:\n%s", errs)
	}
}
