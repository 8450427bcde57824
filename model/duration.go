package model

import (
	"fmt"
	"strconv"
	"strings"
)

// DurationRange is one block length or a range of lengths to sweep, in whole days.
// Single durations have MinDays == MaxDays.
type DurationRange struct{ MinDays, MaxDays int }

// Days returns every valid duration in the range.
func (r DurationRange) Days() []int { return DurationsBetween(r.MinDays, r.MaxDays) }

// IsRange reports whether more than one duration is asked for.
func (r DurationRange) IsRange() bool { return r.MaxDays != r.MinDays }

func (r DurationRange) String() string {
	if !r.IsRange() {
		return FormatDays(r.MinDays)
	}
	return FormatDays(r.MinDays) + "-" + FormatDays(r.MaxDays)
}

// FormatDays writes a duration the way people say it: "2d", "3w".
func FormatDays(days int) string {
	if days >= weeklyFrom && days%7 == 0 {
		return fmt.Sprintf("%dw", days/7)
	}
	return fmt.Sprintf("%dd", days)
}

const (
	lengthHelp   = "1d–14d in whole days or 3w–26w in whole weeks (e.g. 2d, 48h, 3w)"
	durationHelp = "1d–14d in whole days or 3w–26w in whole weeks (e.g. 2d, 48h, 3w, or a range 2d-7d)"
)

// ParseLength reads one length AWS sells ("2d", "48h", "3w"), as an extension and the
// auto-extension policy take it: a range is refused, and no message offers one.
func ParseLength(s string) (int, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if strings.Contains(s, "-") {
		return 0, fmt.Errorf("%q: give one length, not a range", s)
	}
	d, err := parseDays(s, lengthHelp)
	if err != nil {
		return 0, err
	}
	if !ValidDuration(d) {
		return 0, fmt.Errorf("duration %q (%d days) is not sold; allowed: %s", s, d, lengthHelp)
	}
	return d, nil
}

// ParseDuration reads "2d", "48h", "3w" or a range "2d-7d". A single duration must be one
// AWS sells; a range needs at least one valid duration inside it.
func ParseDuration(s string) (DurationRange, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if lo, hi, ok := strings.Cut(s, "-"); ok {
		if lo == "" || hi == "" {
			return DurationRange{}, fmt.Errorf("duration %q: want a duration such as 2d or a range such as 2d-7d; allowed: %s", s, durationHelp)
		}
		a, err := parseDays(lo, durationHelp)
		if err != nil {
			return DurationRange{}, err
		}
		b, err := parseDays(hi, durationHelp)
		if err != nil {
			return DurationRange{}, err
		}
		r := DurationRange{a, b}
		if a > b {
			return DurationRange{}, fmt.Errorf("duration range %q: the first must not be longer than the second", s)
		}
		if len(r.Days()) == 0 {
			return DurationRange{}, fmt.Errorf("duration range %q holds no valid duration; allowed: %s", s, durationHelp)
		}
		return r, nil
	}
	d, err := parseDays(s, durationHelp)
	if err != nil {
		return DurationRange{}, err
	}
	if !ValidDuration(d) {
		return DurationRange{}, fmt.Errorf("duration %q (%d days) is not sold; allowed: %s", s, d, durationHelp)
	}
	return DurationRange{d, d}, nil
}

func parseDays(s, help string) (int, error) {
	if len(s) < 2 {
		return 0, fmt.Errorf("duration %q: want a number and a unit; allowed: %s", s, help)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("duration %q: want a positive whole number and a unit; allowed: %s", s, help)
	}
	switch s[len(s)-1] {
	case 'd':
		return n, nil
	case 'w':
		return n * 7, nil
	case 'h':
		if n%24 != 0 {
			return 0, fmt.Errorf("duration %q: hours must be a whole number of days (24h, 48h…); allowed: %s", s, help)
		}
		return n / 24, nil
	}
	return 0, fmt.Errorf("duration %q: unit must be h, d or w; allowed: %s", s, help)
}

// ParseDayRange reads the syntax of a length or a range of lengths ("2d", "48h", "3w",
// "2d-7d") in whole days, without a source's rule of which lengths are sold.
func ParseDayRange(s string) (lo, hi int, err error) {
	s = strings.TrimSpace(strings.ToLower(s))
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		b = a
	}
	if a == "" || b == "" {
		return 0, 0, fmt.Errorf("duration %q: want a length such as 2d or a range such as 2d-7d", s)
	}
	if lo, err = parseDays(a, durationHelp); err != nil {
		return 0, 0, err
	}
	if hi, err = parseDays(b, durationHelp); err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("duration range %q: the first must not be longer than the second", s)
	}
	return lo, hi, nil
}
