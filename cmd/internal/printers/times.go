package printers

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// BothTimes writes a time in UTC and in local time side by side, as the dialogs do.
func BothTimes(t time.Time) string { return model.BothTimes(t, time.Local) }

func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
