// Package advisor answers "what should we buy for this job?": it sets every way of paying
// for GPU capacity (on-demand, a Capacity Block, a Training Plan, Savings Plans, Spot)
// against one job, from the dated catalog and from live offerings, and writes the decision
// tree's steps for it. It is pure: no SDK, no Bubble Tea, no I/O.
package advisor

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Job is what a person wants to run.
type Job struct {
	// InstanceType is an exact type; Class is an accelerator model ("H100") that any type
	// carrying it satisfies. One of them is set.
	InstanceType string
	Class        string
	// Instances, or Accelerators when the job is sized in accelerators (a class may hold types
	// of different sizes). One of them is set.
	Instances    int
	Accelerators int
	// Hours is how long the job holds the capacity, per run.
	Hours int
	// The window the job (its first run, when it recurs) must start and end in.
	WindowStart, WindowEnd time.Time
	// UtilizationPercent is the share of those hours the accelerators do useful work
	// (on-demand and Spot are paid only for those hours; a reservation for all of them).
	UtilizationPercent int64
	Interruptible      bool // it checkpoints or retries
	// A recurring job runs RecurringHoursPerMonth each month for RecurringMonths months;
	// Hours is then one month's run.
	RecurringHoursPerMonth int
	RecurringMonths        int
	SageMaker              bool
	Regions                []string
}

// Recurring reports whether the job repeats monthly.
func (j Job) Recurring() bool { return j.RecurringMonths > 0 }

// Runs is how many times the job runs: its months when it recurs, else 1.
func (j Job) Runs() int64 {
	if j.Recurring() {
		return int64(j.RecurringMonths)
	}
	return 1
}

// MaxRecurringMonths bounds a recurring job: the longest commitment priced is a 3-year
// Savings Plan, and every total stays far inside what model.Money counts.
const MaxRecurringMonths = 120

