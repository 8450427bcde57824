package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// The thresholds: amber from 40 minutes before the end, red from 30, at the exact minute.
func TestWarningThresholds(t *testing.T) {
	for _, tc := range []struct {
		st      model.BlockState
		running int
		before  time.Duration
		want    Warning
	}{
		{model.StateActive, 1, 25 * time.Hour, NoWarning},
		{model.StateActive, 1, 24 * time.Hour, ExtendBy},
		{model.StateActive, 1, time.Hour + time.Second, ExtendBy},
		{model.StateActive, 1, time.Hour, CantExtend},
		{model.StateActive, 1, 41 * time.Minute, CantExtend},
		{model.StateActive, 1, 40*time.Minute + time.Second, CantExtend},
		{model.StateActive, 1, 40 * time.Minute, Expiring},
		{model.StateActive, 0, 40 * time.Minute, Expiring}, // ending outranks idle
		{model.StateActive, 1, 30*time.Minute + time.Second, Expiring},
		{model.StateActive, 1, 30 * time.Minute, Terminating},
		{model.StateActive, 1, 0, Terminating},          // listed active at the end, before AWS says expired
		{model.StateActive, 0, 5 * time.Hour, ExtendBy}, // extending outranks idle
		{model.StateActive, 0, 30 * time.Hour, Idle},
		{model.StateScheduled, 0, 30 * time.Hour, NoWarning},
		{model.StatePaymentPending, 0, 30 * time.Hour, PaymentPending},
		{model.StatePaymentFailed, 0, 30 * time.Hour, PaymentFailed},
		{model.StateExpired, 0, -time.Minute, NoWarning},
	} {
		b := block("cr-1", tc.st, tc.running, end)
		if got := WarningOf(b, end.Add(-tc.before)); got != tc.want {
			t.Errorf("%s, %d running, %s before the end: %q, want %q", tc.st, tc.running, tc.before, got.Word(), tc.want.Word())
		}
	}
	if !Terminating.Red() || !PaymentFailed.Red() || Expiring.Red() || Idle.Red() {
		t.Error("red is for terminating and payment failed only")
	}
}

func TestSpanAndCountdown(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{26*time.Hour + 5*time.Minute, "1d 2h"}, {5*time.Hour + 7*time.Minute, "5h 07m"}, {39*time.Minute + 12*time.Second, "39m 12s"},
		{35*time.Minute - 3*time.Nanosecond, "35m 00s"}, {-90 * time.Second, "1m 30s"}} {
		if got := model.Span(tc.d); got != tc.want {
			t.Errorf("Span(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
	b := block("cr-1", model.StateActive, 1, end)
	for now, want := range map[time.Time]string{
		b.Start.Add(-time.Hour):    "starts in 1h 00m",
		end.Add(-39 * time.Minute): "ends in 39m 00s",
		end.Add(2 * time.Minute):   "ended 2m 00s ago",
	} {
		if got := b.Countdown(now); got != want {
			t.Errorf("Countdown at %s = %q, want %q", now.Format("15:04"), got, want)
		}
	}
	if got := ToTermination(b, end.Add(-time.Hour)); got != "30m 00s" {
		t.Errorf("ToTermination an hour before the end: %q", got)
	}
	if got := ToTermination(b, end.Add(-10*time.Minute)); got != "terminating" {
		t.Errorf("ToTermination 10 minutes before the end: %q", got)
	}
	if got := ConsoleURL(model.Block{Region: "eu-north-1", ReservationID: "cr-0abc"}); got !=
		"https://eu-north-1.console.aws.amazon.com/ec2/home?region=eu-north-1#CapacityReservationDetails:crId=cr-0abc" {
		t.Errorf("ConsoleURL: %s", got)
	}
}

// A payment-failed block never starts: no countdown, no termination time, in the table or
// the detail, which says what to do instead; it is warned of until the end it would have had.
func TestPaymentFailedCountsToNothing(t *testing.T) {
	b := block("cr-f", model.StatePaymentFailed, 0, end)
	before, during := b.Start.Add(-3*time.Hour), end.Add(-20*time.Minute)
	for now, want := range map[time.Time]string{before: "will not start", during: "never started"} {
		if got := b.Countdown(now); got != want {
			t.Errorf("Countdown at %s = %q, want %q", now.Format("Jan 02 15:04"), got, want)
		}
		if got := ToTermination(b, now); got != "—" {
			t.Errorf("ToTermination at %s = %q, want —", now.Format("Jan 02 15:04"), got)
		}
		if got := WarningOf(b, now); got != PaymentFailed {
			t.Errorf("warning at %s: %q, want %q", now.Format("Jan 02 15:04"), got.Word(), PaymentFailed.Word())
		}
	}
	if got := WarningOf(b, end); got != NoWarning {
		t.Errorf("warning at the end it would have had: %q, want none", got.Word())
	}

	m := New(theme.New(false))
	m.Set([]model.Block{b}, nil, before)
	v := ansi.Strip(m.View(200, 5))
	if !strings.Contains(v, "✖ PAY FAILED") || !strings.Contains(v, "will not start") || strings.Contains(v, "starts in") || strings.Contains(v, "30m 00s") {
		t.Errorf("the row counts down, or does not say it will not start:\n%s", v)
	}

	for _, now := range []time.Time{before, during} {
		d := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, now, time.UTC, 200, 40))
		for _, want := range []string{"✖ PAY FAILED", "will not start", "Terminates at — (nothing runs in it: its payment failed)", "payment method", "search again"} {
			if !strings.Contains(d, want) {
				t.Errorf("at %s the detail lacks %q:\n%s", now.Format("Jan 02 15:04"), want, d)
			}
		}
		for _, bad := range []string{"starts in", "ends in", "instances are terminated from", b.TerminationAt().Format("15:04")} {
			if strings.Contains(d, bad) {
				t.Errorf("at %s the detail says %q:\n%s", now.Format("Jan 02 15:04"), bad, d)
			}
		}
	}
}

