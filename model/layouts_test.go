package model

import (
	"strings"
	"testing"
	"time"
)

// Each layout writes what its comment promises.
func TestLayouts(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 5, 0, 0, time.UTC)
	for layout, want := range map[string]string{
		LayoutMinute: "2026-12-01 09:05", LayoutMinuteUTC: "2026-12-01 09:05 UTC", LayoutMinuteZone: "2026-12-01 09:05 UTC",
		LayoutWeekdayMinute: "Tue 2026-12-01 09:05", LayoutShort: "Dec 01 09:05", LayoutShortUTC: "Dec 01 09:05 UTC", LayoutClock: "09:05",
		LayoutClockUTC: "09:05 UTC", LayoutClockZone: "09:05 UTC", LayoutSecondsUTC: "09:05:00 UTC", LayoutDay: "Dec 01",
		LayoutWeekdayDay: "Tue Dec 01", LayoutMonth: "2026-12",
	} {
		if got := at.Format(layout); got != want {
			t.Errorf("%q writes %q, want %q", layout, got, want)
		}
	}
}

// A time is written in local time beside UTC only where the two read differently: another
// offset, or another name at the same offset.
func TestLocalTimeBesideUTC(t *testing.T) {
	at := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		loc  *time.Location
		want string
	}{
		{nil, "Tue 2026-12-01 11:30 UTC (local time too)"},
		{time.UTC, "Tue 2026-12-01 11:30 UTC (local time too)"},
		{time.FixedZone("UTC", 0), "Tue 2026-12-01 11:30 UTC (local time too)"},
		{time.FixedZone("GMT", 0), "Tue 2026-12-01 11:30 UTC · Tue Dec 01 11:30 GMT"},
		{time.FixedZone("PST", -8*3600), "Tue 2026-12-01 11:30 UTC · Tue Dec 01 03:30 PST"},
	} {
		if got := WeekdayTimes(at, tc.loc); got != tc.want {
			t.Errorf("WeekdayTimes(%v) = %q, want %q", tc.loc, got, tc.want)
		}
		if differs := LocalDiffers(at, tc.loc); differs != strings.Contains(tc.want, " · ") {
			t.Errorf("LocalDiffers(%v) = %v", tc.loc, differs)
		}
	}
}
