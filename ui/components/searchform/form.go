// Package searchform is the search form: instance types with a fuzzy filter, count, the
// window, the duration and the regions. It turns what is typed into a model.Query and
// validates it with model/ on every edit, so an invalid form never reaches the API.
package searchform

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/theme"
)

// Field is one field of the form. Their order here is the order they are drawn in, top to
// bottom, and the order tab moves the focus through them.
type Field int

const (
	Source Field = iota
	Types
	Count
	Start
	End
	Duration
	Regions
	numFields
)

// modelField names each field as model.ValidationErrors does.
var modelField = [numFields]string{fieldSource, model.FieldTypes, model.FieldCount, model.FieldStart, model.FieldEnd, model.FieldDuration, model.FieldRegions}

// Model is the form.
type Model struct {
	th   *theme.Theme // shared by copies, never changed: a Theme is 15 KB
	keys KeyMap
	now  func() time.Time

	focus Field

	catalog     []model.InstanceType
	typeFilter  textfield.Model
	filtering   bool  // keys go into the type filter (after /); otherwise the list takes only its keys
	typeMatches []int // indexes into catalog that match the filter, best first
	typeCursor  int   // index into typeMatches
	chosenTypes map[string]bool

	count, start, end, duration textfield.Model

	regions       []string // every region that sells Capacity Blocks
	regionCursor  int      // 0 is "all regions that sell the chosen types", i+1 is regions[i]
	chosenRegions map[string]bool
	allSelling    bool // the region choice follows the chosen types
	regionsEdited bool // a person chose regions, which a late home region must not undo

	sources source // which systems are searched (source.go)

	query model.Query
	errs  map[Field]string
	notes map[Field]string // a value one of two sources refuses: said, not blocking
	at    time.Time        // the clock reading the last validation used, so View reads no clock
}

// Defaults are the values the form starts with: one p5.48xlarge for 2 days in the next
// 4 weeks, in the home region (or every region selling it when the home region sells none).
func New(th theme.Theme, now func() time.Time, homeRegion string) Model {
	m := Model{
		th:            &th,
		keys:          DefaultKeyMap(),
		now:           now,
		catalog:       model.Catalog(),
		chosenTypes:   map[string]bool{"p5.48xlarge": true},
		count:         textfield.New("1"),
		start:         textfield.New("now"),
		end:           textfield.New("+4w"),
		duration:      textfield.New("2d"),
		regions:       model.Regions(),
		chosenRegions: map[string]bool{},
		focus:         Types, // the list, where q and the screen digits work, not the source above it
	}
	m.typeFilter.Placeholder = "type to filter"
	m.count.CharLimit = 3
	m.setHome(homeRegion)
	m.filterTypes()
	m.validate()
	return m
}

// SetHomeRegion makes region the default choice, unless regions were already chosen by
// hand: the home region may be known only once the backend is open.
func (m *Model) SetHomeRegion(region string) {
	if m.regionsEdited {
		return
	}
	m.setHome(region)
	m.validate()
}

func (m *Model) setHome(region string) {
	m.chosenRegions = map[string]bool{}
	m.allSelling = !slices.Contains(m.regions, region)
	if !m.allSelling {
		m.chosenRegions[region] = true
	}
}

// KeyMap returns the form's keys, for help.
func (m Model) KeyMap() KeyMap { return m.keys }

// Focus returns the focused field.
func (m Model) Focus() Field { return m.focus }

// SetFocus moves the focus to a field.
func (m *Model) SetFocus(f Field) {
	if f >= 0 && f < numFields {
		m.focus = f
	}
}

// AtLast reports whether the focus is on the last field, where tab leaves the form.
func (m Model) AtLast() bool { return m.focus == numFields-1 }

// AtFirst reports whether the focus is on the first field, where shift+tab leaves the form.
func (m Model) AtFirst() bool { return m.focus == 0 }

// FocusFirst and FocusLast focus the top and the bottom field: where tab enters the form
// from the pane before it, and where shift+tab enters it from the pane after it.
func (m *Model) FocusFirst() { m.focus = 0 }
func (m *Model) FocusLast()  { m.focus = numFields - 1 }