// Validate checks the job; the message names the field and what is allowed.
func (j Job) Validate() error {
	var errs []string
	add := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
	switch {
	case j.InstanceType == "" && j.Class == "":
		add("type: give an instance type or an accelerator class such as H100")
	case j.InstanceType != "" && j.Class != "":
		add("type: give an instance type or a class, not both")
	case j.InstanceType != "":
		if _, ok := model.LookupType(j.InstanceType); !ok {
			add("type %q: not a type Capacity Blocks sell", j.InstanceType)
		}
	default:
		if len(ClassTypes(j.Class)) == 0 {
			add("class %q: allowed %s", j.Class, strings.Join(Classes(), ", "))
		}
	}
	switch {
	case j.Instances > 0 && j.Accelerators > 0:
		add("give instances or accelerators, not both")
	case j.Instances <= 0 && j.Accelerators <= 0:
		add("instances: at least 1 (or give accelerators)")
	case j.Instances > model.MaxCount:
		add("instances %d: a block has at most %d", j.Instances, model.MaxCount)
	}
	if j.Recurring() {
		if j.RecurringHoursPerMonth <= 0 || j.RecurringHoursPerMonth > 744 {
			add("hours a month %d: allowed 1 to 744", j.RecurringHoursPerMonth)
		}
		if j.RecurringMonths < 1 || j.RecurringMonths > MaxRecurringMonths {
			add("months %d: allowed 1 to %d (ten years; no price gpublock knows holds longer)", j.RecurringMonths, MaxRecurringMonths)
		}
		if j.Hours != 0 && j.Hours != j.RecurringHoursPerMonth {
			add("hours %d: a recurring job's run is its hours a month (%d)", j.Hours, j.RecurringHoursPerMonth)
		}
	} else if j.RecurringHoursPerMonth != 0 {
		add("hours a month: give the months it recurs for too")
	}
	if h := j.RunHours(); h <= 0 || h > maxJobHours() {
		add("hours %d: allowed 1 to %d (the usable hours of the longest block)", h, maxJobHours())
	}
	if j.UtilizationPercent < 1 || j.UtilizationPercent > 100 {
		add("utilization %d%%: allowed 1%% to 100%%", j.UtilizationPercent)
	}
	if !j.WindowEnd.After(j.WindowStart) {
		add("window: the end must be after the start")
	}
	if len(errs) == 0 && len(j.Candidates()) == 0 {
		add("accelerators %d: no type of %s holds them in one block of at most %d instances", j.Accelerators, j.Class, model.MaxCount)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// RunHours is the hours of one run.
func (j Job) RunHours() int {
	if j.Recurring() {
		return j.RecurringHoursPerMonth
	}
	return j.Hours
}

// Candidate is one type that can run the job, with the instances it takes.
type Candidate struct {
	InstanceType string
	Instances    int
	Accelerators int // in all instances
}

// Candidates lists every type that can run the job, in catalog order.
func (j Job) Candidates() []Candidate {
	var types []model.InstanceType
	if j.InstanceType != "" {
		if t, ok := model.LookupType(j.InstanceType); ok {
			types = append(types, t)
		}
	} else {
		for _, name := range ClassTypes(j.Class) {
			t, _ := model.LookupType(name)
			types = append(types, t)
		}
	}
	var out []Candidate
	for _, t := range types {
		if t.UltraServer || t.Accelerators == 0 {
			continue // UltraServers are sold by the UltraServer, not by instances
		}
		n := j.Instances
		if j.Accelerators > 0 {
			n = (j.Accelerators + t.Accelerators - 1) / t.Accelerators
		}
		if n < model.MinCount || n > model.MaxCount {
			continue
		}
		out = append(out, Candidate{t.Name, n, n * t.Accelerators})
	}
	return out
}

// Classes lists the accelerator models of the catalog, sorted.
func Classes() []string {
	seen := map[string]bool{}
	for _, t := range model.Catalog() {
		if !t.UltraServer {
			seen[t.AcceleratorModel] = true
		}
	}
	var out []string
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// ClassTypes lists the types whose accelerator is the class (case-insensitive; "H100-class"
// and "any H100" are read as "H100").
func ClassTypes(class string) []string {
	c := strings.TrimSpace(strings.ToLower(class))
	c = strings.TrimPrefix(c, "any ")
	c = strings.TrimSuffix(c, "-class")
	var out []string
	for _, t := range model.Catalog() {
		if !t.UltraServer && strings.ToLower(t.AcceleratorModel) == c {
			out = append(out, t.Name)
		}
	}
	return out
}

// BlockDays is the shortest block AWS sells whose usable hours (model.UsableMinutes: up to
// model.TerminationLead before its end) hold a run of hours: a 48-hour job needs a 3-day
// block, since a 2-day block's instances stop at 47.5 hours.
func BlockDays(hours int) (int, bool) {
	for _, d := range model.ValidDurationDays() {
		if model.UsableMinutes(int64(d)*24*60) >= int64(hours)*60 {
			return d, true
		}
	}
	return 0, false
}

// maxJobHours is the longest run a block holds: the longest block's usable whole hours.
func maxJobHours() int {
	days := model.ValidDurationDays()
	return int(model.UsableMinutes(int64(days[len(days)-1])*24*60) / 60)
}

// Queries are the Capacity Block searches that answer the job: for each instance count
// among its candidates, the shortest block that holds a run, in the job's regions, over
// its window in weekly slices of start dates. AWS answers a search with a handful of the
// earliest offerings, so one search of an 8-week window would see only its first days; a
// slice per week lets the advisor find the cheapest and the calendar fill its weeks. A
// SageMaker job needs none (a Training Plan is searched by its own source).
func (j Job) Queries() []model.Query { return j.queries(0) }

// PlanQueries are the Training Plan searches of a SageMaker job: the slices of Queries, for
// training jobs. The counts and lengths are checked against the plans' rules by the search.
func (j Job) PlanQueries() []model.Query {
	if !j.SageMaker {
		return nil
	}
	ec2 := j
	ec2.SageMaker = false
	qs := ec2.queries(0)
	for i := range qs {
		qs[i].Sources = []model.Source{model.SourceTrainingPlan}
		qs[i].Targets = []string{"training-job"}
	}
	return qs
}

// PlanQueryFits reports whether a Training Plan search can be asked as it is: its count,
// lengths and types within the plans' rules (a query outside them is not searched).
func PlanQueryFits(q model.Query) error {
	src := model.SourceTrainingPlan
	for _, t := range q.InstanceTypes {
		if _, err := src.TypeIn(t); err != nil {
			return err
		}
		if err := src.CheckCount(t, q.Count); err != nil {
			return err
		}
	}
	for d := q.Durations.MinDays; d <= q.Durations.MaxDays; d++ {
		if err := src.CheckDays(d); err != nil {
			return err
		}
	}
	return nil
}

// NearbyQueries are the same searches for one instance fewer and one more, for when nothing
// is on offer at the job's own count: what is on offer nearby is the next question.
func (j Job) NearbyQueries() []model.Query {
	return append(j.queries(-1), j.queries(+1)...)
}

func (j Job) queries(delta int) []model.Query {
	if j.SageMaker {
		return nil
	}
	days, ok := BlockDays(j.RunHours())
	if !ok {
		return nil
	}
	length := time.Duration(days) * 24 * time.Hour
	week := 7 * 24 * time.Hour
	var counts []int
	types := map[int][]string{}
	for _, c := range j.Candidates() {
		n := c.Instances + delta
		if n < model.MinCount || n > model.MaxCount {
			continue
		}
		if _, seen := types[n]; !seen {
			counts = append(counts, n)
		}
		types[n] = append(types[n], c.InstanceType)
	}
	var out []model.Query
	for _, n := range counts {
		for s := j.WindowStart; s.Before(j.WindowEnd); s = s.Add(week) {
			e := s.Add(week + length)
			if e.After(j.WindowEnd) {
				e = j.WindowEnd
			}
			if e.Sub(s) <= length {
				break
			}
			out = append(out, model.Query{InstanceTypes: types[n], Count: n, Durations: model.DurationRange{MinDays: days, MaxDays: days},
				Start: s, End: e, Regions: j.Regions})
		}
	}
	return out
}

// Dedupe drops offerings already listed (by source and id): the weekly slices of a search
// overlap, so one offering can be found twice.
func Dedupe(offs []Offering) []Offering {
	seen := map[string]bool{}
	var out []Offering
	for _, o := range offs {
		k := o.Offering.Source.Name() + "/" + o.Offering.ID
		if !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	return out
}
