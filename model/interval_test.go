package model

import (
	"testing"
	"time"
)

func TestFormatInterval(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5 * time.Minute: "5m", time.Hour: "1h", 90 * time.Minute: "1h30m", 24 * time.Hour: "24h",
		90 * time.Second: "1m30s", 40 * time.Second: "40s", 2*time.Hour + 40*time.Minute: "2h40m",
		time.Hour + 1500*time.Millisecond: "1h0m2s", 10 * time.Millisecond: "10ms",
	} {
		if got := FormatInterval(d); got != want {
			t.Errorf("FormatInterval(%v) = %q, want %q", d, got, want)
		}
	}
	// Warning leads are written as they are read.
	if got := FormatWarnLeads([]time.Duration{24 * time.Hour, 2 * time.Hour, 40 * time.Minute, 90 * time.Minute}); got != "24h,2h,40m,1h30m" {
		t.Errorf("FormatWarnLeads = %q", got)
	}
}