// FocusFirstError focuses the topmost field marked invalid and reports whether there is one.
func (m *Model) FocusFirstError() bool {
	for f := Field(0); f < numFields; f++ {
		if _, bad := m.errs[f]; bad {
			m.focus = f
			return true
		}
	}
	return false
}

// move moves the focus d fields down the form (up when negative), staying within it, and
// reports whether it moved.
func (m *Model) move(d int) bool {
	f := m.focus + Field(d)
	if f < 0 || f >= numFields {
		return false
	}
	m.focus = f
	return true
}

// Typing reports whether keys are going into a text field, where q is a letter. The type
// list is a field only while its filter is open (after /), so that q, ? and the screen
// digits work from where the program starts.
func (m Model) Typing() bool {
	switch m.focus {
	case Regions:
		return false
	case Types:
		return m.filtering
	}
	return true
}

// Filtering reports whether the type filter takes the keys (after /).
func (m Model) Filtering() bool { return m.focus == Types && m.filtering }

// Query returns the query the form holds now and whether it is valid. The relative dates
// ("now", "+4w") are resolved against the clock at this call.
func (m *Model) Query() (model.Query, bool) {
	m.validate()
	return m.query, len(m.errs) == 0
}

// Revalidate reads the fields again against the clock, whose moving changes what relative
// dates mean and what the 8-week limit allows.
func (m *Model) Revalidate() { m.validate() }

// Current returns the query as last validated (on the last edit or clock tick) without
// reading the clock again, for views.
func (m Model) Current() (model.Query, bool) { return m.query, len(m.errs) == 0 }

// Errors returns the message of each invalid field.
func (m Model) Errors() map[Field]string { return m.errs }

// SetQuery fills the form from a query, as when a suggested alternative is taken.
func (m *Model) SetQuery(q model.Query) {
	m.start.SetValue(formatDate(q.Start))
	m.end.SetValue(formatDate(q.End))
	m.SetQueryKeepingWindow(q)
}

// SetQueryKeepingWindow fills the form from a query but leaves the start and end as typed,
// for an alternative in the window searched: "now" and "+4w" stay relative instead of
// becoming times that pass (a search again minutes later was refused, its start past).
func (m *Model) SetQueryKeepingWindow(q model.Query) {
	m.chosenTypes = map[string]bool{}
	for _, t := range q.InstanceTypes {
		m.chosenTypes[t] = true
	}
	m.count.SetValue(strconv.Itoa(q.Count))
	m.duration.SetValue(q.Durations.String())
	m.allSelling, m.regionsEdited = false, true
	m.chosenRegions = map[string]bool{}
	for _, r := range q.Regions {
		m.chosenRegions[r] = true
	}
	m.validate()
}

func formatDate(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// ChosenTypes returns the chosen types in catalog order.
func (m Model) ChosenTypes() []string {
	var out []string
	for _, t := range m.catalog {
		if m.chosenTypes[t.Name] {
			out = append(out, t.Name)
		}
	}
	return out
}

// ChosenRegions returns the chosen regions, sorted.
func (m Model) ChosenRegions() []string {
	if m.allSelling {
		return model.RegionsSelling(m.ChosenTypes()...)
	}
	var out []string
	for _, r := range m.regions {
		if m.chosenRegions[r] {
			out = append(out, r)
		}
	}
	return out
}

// Update handles a key meant for the form. Keys it does not use (enter, esc with nothing to
// clear, tab past the last field) are left to the caller, which it reports with used=false.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil, false
	}
	used := m.handleKey(k)
	if m.focus != Types {
		m.filtering = false // leaving the list closes its filter, keeping what it holds
	}
	if used {
		m.validate()
	}
	return m, nil, used
}

