package advisor

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// JobFields is a job as a person types it, in the CLI's flags or the advisor screen's
// form; ParseJob reads both the same way.
type JobFields struct {
	Type                        string // a type or an accelerator class
	Instances, Accelerators     string
	Hours, MonthlyHours, Months string
	Utilization                 string // percent, "70" or "70%"
	From, To                    string // model.ParseDate forms; To "" is the latest end
	Interruptible, SageMaker    bool
}

// FieldError is a problem with one field, named as the CLI's flag is.
type FieldError struct{ Field, Msg string }

func (e FieldError) Error() string { return e.Field + ": " + e.Msg }

// ParseJob reads the fields, with dates relative to now. Regions are the caller's. The job
// it returns still goes through Validate (Advise does it).
func ParseJob(f JobFields, now time.Time) (Job, error) {
	var j Job
	t := strings.TrimSpace(f.Type)
	switch {
	case t == "":
		return j, FieldError{"type", "required: a type (" + strings.Join(typeNames(), ", ") + ") or a class (" + strings.Join(Classes(), ", ") + ")"}
	case isType(t):
		j.InstanceType = t
	case len(ClassTypes(t)) > 0:
		j.Class = t
	default:
		return j, FieldError{"type", fmt.Sprintf("%q is neither a type Capacity Blocks sell (%s) nor a class (%s)", t, strings.Join(typeNames(), ", "), strings.Join(Classes(), ", "))}
	}
	ints := []struct {
		name string
		s    string
		dst  *int
	}{{"instances", f.Instances, &j.Instances}, {"accelerators", f.Accelerators, &j.Accelerators}, {"hours", f.Hours, &j.Hours},
		{"monthly-hours", f.MonthlyHours, &j.RecurringHoursPerMonth}, {"months", f.Months, &j.RecurringMonths}}
	for _, n := range ints {
		s := strings.TrimSpace(n.s)
		if s == "" || s == "0" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return j, FieldError{n.name, fmt.Sprintf("%q: want a whole number", n.s)}
		}
		*n.dst = v
	}
	if (j.RecurringHoursPerMonth > 0) != (j.RecurringMonths > 0) {
		return j, FieldError{"monthly-hours", "monthly-hours and months go together (e.g. 200 hours a month for 12 months)"}
	}
	if j.Hours > 0 && j.RecurringHoursPerMonth > 0 {
		return j, FieldError{"hours", "give hours for a one-off job or monthly-hours with months for a recurring one, not both"}
	}
	u := strings.TrimSuffix(strings.TrimSpace(f.Utilization), "%")
	if u == "" {
		u = "100"
	}
	pct, err := strconv.ParseInt(u, 10, 64)
	if err != nil || pct < 1 || pct > 100 {
		return j, FieldError{"utilization", fmt.Sprintf("%q: a whole percent from 1 to 100", f.Utilization)}
	}
	j.UtilizationPercent = pct
	j.Interruptible, j.SageMaker = f.Interruptible, f.SageMaker
	from := f.From
	if strings.TrimSpace(from) == "" {
		from = "now"
	}
	if j.WindowStart, err = model.ParseDate(from, now); err != nil {
		return j, FieldError{"from", err.Error()}
	}
	if strings.TrimSpace(f.To) == "" {
		days, _ := BlockDays(j.RunHours())
		j.WindowEnd = model.LatestEnd(now, days)
	} else if j.WindowEnd, err = model.ParseDate(f.To, now); err != nil {
		return j, FieldError{"to", err.Error()}
	}
	return j, nil
}

func isType(name string) bool { _, ok := model.LookupType(name); return ok }

func typeNames() []string {
	var out []string
	for _, t := range model.Catalog() {
		out = append(out, t.Name)
	}
	return out
}
