package searchform

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
)

// fieldSource names the source field in errors; model's queries have no such field.
const fieldSource = "source"

// source is the form's choice of systems to search: Capacity Blocks, Training Plans (for one
// target resource) or both.
type source struct {
	choice int // index into sourceChoices
	target int // index into model.TrainingPlanTargets()
}

var sourceChoices = [][]model.Source{
	{model.SourceCapacityBlock},
	{model.SourceTrainingPlan},
	{model.SourceCapacityBlock, model.SourceTrainingPlan},
}

func (s source) sources() []model.Source { return slices.Clone(sourceChoices[s.choice]) }

func (s source) plans() bool {
	return slices.Contains(sourceChoices[s.choice], model.SourceTrainingPlan)
}

func (s source) targets() []string {
	if !s.plans() {
		return nil
	}
	return []string{model.TrainingPlanTargets()[s.target]}
}

// label is the choice as the form shows it.
func (s source) label() string {
	switch s.choice {
	case 1:
		return "Training Plans"
	case 2:
		return "Blocks and Plans"
	}
	return "Capacity Blocks"
}

// sourceKey: ←/→ or space step through the sources, t through the target resources.
func (m *Model) sourceKey(k tea.KeyPressMsg) bool {
	n := len(sourceChoices)
	switch {
	case key.Matches(k, m.keys.StepUp), key.Matches(k, m.keys.Toggle):
		m.sources.choice = (m.sources.choice + 1) % n
		return true
	case key.Matches(k, m.keys.StepDown):
		m.sources.choice = (m.sources.choice + n - 1) % n
		return true
	case key.Matches(k, m.keys.Target) && m.sources.plans():
		m.sources.target = (m.sources.target + 1) % len(model.TrainingPlanTargets())
		return true
	case key.Matches(k, m.keys.Up):
		m.move(-1)
		return true
	case key.Matches(k, m.keys.Down):
		m.move(1)
		return true
	}
	return false
}

// SetSources chooses the sources searched (and, with plans, the target resource).
func (m *Model) SetSources(srcs []model.Source, target string) {
	for i, c := range sourceChoices {
		if slices.Equal(c, srcs) {
			m.sources.choice = i
		}
	}
	if i := slices.Index(model.TrainingPlanTargets(), target); i >= 0 {
		m.sources.target = i
	}
	m.validate()
}

// validatePlans checks a search of training plans alone with their rules
// (model.Source.CheckQuery, as the CLI does): the types they reserve, their counts and their
// lengths; the window as for blocks.
func (m *Model) validatePlans(q *model.Query, now time.Time, errs map[Field]string) {
	plans := model.SourceTrainingPlan
	delete(errs, Duration)
	checked := *q
	lo, hi, err := model.ParseDayRange(m.duration.Value())
	if err != nil {
		errs[Duration] = err.Error()
	} else {
		checked.Durations = model.DurationRange{MinDays: lo, MaxDays: hi}
	}
	n, countErr := countOf(m.count.Value())
	if countErr == nil {
		checked.Count = n
	}
	var bad []string
	countFault := ""
	for _, f := range plans.CheckQuery(checked) {
		switch {
		case f.Field == model.FieldTypes && f.Value != "":
			bad = append(bad, f.Value)
		case f.Field == model.FieldDuration && err == nil:
			errs[Duration] = f.Err.Error()
		case f.Field == model.FieldCount:
			countFault = f.Err.Error()
		}
	}
	if err == nil && errs[Duration] == "" {
		q.Durations = checked.Durations
	}
	switch {
	case len(q.InstanceTypes) == 0:
		errs[Types] = "none chosen; choose a type training plans reserve (" + model.TrainingPlanTypesSentence() + ")"
	case len(bad) > 0:
		errs[Types] = fmt.Sprintf("training plans do not reserve %s; they reserve %s", strings.Join(bad, ", "), model.TrainingPlanTypesSentence())
	}
	if _, done := errs[Count]; !done || strings.HasPrefix(errs[Count], "\"") {
		switch {
		case countErr != nil:
			errs[Count] = fmt.Sprintf("%q is not a number; training plans reserve %s instances", m.count.Value(), plans.CountRule())
		case countFault != "":
			errs[Count] = countFault
		default:
			delete(errs, Count)
		}
	}
	if err := q.Validate(now); err != nil {
		if verrs, ok := err.(model.ValidationErrors); ok {
			for _, f := range []Field{Start, End} {
				if fe, ok := verrs.For(modelField[f]); ok && errs[f] == "" {
					errs[f] = fe.Value + " is not allowed; " + fe.Allowed
				}
			}
		}
	}
	if len(q.Regions) == 0 {
		errs[Regions] = "none chosen; choose at least one region"
	}
}

// validateBoth checks a search of several sources by model.SplitQuery, the rule the
// backend splits it by: a value one source does not sell is a note beside its field (that
// source is not searched, the others are), an error only when no source is left; the window
// and the regions by the rules of the sources searched.
func (m *Model) validateBoth(q *model.Query, now time.Time, errs map[Field]string) {
	delete(errs, Duration)
	if lo, hi, err := model.ParseDayRange(m.duration.Value()); err != nil {
		errs[Duration] = err.Error()
		return
	} else {
		q.Durations = model.DurationRange{MinDays: lo, MaxDays: hi}
	}
	if _, bad := errs[Count]; bad {
		return
	}
	fieldOf := map[string]Field{model.FieldTypes: Types, model.FieldCount: Count, model.FieldDuration: Duration}
	parts, skips := model.SplitQuery(*q)
	if len(parts) == 0 {
		for _, k := range skips {
			f := fieldOf[k.Field]
			if errs[f] != "" {
				errs[f] += "; "
			}
			errs[f] += k.Reason
		}
		return
	}
	searched := parts[0].Source.Label() + "s"
	for _, k := range skips {
		m.notes[fieldOf[k.Field]] = k.Reason + "; only " + searched + " are searched"
	}
	if err := parts[0].Query.Validate(now); err != nil {
		if verrs, ok := err.(model.ValidationErrors); ok {
			for _, f := range []Field{Start, End, Regions} {
				if fe, ok := verrs.For(modelField[f]); ok && errs[f] == "" {
					errs[f] = fe.Value + " is not allowed; " + fe.Allowed
				}
			}
		}
	}
}

// plansOnly reports whether training plans alone are searched: the arrows then step
// through their counts and lengths.
func (m Model) plansOnly() bool {
	return m.sources.plans() && !slices.Contains(m.sources.sources(), model.SourceCapacityBlock)
}

// stepIn is the value of steps after (or before) v: the first when v is not a number.
func stepIn(steps []int, v string, up bool) int {
	n, err := countOf(v)
	if err != nil {
		return steps[0]
	}
	i, found := slices.BinarySearch(steps, n)
	switch {
	case up && found:
		i++
	case !up:
		i--
	}
	return steps[max(0, min(i, len(steps)-1))]
}