func (m *Model) handleKey(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, m.keys.Submit) && !m.Filtering():
		return false
	case key.Matches(k, m.keys.Next):
		return m.move(1) // past the last field the caller moves to the next pane
	case key.Matches(k, m.keys.Prev):
		return m.move(-1) // before the first, to the pane before, as tab's reverse
	}
	switch m.focus {
	case Types:
		return m.typesKey(k)
	case Regions:
		used := m.regionsKey(k)
		if used && (key.Matches(k, m.keys.Toggle) || key.Matches(k, m.keys.AllRegions)) {
			m.regionsEdited = true
		}
		return used
	case Source:
		return m.sourceKey(k)
	case Count:
		switch {
		case key.Matches(k, m.keys.Inc), key.Matches(k, m.keys.StepUp):
			m.stepCount(1)
			return true
		case key.Matches(k, m.keys.Dec), key.Matches(k, m.keys.StepDown):
			m.stepCount(-1)
			return true
		}
		if k.Text != "" && (k.Text[0] < '0' || k.Text[0] > '9') {
			return true // a count is digits; swallow the rest so that q does not quit mid-edit
		}
		return m.textKey(&m.count, k)
	case Duration:
		if key.Matches(k, m.keys.Step) {
			m.stepDuration(key.Matches(k, m.keys.StepUp))
			return true
		}
		return m.textKey(&m.duration, k)
	case Start:
		return m.textKey(&m.start, k)
	case End:
		return m.textKey(&m.end, k)
	}
	return false
}

// textKey moves between fields with the arrows and gives every other key to the field.
func (m *Model) textKey(f *textfield.Model, k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, m.keys.Up):
		m.move(-1)
		return true
	case key.Matches(k, m.keys.Down):
		m.move(1)
		return true
	case key.Matches(k, m.keys.ClearFilter):
		return false
	}
	var used bool
	*f, used = f.Update(k)
	return used
}

func (m *Model) typesKey(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, m.keys.Up), !m.filtering && key.Matches(k, m.keys.ListUp):
		if m.typeCursor > 0 {
			m.typeCursor--
		} else {
			m.move(-1)
		}
		return true
	case key.Matches(k, m.keys.Down), !m.filtering && key.Matches(k, m.keys.ListDown):
		if m.typeCursor < len(m.typeMatches)-1 {
			m.typeCursor++
		} else {
			m.move(1)
		}
		return true
	case key.Matches(k, m.keys.Toggle):
		if m.typeCursor < len(m.typeMatches) {
			name := m.catalog[m.typeMatches[m.typeCursor]].Name
			m.chosenTypes[name] = !m.chosenTypes[name]
			if !m.chosenTypes[name] {
				delete(m.chosenTypes, name)
			}
		}
		return true
	case key.Matches(k, m.keys.ClearFilter):
		if m.typeFilter.Value() == "" && !m.filtering {
			return false
		}
		m.filtering = false
		m.typeFilter.SetValue("")
		m.filterTypes()
		return true
	case !m.filtering && key.Matches(k, m.keys.Filter):
		m.filtering = true
		return true
	case m.filtering && key.Matches(k, m.keys.Submit):
		m.filtering = false // enter keeps the filter, as in the tables; a second enter searches
		return true
	case !m.filtering:
		return false
	}
	var used bool
	m.typeFilter, used = m.typeFilter.Update(k)
	if used {
		m.filterTypes()
	}
	return used
}

func (m *Model) regionsKey(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, m.keys.Up), key.Matches(k, m.keys.ListUp):
		if m.regionCursor > 0 {
			m.regionCursor--
		} else {
			m.move(-1)
		}
		return true
	case key.Matches(k, m.keys.Down), key.Matches(k, m.keys.ListDown):
		if m.regionCursor < len(m.regions) {
			m.regionCursor++
		}
		return true
	case key.Matches(k, m.keys.AllRegions):
		m.allSelling = !m.allSelling
		return true
	case key.Matches(k, m.keys.Toggle):
		if m.regionCursor == 0 {
			m.allSelling = !m.allSelling
			return true
		}
		if m.allSelling {
			// Leaving "all selling" starts from what it selected, so one press removes one region.
			m.chosenRegions = map[string]bool{}
			for _, r := range m.ChosenRegions() {
				m.chosenRegions[r] = true
			}
			m.allSelling = false
		}
		r := m.regions[m.regionCursor-1]
		if m.chosenRegions[r] {
			delete(m.chosenRegions, r)
		} else {
			m.chosenRegions[r] = true
		}
		return true
	}
	return false
}

func (m *Model) stepCount(d int) {
	if m.plansOnly() {
		m.count.SetValue(strconv.Itoa(stepIn(model.TrainingPlanCounts, m.count.Value(), d > 0)))
		return
	}
	n, err := countOf(m.count.Value())
	if err != nil {
		n = model.MinCount
	} else {
		n += d
	}
	n = max(model.MinCount, min(model.MaxCount, n))
	m.count.SetValue(strconv.Itoa(n))
}