// An extension whose payment failed leaves the end where it was: warned of, in red, above
// the expiration warning, until another extension of that end is paid or being paid for.
func TestExtensionFailedWarning(t *testing.T) {
	ext := func(st model.ExtensionStatus, start time.Time) model.Extension {
		return model.Extension{ReservationID: "cr-x", DurationHours: 24, Status: st, Start: start, End: start.Add(24 * time.Hour)}
	}
	earlier := end.Add(-24 * time.Hour)
	for _, tc := range []struct {
		name string
		st   model.BlockState
		exts []model.Extension
		now  time.Time
		want Warning
	}{
		{"failed, active", model.StateActive, []model.Extension{ext(model.ExtensionPaymentFailed, end)}, end.Add(-5 * time.Hour), ExtensionFailed},
		{"failed, scheduled", model.StateScheduled, []model.Extension{ext(model.ExtensionPaymentFailed, end)}, end.Add(-50 * time.Hour), ExtensionFailed},
		{"failed, expiring", model.StateActive, []model.Extension{ext(model.ExtensionPaymentFailed, end)}, end.Add(-35 * time.Minute), ExtensionFailed},
		{"failed, terminating", model.StateActive, []model.Extension{ext(model.ExtensionPaymentFailed, end)}, end.Add(-10 * time.Minute), Terminating},
		{"failed, then tried again", model.StateActive, []model.Extension{ext(model.ExtensionPaymentFailed, end), ext(model.ExtensionPaymentPending, end)}, end.Add(-5 * time.Hour), Idle},
		{"failed on an earlier end, since extended", model.StateActive, []model.Extension{ext(model.ExtensionPaymentFailed, earlier), ext(model.ExtensionPaymentSucceeded, earlier)}, end.Add(-5 * time.Hour), ExtendBy},
		{"paid", model.StateActive, []model.Extension{ext(model.ExtensionPaymentSucceeded, earlier)}, end.Add(-5 * time.Hour), ExtendBy},
		{"failed, expired", model.StateExpired, []model.Extension{ext(model.ExtensionPaymentFailed, end)}, end.Add(time.Minute), NoWarning},
	} {
		b := block("cr-x", tc.st, 0, end)
		b.Extensions = tc.exts
		if got := WarningOf(b, tc.now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got.Word(), tc.want.Word())
		}
	}
	if !ExtensionFailed.Red() || ExtensionFailed <= Expiring || ExtensionFailed >= Terminating {
		t.Error("a failed extension is red, above expiring and below terminating")
	}
	b := block("cr-x", model.StateActive, 1, end)
	b.Extensions = []model.Extension{ext(model.ExtensionPaymentFailed, end)}
	now := end.Add(-5 * time.Hour)
	if s := ExtensionFailed.Sentence(b, now); !strings.Contains(s, "extension's payment failed") || !strings.Contains(s, "ends in 5h 00m (Dec 03 11:30 UTC)") {
		t.Errorf("the sentence: %q", s)
	}
	d := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, now, time.UTC, 220, 40))
	for _, want := range []string{"✖ EXT FAILED", "What to do", "extend again (e)", "payment-failed (the end did not move)", "ends in 5h 00m"} {
		if !strings.Contains(d, want) {
			t.Errorf("the detail lacks %q:\n%s", want, d)
		}
	}
}
