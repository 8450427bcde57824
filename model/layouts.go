package model

import "time"

// The layouts of the times gpublock writes, named by what they are for, so that a time
// reads the same in every command and screen. Times are written in UTC with the local time
// beside them (BothTimes); a layout that names no zone is for a time whose zone is said
// around it.
const (
	// LayoutMinute is a date and time to the minute: 2026-12-01 09:00.
	LayoutMinute = "2006-01-02 15:04"
	// LayoutMinuteUTC is LayoutMinute of a time in UTC, saying so.
	LayoutMinuteUTC = LayoutMinute + " UTC"
	// LayoutMinuteZone is LayoutMinute with the time's own zone's abbreviation.
	LayoutMinuteZone = LayoutMinute + " MST"
	// LayoutWeekdayMinute is LayoutMinute after the weekday: Tue 2026-12-01 09:00.
	LayoutWeekdayMinute = "Mon " + LayoutMinute
	// LayoutDay is a day in a sentence or a narrow column: Dec 01.
	LayoutDay = "Jan 02"
	// LayoutWeekdayDay is LayoutDay after the weekday: Tue Dec 01.
	LayoutWeekdayDay = "Mon " + LayoutDay
	// LayoutMonth is a calendar month: 2026-12.
	LayoutMonth = "2006-01"
	// LayoutShort is a date and time in a narrow column: Dec 01 09:00.
	LayoutShort = LayoutDay + " " + LayoutClock
	// LayoutShortUTC is LayoutShort of a time in UTC, saying so.
	LayoutShortUTC = LayoutShort + " UTC"
	// LayoutClock is the time of day: 09:00.
	LayoutClock = "15:04"
	// LayoutClockUTC is LayoutClock of a time in UTC, saying so.
	LayoutClockUTC = LayoutClock + " UTC"
	// LayoutClockZone is LayoutClock with the time's own zone's abbreviation.
	LayoutClockZone = LayoutClock + " MST"
	// LayoutSecondsUTC is the time of day to the second, in UTC: 09:00:05 UTC.
	LayoutSecondsUTC = "15:04:05 UTC"
	// LayoutFileStamp is a time in a file's name, to the second, sorting as it reads:
	// 20261201-090005.
	LayoutFileStamp = "20060102-150405"
)

// LocalDiffers says whether a time written in loc reads otherwise than in UTC: a zone of
// another offset, or of another name (GMT). Where it does not (servers reached over SSH
// often run in UTC), a time is written once, never the same time twice. A nil loc is UTC.
func LocalDiffers(t time.Time, loc *time.Location) bool {
	if loc == nil {
		return false
	}
	name, offset := t.In(loc).Zone()
	return offset != 0 || name != "UTC"
}

// WeekdayTimes is a time as the detail panes write it: in UTC with its weekday, then in loc,
// "Tue 2026-12-01 11:30 UTC · Tue Dec 01 03:30 PST"; once, saying so, where they read the
// same.
func WeekdayTimes(t time.Time, loc *time.Location) string {
	utc := t.UTC().Format(LayoutWeekdayMinute) + " UTC"
	if !LocalDiffers(t, loc) {
		return utc + " (local time too)"
	}
	return utc + " · " + t.In(loc).Format(LayoutWeekdayDay+" "+LayoutClockZone)
}
