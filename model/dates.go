package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDate reads a date as a person types it: "2026-12-03" (midnight UTC), RFC 3339
// ("2026-12-03T11:30:00Z"), "now", or relative to now ("+2w", "+10d", "+36h").
func ParseDate(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return time.Time{}, fmt.Errorf("empty date; want 2026-12-03, RFC 3339, now, or +2w/+10d/+36h")
	case strings.EqualFold(s, "now"):
		return now.UTC(), nil
	case strings.HasPrefix(s, "+"):
		body := s[1:]
		if len(body) < 2 {
			return time.Time{}, fmt.Errorf("date %q: want a relative date such as +2w, +10d or +36h", s)
		}
		n, err := strconv.Atoi(body[:len(body)-1])
		if err != nil || n < 0 {
			return time.Time{}, fmt.Errorf("date %q: want a relative date such as +2w, +10d or +36h", s)
		}
		switch body[len(body)-1] {
		case 'h':
			return now.UTC().Add(time.Duration(n) * time.Hour), nil
		case 'd':
			return now.UTC().AddDate(0, 0, n), nil
		case 'w':
			return now.UTC().AddDate(0, 0, 7*n), nil
		}
		return time.Time{}, fmt.Errorf("date %q: unit must be h, d or w", s)
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("date %q: want 2026-12-03, RFC 3339 (2026-12-03T11:30:00Z), now, or +2w/+10d/+36h", s)
}
