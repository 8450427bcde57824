package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// unknownCell is an unknown or undefined figure in the table and the SVG.
const unknownCell = "—"

// String is the amount for people: "$7,551.36", "$7,551.36 + 1 unknown", or "unknown
// (2 payments)" when no amount is known.
func (a Amount) String() string {
	switch {
	case a.Unknown == 0:
		return a.Known.Dollars()
	case a.Unknown == a.Payments:
		return fmt.Sprintf("unknown (%s)", model.Plural(a.Unknown, "payment", "payments"))
	}
	return fmt.Sprintf("%s + %d unknown", a.Known.Dollars(), a.Unknown)
}

// String is the hours with one decimal, or "—".
func (h Hours) String() string {
	if !h.Known {
		return unknownCell
	}
	return formatHours(h.Value)
}

// String is the amount in dollars and cents, or "—".
func (c Cost) String() string {
	if !c.Known {
		return unknownCell
	}
	return c.Value.Dollars()
}

// Rate is the amount as a rate with three decimals ("$12.345"), or "—".
func (c Cost) Rate() string {
	if !c.Known {
		return unknownCell
	}
	return c.Value.Rate()
}

// formatHours is hours with one decimal and thousands separators: "1,234.5".
func formatHours(h float64) string {
	s := strconv.FormatFloat(h, 'f', 1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	sign := ""
	if strings.HasPrefix(whole, "-") {
		sign, whole = "-", whole[1:]
	}
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + "." + frac
}

// percent is a share (0–1) in whole percent.
func percent(share float64) string { return strconv.FormatFloat(share*100, 'f', 0, 64) + "%" }

// utc is a time as the report prints it: "2026-11-03 11:30 UTC".
func utc(t time.Time) string { return t.UTC().Format(model.LayoutMinuteZone) }

// windowWords says the report's window: "2026-01-01 00:00 UTC to 2026-12-01 08:00 UTC".
func (r Report) windowWords() string {
	to := utc(r.To)
	if r.Now.Equal(r.To) {
		to += " (now)"
	}
	return utc(r.From) + " to " + to
}

// roundHours keeps hours to the second in the machine outputs, so that sums of
// floating-point hours print as the hours they are.
func roundHours(h float64) float64 { return float64(seconds(h)) / 3600 }

// UnknownWords is the report's sentence about the payments of unknown amount, "" when
// there is none: "2 payments of unknown amount: cr-1 (purchase, 2026-03-01), …".
func (r Report) UnknownWords() string {
	if len(r.UnknownAmounts) == 0 {
		return ""
	}
	var ids []string
	for _, p := range r.UnknownAmounts {
		ids = append(ids, fmt.Sprintf("%s (%s, %s)", p.ReservationID, p.Kind, p.At.UTC().Format(time.DateOnly)))
	}
	return fmt.Sprintf("%s of unknown amount, not counted in the totals: %s", model.Plural(len(r.UnknownAmounts), "payment", "payments"), strings.Join(ids, ", "))
}
