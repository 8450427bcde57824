package printers

import (
	"fmt"
	"time"

	"github.com/gpublock/gpublock/model"
)

// BothTimes writes a time in UTC and in local time side by side, as the dialogs do.
func BothTimes(t time.Time) string { return model.BothTimes(t, time.Local) }

func HoursMinutes(minutes int64) string { return model.HoursMinutes(minutes) }

// ExactFee is the fee as people read it, with the exact amount when cents round it.
func ExactFee(m model.Money, currency string) string { return model.ExactFee(m, currency) }

func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
