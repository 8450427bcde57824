package model

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
	// LayoutShort is a date and time in a narrow column: Dec 01 09:00.
	LayoutShort = "Jan 02 15:04"
	// LayoutShortUTC is LayoutShort of a time in UTC, saying so.
	LayoutShortUTC = LayoutShort + " UTC"
	// LayoutClock is the time of day: 09:00.
	LayoutClock = "15:04"
)
