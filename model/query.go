package model

import (
	"fmt"
	"strings"
	"time"
)

// Query is what a person searches for: one or more types, a count, one duration or a range
// of durations to sweep, a window in which the block must start and end, and the regions.
type Query struct {
	InstanceTypes []string
	Count         int
	Durations     DurationRange
	Start, End    time.Time
	Regions       []string
	// AllZones also searches the zones the account has not opted in to, Local Zones among
	// them (AWS's AllAvailabilityZones).
	AllZones bool
	// Sources are the systems searched; none means Capacity Blocks only. Targets are the
	// SageMaker resources a training plan is for (training jobs when none is given).
	Sources []Source
	Targets []string
}

// Searches reports whether the query searches source.
func (q Query) Searches(s Source) bool {
	if len(q.Sources) == 0 {
		return s == SourceCapacityBlock
	}
	for _, x := range q.Sources {
		if x == s {
			return true
		}
	}
	return false
}

// FieldError names a field, the value given and what is allowed.
type FieldError struct {
	Field, Value, Allowed string
}

func (e FieldError) Error() string {
	return fmt.Sprintf("%s: %s is not allowed; %s", e.Field, e.Value, e.Allowed)
}

// ValidationErrors is every problem of a query, in field order.
type ValidationErrors []FieldError

func (v ValidationErrors) Error() string {
	parts := make([]string, len(v))
	for i, e := range v {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// For returns the error of one field, if any.
func (v ValidationErrors) For(field string) (FieldError, bool) {
	for _, e := range v {
		if e.Field == field {
			return e, true
		}
	}
	return FieldError{}, false
}

// Field names used in errors.
const (
	FieldTypes    = "instance types"
	FieldCount    = "count"
	FieldDuration = "duration"
	FieldStart    = "start"
	FieldEnd      = "end"
	FieldRegions  = "regions"
)

// Validate checks the query against AWS's rules at the moment now. It returns nil or
// ValidationErrors.
func (q Query) Validate(now time.Time) error {
	var errs ValidationErrors
	add := func(field, value, allowed string) { errs = append(errs, FieldError{field, value, allowed}) }

	if len(q.InstanceTypes) == 0 {
		add(FieldTypes, "none", "choose at least one type that Capacity Blocks sell")
	}
	for _, name := range q.InstanceTypes {
		if _, ok := LookupType(name); !ok {
			add(FieldTypes, fmt.Sprintf("%q", name), "Capacity Blocks sell "+strings.Join(typeNames(), ", "))
		}
	}
	if q.Count < MinCount || q.Count > MaxCount {
		add(FieldCount, fmt.Sprint(q.Count), fmt.Sprintf("a block has %d to %d instances", MinCount, MaxCount))
	}
	d := q.Durations
	switch {
	case d.MinDays <= 0 || d.MaxDays <= 0:
		add(FieldDuration, fmt.Sprintf("%d-%d days", d.MinDays, d.MaxDays), durationHelp)
	case d.MinDays > d.MaxDays:
		add(FieldDuration, d.String(), "a range must go from the shorter to the longer duration")
	case !d.IsRange() && !ValidDuration(d.MinDays):
		add(FieldDuration, d.String(), durationHelp)
	case d.IsRange() && len(d.Days()) == 0:
		add(FieldDuration, d.String(), "the range holds no valid duration; "+durationHelp)
	}

	limit := now.Add(MaxLeadTime)
	startOK := true
	switch {
	case q.Start.IsZero():
		add(FieldStart, "empty", "a date from now on")
		startOK = false
	case q.Start.Before(now.Add(-time.Minute)): // a minute of slack for a form typed "now"
		add(FieldStart, q.Start.UTC().Format(time.RFC3339), "the window cannot start in the past (now is "+now.UTC().Format(time.RFC3339)+")")
		startOK = false
	case !q.Start.Before(limit):
		add(FieldStart, q.Start.UTC().Format(time.RFC3339), "blocks can be booked at most 8 weeks ahead (until "+limit.UTC().Format(LayoutMinute)+" UTC)")
		startOK = false
	}
	endLimit := LatestEnd(now, d.MaxDays)
	switch {
	case q.End.IsZero():
		add(FieldEnd, "empty", "a date after the start, at most 8 weeks plus the block's length from now")
	case q.End.After(endLimit):
		add(FieldEnd, q.End.UTC().Format(time.RFC3339), "the window ends at most 8 weeks plus the block's length ahead ("+endLimit.UTC().Format(LayoutMinute)+" UTC)")
	case startOK && !q.End.After(q.Start):
		add(FieldEnd, q.End.UTC().Format(time.RFC3339), "the end must be after the start ("+q.Start.UTC().Format(time.RFC3339)+")")
	case startOK && d.MinDays > 0 && q.End.Sub(q.Start) < time.Duration(d.MinDays)*24*time.Hour-24*time.Hour:
		add(FieldEnd, q.End.UTC().Format(time.RFC3339), fmt.Sprintf("the window must be long enough for a %s block", FormatDays(d.MinDays)))
	}

	if len(q.Regions) == 0 {
		add(FieldRegions, "none", "choose at least one region")
	}
	for _, r := range q.Regions {
		if !knownRegion(r) {
			add(FieldRegions, fmt.Sprintf("%q", r), "Capacity Blocks are sold in "+strings.Join(Regions(), ", "))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func typeNames() []string {
	out := make([]string, len(catalog))
	for i, t := range catalog {
		out[i] = t.Name
	}
	return out
}

func knownRegion(r string) bool {
	for _, k := range Regions() {
		if k == r {
			return true
		}
	}
	return false
}
