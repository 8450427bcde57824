package model

import (
	"errors"
	"fmt"
	"strings"
)

// SweepLengths is how many lengths one search of the source may sweep, each length being
// one call per region and type: a training plan search asks each length apart, under
// SageMaker's request limits; a Capacity Block search asks a range in one call (0: no
// bound).
func (s Source) SweepLengths() int {
	if s == SourceTrainingPlan {
		return 14
	}
	return 0
}

// CheckSweep refuses a range of lo to hi days that holds more lengths than one search of
// the source sweeps.
func (s Source) CheckSweep(lo, hi int) error {
	if n := s.SweepLengths(); n > 0 && hi-lo+1 > n {
		return fmt.Errorf("a %s search sweeps at most %d lengths (one call each per region and type); narrow the range", strings.ToLower(s.Label()), n)
	}
	return nil
}

// QueryFault is a rule of a source that a query breaks.
type QueryFault struct {
	// Field is FieldDuration, FieldTypes or FieldCount.
	Field string
	// Value is what is at fault: the range of lengths, a type; "" when no type is given.
	Value string
	// Err is the source's rule, in words that name the source.
	Err error
}

func (f QueryFault) Error() string { return f.Err.Error() }

// errNoType is the fault of a query that names no type; each front end says it in its own
// words (the flag, the form's field).
var errNoType = errors.New("no instance type given")

// CheckQuery is every rule of source s that q breaks, in this order: its lengths (no more
// than one search sweeps, each one the source sells), its types (each one the source
// reserves) and its count (one that each type's reservation holds). The window is
// Query.Validate's. The CLI says the first; the search form says each beside its field.
func (s Source) CheckQuery(q Query) []QueryFault {
	var out []QueryFault
	lo, hi := q.Durations.MinDays, q.Durations.MaxDays
	if err := s.CheckSweep(lo, hi); err != nil {
		out = append(out, QueryFault{FieldDuration, q.Durations.String(), err})
	} else {
		for d := lo; d <= hi; d++ {
			if err := s.CheckDays(d); err != nil {
				out = append(out, QueryFault{FieldDuration, q.Durations.String(), err})
				break
			}
		}
	}
	if len(q.InstanceTypes) == 0 {
		out = append(out, QueryFault{FieldTypes, "", errNoType})
	}
	for _, t := range q.InstanceTypes {
		if _, err := s.TypeIn(t); err != nil {
			out = append(out, QueryFault{FieldTypes, t, err})
		}
	}
	counted := q.InstanceTypes
	if len(counted) == 0 {
		counted = []string{""} // the count is still read by the source's rule for instances
	}
	for _, t := range counted {
		if err := s.CheckCount(t, q.Count); err != nil {
			out = append(out, QueryFault{FieldCount, fmt.Sprint(q.Count), err})
			break
		}
	}
	return out
}
