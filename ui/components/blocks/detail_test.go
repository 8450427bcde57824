package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// At 80 columns a value longer than the pane goes on under itself instead of being cut:
// the fee's source and what the termination time means were lost behind "…".
func TestDetailWrapsLongValues(t *testing.T) {
	b := block("cr-0123456789abcdef0", model.StateActive, 1, end)
	fee, _ := model.ParseMoney("6118.88")
	var lines []string
	for _, l := range detailLines(theme.New(false), model.DefaultWarnRules(), b, fee, true, end.Add(-5*time.Hour), time.UTC, nil, 78) {
		l = ansi.Strip(l)
		if w := ansi.StringWidth(l); w > 78 {
			t.Errorf("a line of %d cells in 78: %q", w, l)
		}
		if strings.HasSuffix(l, "…") && !strings.HasPrefix(l, "Console") {
			t.Errorf("a cut line: %q", l)
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	all := strings.Join(lines, " ")
	for _, want := range []string{
		"$6,118.88 (this machine's purchase journal: the block and its extensions)",
		"instances are terminated from 30 minutes before the end",
		"Reservation   cr-0123456789abcdef0  (y copies)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the detail lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// The detail's countdown is on the line of the time it counts to: "starts in" beside the
// start, "ends in" beside the end.
func TestDetailCountdownBesideItsTime(t *testing.T) {
	b := block("cr-1", model.StateScheduled, 0, end)
	line := func(v, label string) string {
		for _, l := range strings.Split(v, "\n") {
			if strings.HasPrefix(l, label) {
				return l
			}
		}
		return ""
	}
	v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, b.Start.Add(-3*time.Hour), time.UTC, 160, 40))
	if s, e := line(v, "Start "), line(v, "End "); !strings.Contains(s, "starts in 3h 00m") || strings.Contains(e, "starts in") {
		t.Errorf("before the start:\n%s\n%s", s, e)
	}
	v = ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-5*time.Hour), time.UTC, 160, 40))
	if s, e := line(v, "Start "), line(v, "End "); !strings.Contains(e, "ends in 5h 00m") || strings.Contains(s, "in ") {
		t.Errorf("while active:\n%s\n%s", s, e)
	}
}

// Where local time is UTC the block's times are said once.
func TestDetailLocalUTCSaidOnce(t *testing.T) {
	b := block("cr-1", model.StateActive, 1, end)
	v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-5*time.Hour), time.UTC, 160, 40))
	if strings.Contains(v, "11:30 UTC · Thu Dec 03 11:30 UTC") || !strings.Contains(v, "Thu 2026-12-03 11:30 UTC (local time too)") {
		t.Errorf("UTC said twice or not at all:\n%s", v)
	}
}

// The detail states the free count the CLI's table and the launch confirmations state (a
// payment-pending block's whole count), with AWS's available count beside it when it differs.
func TestDetailStatesTheFreeCount(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := model.Block{ReservationID: "cr-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, AvailableCount: 0, State: model.StatePaymentPending, Start: start, End: start.Add(48 * time.Hour)}
	v := strings.Join(strings.Fields(ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, start.Add(-3*time.Hour), time.UTC, 160, 40))), " ")
	if !strings.Contains(v, "0 of 2 instances (2 free; AWS counts 0 available until it starts)") {
		t.Fatalf("payment pending:\n%s", v)
	}
	b.State, b.AvailableCount, b.RunningCount = model.StateActive, 1, 1
	v = strings.Join(strings.Fields(ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, start.Add(time.Hour), time.UTC, 160, 40))), " ")
	if !strings.Contains(v, "1 of 2 instances (1 free)") {
		t.Fatalf("active:\n%s", v)
	}
}

// A plan's top warning is said in its own words (a pending payment is a pending payment,
// not the end of the plan), and what the end means is a field of its own whatever the
// warning.
func TestPlanDetailSaysItsWarning(t *testing.T) {
	start := time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC)
	plan := model.Block{Source: model.SourceTrainingPlan, ReservationID: "gpb-1", Region: "us-east-1", InstanceType: "ml.p5.48xlarge",
		TotalCount: 1, State: model.StatePaymentPending, Start: start, End: start.Add(48 * time.Hour)}
	var lines []string
	for _, l := range planDetailLines(theme.New(false), model.DefaultWarnRules(), plan, start.Add(-22*time.Hour), time.UTC, 118) {
		lines = append(lines, ansi.Strip(l))
	}
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, "$ PAY PENDING: training plan gpb-1 (ml.p5.48xlarge × 1, us-east-1): payment pending") {
		t.Errorf("the warning is not the plan's:\n%s", all)
	}
	if flat := strings.Join(strings.Fields(all), " "); !strings.Contains(flat, "Ends "+planEnding) {
		t.Errorf("what the end means is missing:\n%s", all)
	}
	if strings.Contains(all, "PAY PENDING: "+planEnding) {
		t.Errorf("a pending payment said as the plan's end:\n%s", all)
	}
}

// The detail keeps a terminated instance, with when it stopped, instead of "none running".
func TestDetailKeepsTerminatedInstances(t *testing.T) {
	b := block("cr-1", model.StateActive, 0, end)
	b.Instances = []model.Instance{
		{ID: "i-0aaa", State: "running", LaunchTime: end.Add(-5 * time.Hour)},
		{ID: "i-0bbb", State: "terminated", LaunchTime: end.Add(-6 * time.Hour), StoppedAt: end.Add(-2 * time.Hour)},
	}
	v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-time.Hour), time.UTC, 160, 60))
	if !strings.Contains(v, "Instances (2)") || !strings.Contains(v, "i-0bbb") || !strings.Contains(v, "stopped "+end.Add(-2*time.Hour).Format("Jan 02 15:04 UTC")) {
		t.Errorf("the detail lacks the terminated instance or its stop time:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "i-0aaa") && strings.Contains(l, "stopped") {
			t.Errorf("a running instance said stopped: %q", l)
		}
	}
	b.Instances = nil
	if v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-time.Hour), time.UTC, 160, 60)); strings.Contains(v, "none running") {
		t.Errorf("an empty list says \"none running\", as if the terminated ones were none:\n%s", v)
	}
}