// stepDuration moves to the next or previous duration AWS sells, so that the arrows only
// ever offer valid steps. On a range it moves the longer end.
func (m *Model) stepDuration(up bool) {
	valid := model.ValidDurationDays()
	if m.plansOnly() {
		valid = model.SourceTrainingPlan.DurationDays(1, model.MaxReservationDays)
	}
	// The text as typed, read by its syntax alone: a length no source sells ("15d" for
	// blocks) is still where the step starts from, to the sold length beside it.
	cur := 2
	lo := 0
	if a, b, err := model.ParseDayRange(m.duration.Value()); err == nil {
		cur = b
		if a != b {
			lo = a
		}
	}
	i, found := slices.BinarySearch(valid, cur)
	switch {
	case up && found && i+1 < len(valid):
		i++
	case up && !found && i < len(valid):
	case !up && i > 0:
		i--
	}
	i = min(i, len(valid)-1)
	next := valid[i]
	if lo > 0 && next > lo {
		m.duration.SetValue(model.DurationRange{MinDays: lo, MaxDays: next}.String())
		return
	}
	m.duration.SetValue(model.FormatDays(next))
}

// countOf reads the count field's text: what validation checks and what the arrows step from.
func countOf(v string) (int, error) { return strconv.Atoi(strings.TrimSpace(v)) }

func (m *Model) filterTypes() {
	f := strings.TrimSpace(m.typeFilter.Value())
	m.typeMatches = m.typeMatches[:0]
	if f == "" {
		for i := range m.catalog {
			m.typeMatches = append(m.typeMatches, i)
		}
	} else {
		words := make([]string, len(m.catalog))
		for i, t := range m.catalog {
			words[i] = fmt.Sprintf("%s %s %s", t.Name, t.AcceleratorMaker, t.AcceleratorModel)
		}
		for _, match := range fuzzy.Find(f, words) {
			m.typeMatches = append(m.typeMatches, match.Index)
		}
	}
	m.typeCursor = min(m.typeCursor, max(0, len(m.typeMatches)-1))
}

// validate parses every field and runs model.Query.Validate, keeping one message per field:
// the parse error where a value cannot be read, else what model/ says about it.
func (m *Model) validate() {
	now := m.now()
	errs := map[Field]string{}
	q := model.Query{InstanceTypes: m.ChosenTypes(), Regions: m.ChosenRegions()}

	if n, err := countOf(m.count.Value()); err != nil {
		errs[Count] = fmt.Sprintf("%q is not a number; a block has %d to %d instances", m.count.Value(), model.MinCount, model.MaxCount)
	} else {
		q.Count = n
	}
	if t, err := model.ParseDate(m.start.Value(), now); err != nil {
		errs[Start] = err.Error()
	} else {
		q.Start = t
	}
	if t, err := model.ParseDate(m.end.Value(), now); err != nil {
		errs[End] = err.Error()
	} else {
		q.End = t
	}
	if d, err := model.ParseDuration(m.duration.Value()); err != nil {
		errs[Duration] = err.Error()
	} else {
		q.Durations = d
	}
	m.notes = map[Field]string{}
	q.Sources, q.Targets = m.sources.sources(), m.sources.targets()
	if !q.Searches(model.SourceCapacityBlock) {
		m.validatePlans(&q, now, errs)
	} else if len(q.Sources) > 1 {
		m.validateBoth(&q, now, errs)
	} else if err := q.Validate(now); err != nil {
		if verrs, ok := err.(model.ValidationErrors); ok {
			for f := Field(0); f < numFields; f++ {
				if _, done := errs[f]; done {
					continue
				}
				if fe, ok := verrs.For(modelField[f]); ok {
					errs[f] = fe.Value + " is not allowed; " + fe.Allowed
				}
			}
		}
		if len(errs) == 0 { // an error model/ names no field of: never let it through
			errs[Types] = err.Error()
		}
	}
	m.query = q
	m.errs = errs
	m.at = now
}

// Notes are what one of two sources searched refuses of the values: said beside the
// field, without stopping the search of the other.
func (m Model) Notes() map[Field]string { return m.notes }
