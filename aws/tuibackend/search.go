package tuibackend

import (
	"strings"
	"sync"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// sourceQuery is q as one source searches it, by model.SplitQuery; ok is false when the
// source sells none of the types, or refuses the count or every length (the form says so
// beside the field, and only the other source is searched).
func sourceQuery(q model.Query, s model.Source) (model.Query, bool) {
	q.Sources = []model.Source{s}
	parts, _ := model.SplitQuery(q)
	if len(parts) == 0 {
		return q, false
	}
	return parts[0].Query, true
}

// merged joins the events of the sources searched into one stream: the calls are counted
// over both, and a region's status is the two sources' together, so that the UI's one line
// per region says searching until both are done and counts the offerings of both.
type merged struct {
	mu    sync.Mutex
	done  map[model.Source]int
	total map[model.Source]int
	regs  map[string]map[model.Source]model.RegionStatus
	srcs  []model.Source // the sources searched, in their order
}

func (m *merged) fold(s model.Source, e backend.SearchEvent) backend.SearchEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done[s], m.total[s] = e.CallsDone, e.CallsTotal
	e.CallsDone, e.CallsTotal = 0, 0
	for _, v := range m.done {
		e.CallsDone += v
	}
	for _, v := range m.total {
		e.CallsTotal += v
	}
	if e.Status == nil || len(m.srcs) < 2 {
		return e
	}
	r := m.regs[e.Status.Region]
	if r == nil {
		r = map[model.Source]model.RegionStatus{}
		m.regs[e.Status.Region] = r
	}
	r[s] = *e.Status
	st := combine(e.Status.Region, m.srcs, r)
	e.Status = &st
	return e
}

// combine is one region's status over its sources: searching while one searches, ok when
// one found something, else the worst of the rest; messages name their source.
func combine(region string, srcs []model.Source, r map[model.Source]model.RegionStatus) model.RegionStatus {
	out := model.RegionStatus{Region: region, State: model.RegionEmpty}
	rank := func(s model.RegionState) int {
		return map[model.RegionState]int{model.RegionSearching: 5, model.RegionOK: 4, model.RegionError: 3, model.RegionThrottled: 2, model.RegionEmpty: 1}[s]
	}
	var msgs []string
	for _, src := range srcs {
		st, ok := r[src]
		if !ok {
			st = model.RegionStatus{State: model.RegionSearching}
		}
		out.Offerings += st.Offerings
		if rank(st.State) > rank(out.State) {
			out.State = st.State
		}
		if st.Message != "" {
			msgs = append(msgs, src.Plural()+": "+st.Message)
		}
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}
