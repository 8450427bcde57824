package model

import (
	"strings"
	"time"
)

// FormatInterval writes an interval as people say it and as the flags read it: 5m, 1h30m,
// 24h, 1m30s (time.Duration's 5m0s, 1h0m0s without their zeros). Over a second it is
// rounded to the second.
func FormatInterval(d time.Duration) string {
	if d >= time.Second {
		d = d.Round(time.Second)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
