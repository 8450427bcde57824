package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

func TestCommandsAndFacts(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 25, 0, 0, time.UTC) // near-term: ends at 11:30 the next day
	o := model.Offering{ID: "cbr-0123456789abcdef0", Region: "us-east-2", AvailabilityZone: "us-east-2b", InstanceType: "p5.48xlarge",
		Count: 2, Start: start, End: time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC), DurationHours: 50, DurationMinutes: 5,
		Fee: model.MustMoney("6838.5"), Currency: "USD", Tenancy: "default"}
	q := model.Query{Durations: model.DurationRange{MinDays: 1, MaxDays: 3},
		Start: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), End: time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC)}
	want := "aws ec2 describe-capacity-block-offerings --region us-east-2 --instance-type p5.48xlarge --instance-count 2 " +
		"--capacity-duration-hours 48 --start-date-range 2026-12-01T09:00:00Z --end-date-range 2026-12-20T00:00:00Z"
	if got := SearchCommand(o, q); got != want {
		t.Errorf("search command\n got %s\nwant %s", got, want)
	}
	if got := PurchaseCommand(o); got != "aws ec2 purchase-capacity-block --region us-east-2 --capacity-block-offering-id cbr-0123456789abcdef0 --instance-platform Linux/UNIX" {
		t.Errorf("purchase command %s", got)
	}
	loc := time.FixedZone("PST", -8*3600)
	v := ansi.Strip(View(theme.New(false), o, q, start.Add(-time.Hour), loc, false, 100, 40))
	for _, s := range []string{"$6,838.50", "cannot be cancelled", "Tue 2026-12-01 09:25 UTC", "Tue Dec 01 01:25 PST", "Why 11:30 UTC (03:30 PST)",
		"terminated from 11:00 UTC (03:00 PST)", "16× NVIDIA H100", "Starts      in 1h 0m", "~2d2h (50 hours 5 minutes)", "--capacity-block-offering-id cbr-0123456789abcdef0"} {
		if !strings.Contains(v, s) {
			t.Errorf("the detail lacks %q:\n%s", s, v)
		}
	}
	// Read-only mode removes every path that spends money, the purchase command too.
	ro := ansi.Strip(View(theme.New(false), o, q, start.Add(-time.Hour), loc, true, 100, 40))
	if strings.Contains(ro, "purchase-capacity-block") || strings.Contains(ro, "Y copies") || !strings.Contains(ro, "describe-capacity-block-offerings") {
		t.Errorf("read-only detail:\n%s", ro)
	}
	// Every wrapped command line but the last ends in a backslash, so a paste still runs.
	for w := 20; w < 140; w += 9 {
		lines := shellWrap(SearchCommand(o, q), w)
		for i, l := range lines {
			if i < len(lines)-1 && !strings.HasSuffix(l, " \\") {
				t.Fatalf("width %d line %d %q has no continuation", w, i, l)
			}
		}
		joined := strings.Join(strings.Fields(strings.ReplaceAll(strings.Join(lines, " "), "\\", "")), " ")
		if joined != SearchCommand(o, q) {
			t.Fatalf("width %d: rejoined %q", w, joined)
		}
	}
}

// Where local time is UTC the detail says each time once, not "11:30 UTC (11:30 UTC)".
func TestLocalUTCSaidOnce(t *testing.T) {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	o := model.Offering{ID: "cbr-0123456789abcdef0", Region: "us-east-2", AvailabilityZone: "us-east-2b", InstanceType: "p5.48xlarge",
		Count: 1, Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48, Fee: model.MustMoney("2859.69"), Currency: "USD"}
	v := ansi.Strip(View(theme.New(false), o, model.Query{}, start.Add(-time.Hour), time.UTC, false, 120, 40))
	for _, bad := range []string{"(11:30 UTC)", "(11:00 UTC)", "UTC local"} {
		if strings.Contains(v, bad) {
			t.Errorf("the detail repeats UTC as local time (%q):\n%s", bad, v)
		}
	}
	for _, s := range []string{"Why 11:30 UTC?", "terminated from 11:00 UTC,", "Tue 2026-12-01 11:30 UTC"} {
		if !strings.Contains(v, s) {
			t.Errorf("the detail lacks %q:\n%s", s, v)
		}
	}
}

// The detail of an offering whose start has passed says it is not for sale, not "now".
func TestStartedOfferingDetail(t *testing.T) {
	start := time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC)
	o := twoDays("cb-1", start, "7000.00")
	plan := o
	plan.Source, plan.ID, plan.InstanceType = model.SourceTrainingPlan, "tpo-1", "ml.p5.48xlarge"
	plan.Parts = []model.Part{{AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start, End: o.End, Hours: 48}}
	for _, off := range []model.Offering{o, plan} {
		before := flatView(off, start.Add(-2*time.Hour))
		after := flatView(off, start.Add(time.Minute))
		if !strings.Contains(before, "Starts in 2h") || strings.Contains(before, StartedWords) {
			t.Errorf("%s before its start:\n%s", off.ID, before)
		}
		if !strings.Contains(after, "Starts "+StartedWords) {
			t.Errorf("%s after its start:\n%s", off.ID, after)
		}
	}
}

func flatView(o model.Offering, now time.Time) string {
	return strings.Join(strings.Fields(ansi.Strip(View(theme.New(false), o, model.Query{}, now, time.UTC, false, 120, 60))), " ")
}

// twoDays is a block of one p5.48xlarge for two days from start in us-east-1, for fee.
func twoDays(id string, start time.Time, fee string) model.Offering {
	return model.Offering{ID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", Count: 1,
		Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48, Fee: model.MustMoney(fee), Currency: "USD"}
}
