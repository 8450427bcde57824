package model

import (
	"testing"
	"time"
)

// Each layout writes what its comment promises.
func TestLayouts(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 5, 0, 0, time.UTC)
	for layout, want := range map[string]string{
		LayoutMinute: "2026-12-01 09:05", LayoutMinuteUTC: "2026-12-01 09:05 UTC", LayoutMinuteZone: "2026-12-01 09:05 UTC",
		LayoutWeekdayMinute: "Tue 2026-12-01 09:05", LayoutShort: "Dec 01 09:05", LayoutShortUTC: "Dec 01 09:05 UTC", LayoutClock: "09:05",
	} {
		if got := at.Format(layout); got != want {
			t.Errorf("%q writes %q, want %q", layout, got, want)
		}
	}
}
