package model

import (
	"testing"
	"time"
)

func TestBothTimesAndExactFee(t *testing.T) {
	at := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	pst := time.FixedZone("PST", -8*3600)
	for _, tc := range []struct {
		loc  *time.Location
		want string
	}{
		{nil, "2026-12-03 11:30 UTC"},
		{time.UTC, "2026-12-03 11:30 UTC"},
		{pst, "2026-12-03 11:30 UTC · 2026-12-03 03:30 PST"},
	} {
		if s := BothTimes(at, tc.loc); s != tc.want {
			t.Errorf("BothTimes(%v) = %q, want %q", tc.loc, s, tc.want)
		}
	}
	if s := ExactFee(MustMoney("7551.36"), "USD"); s != "$7,551.36 USD" {
		t.Errorf("ExactFee = %q", s)
	}
	if s := ExactFee(MustMoney("47.757"), ""); s != "$47.76 USD (exactly $47.757)" {
		t.Errorf("ExactFee = %q", s)
	}
}

func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		d                  time.Duration
		short, precise, hm string
	}{
		{45*time.Minute + 29*time.Second, "45m", "45m 29s", "0 h 45 min"},
		{5*time.Hour + 20*time.Minute + 40*time.Second, "5h 21m", "5h 20m 40s", "5 h 20 min"},
		{51 * time.Hour, "2d 3h", "2d 03h 00m", "51 hours"},
		{-90 * time.Minute, "1h 30m", "now", ""},
	} {
		if s := ShortSpan(tc.d); s != tc.short {
			t.Errorf("ShortSpan(%v) = %q, want %q", tc.d, s, tc.short)
		}
		if s := PreciseSpan(tc.d); s != tc.precise {
			t.Errorf("PreciseSpan(%v) = %q, want %q", tc.d, s, tc.precise)
		}
		if tc.hm != "" {
			if s := HoursMinutes(int64(tc.d / time.Minute)); s != tc.hm {
				t.Errorf("HoursMinutes(%v) = %q, want %q", tc.d, s, tc.hm)
			}
		}
	}
}

func TestShortCountdownAndTermination(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := Block{State: StateActive, Start: start, End: start.Add(48 * time.Hour)}
	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{start.Add(-90*time.Minute - 20*time.Second), "starts in 1h 30m"},
		{start.Add(47*time.Hour + 15*time.Minute), "ends in 45m"},
		{start.Add(50 * time.Hour), "ended 2h 0m ago"},
	} {
		if s := b.ShortCountdown(tc.now); s != tc.want {
			t.Errorf("ShortCountdown at %v = %q, want %q", tc.now, s, tc.want)
		}
	}
	if s := b.TerminationCell(); s != "2026-12-05 11:00" {
		t.Errorf("TerminationCell = %q", s)
	}
	b.State = StatePaymentFailed
	if s, c := b.TerminationCell(), b.ShortCountdown(start.Add(-time.Hour)); s != "—" || c != "will not start" {
		t.Errorf("a failed block: termination %q, countdown %q", s, c)
	}
}

func TestOfferingLength(t *testing.T) {
	for _, tc := range []struct {
		h, m int
		want string
	}{{48, 0, "2d"}, {504, 0, "3w"}, {26, 5, "~1d2h"}, {2, 35, "2h35m"}, {47, 40, "~2d"}, {51, 35, "~2d4h"}, {64, 0, "2d16h"}, {40, 0, "1d16h"}, {5, 0, "5h"}} {
		if got := (Offering{DurationHours: tc.h, DurationMinutes: tc.m}).Length(); got != tc.want {
			t.Errorf("%dh%dm: %q, want %q", tc.h, tc.m, got, tc.want)
		}
	}
}

func TestInstanceHourlyRateOfAnUltraServer(t *testing.T) {
	// u-p6e-gb200x36 × 2 for 24 hours: 18 member instances, 432 instance-hours.
	o := Offering{InstanceType: "u-p6e-gb200x36", UltraServerType: "u-p6e-gb200x36", Count: 2, UltraServerCount: 2, DurationHours: 24, Fee: MustMoney("43200")}
	if got := o.InstanceHourlyRate(); got.Cmp(MustMoney("100")) != 0 {
		t.Errorf("UltraServer: %s per instance-hour, want 100", got)
	}
	if got := o.HourlyRate(); got.Cmp(MustMoney("900")) != 0 {
		t.Errorf("UltraServer: %s per UltraServer-hour, want 900", got)
	}
	p := Offering{InstanceType: "p5.48xlarge", Count: 2, DurationHours: 24, Fee: MustMoney("4800")}
	if got := p.InstanceHourlyRate(); got.Cmp(p.HourlyRate()) != 0 || got.Cmp(MustMoney("100")) != 0 {
		t.Errorf("p5: %s per instance-hour, want 100", got)
	}
}

func TestPlanCountdown(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	p := Block{Source: SourceTrainingPlan, State: StateActive, Start: start, End: start.Add(48 * time.Hour)}
	if s := p.PlanCountdown(start.Add(-30 * time.Minute)); s != "starts in 30m" {
		t.Errorf("before: %q", s)
	}
	if s := p.PlanCountdown(start.Add(46 * time.Hour)); s != "ends in 2h 0m (its jobs stop then)" {
		t.Errorf("running: %q", s)
	}
	p.State = StateExpired
	if s := p.PlanCountdown(start.Add(49 * time.Hour)); s != "Expired" {
		t.Errorf("over: %q", s)
	}
}
