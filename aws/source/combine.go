package source

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/model"
)

// Split is the one rule of a search over several sources, for the command line and the
// terminal UI alike: the parts model.SplitQuery makes of q, of the sources linked; the
// others are skipped, with why (a type, count or length the source does not sell, or a
// source not in this build), and the rest searched. A query of one source is searched by
// it whatever it asks, so that its own check says what it does not sell in its words. The
// error, set only when no source is left to search, names every skip.
func Split(linked []model.Source, q model.Query) ([]model.SourceQuery, []model.SourceSkip, error) {
	all, skips := model.SplitQuery(q)
	var parts []model.SourceQuery
	for _, p := range all {
		if slices.Contains(linked, p.Source) {
			parts = append(parts, p)
			continue
		}
		skips = append(skips, model.SourceSkip{Source: p.Source, Reason: p.Source.Plural() + " are not available in this build"})
	}
	if len(parts) > 0 {
		return parts, skips, nil
	}
	if len(q.Sources) <= 1 && len(skips) == 1 && slices.Contains(linked, skips[0].Source) {
		return []model.SourceQuery{{Source: skips[0].Source, Query: q}}, nil, nil
	}
	why := make([]string, len(skips))
	for i, k := range skips {
		why[i] = k.Sentence()
	}
	return nil, skips, errors.New("no source sells this: " + strings.Join(why, "; "))
}

// BySource is the source of srcs that is s; ok is false when it is not linked.
func BySource(srcs []Source, s model.Source) (Source, bool) {
	i := slices.IndexFunc(srcs, func(src Source) bool { return src.Caps().Source == s })
	if i < 0 {
		return nil, false
	}
	return srcs[i], true
}

func linked(srcs []Source) []model.Source {
	out := make([]model.Source, len(srcs))
	for i, src := range srcs {
		out[i] = src.Caps().Source
	}
	return out
}

// Search searches q over srcs by Split and streams every source's steps as one: the calls
// are counted over all, and a region's status is its sources' together, so that one line
// per region says searching until each is done and counts the offerings of all. The first
// step carries the skips. When no source is left the error says why and there is no
// channel. A region's error is explained by its source.
func Search(ctx context.Context, srcs []Source, q model.Query) (<-chan SearchEvent, []model.SourceSkip, error) {
	parts, skips, err := Split(linked(srcs), q)
	if err != nil {
		return nil, skips, err
	}
	out := make(chan SearchEvent, 16)
	m := &merged{done: map[model.Source]int{}, total: map[model.Source]int{}, regs: map[string]map[model.Source]model.RegionStatus{}}
	for _, p := range parts {
		m.srcs = append(m.srcs, p.Source)
	}
	if len(skips) > 0 {
		out <- SearchEvent{Skips: skips}
	}
	var wg sync.WaitGroup
	for _, p := range parts {
		src, _ := BySource(srcs, p.Source)
		sq := p.Query
		sq.AllZones, sq.Regions = q.AllZones, q.Regions
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := src.Search(ctx, sq)
			for ev := range in {
				ev.Status = explainedStatus(ev.Status, src.Explain)
				ev.Source, ev.SourceStatus = p.Source, ev.Status
				select {
				case out <- m.fold(p.Source, ev):
				case <-ctx.Done():
					// Nobody reads any more; let the source finish and close its channel.
					for range in {
					}
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	return out, skips, nil
}

// merged is the state of Search's one stream: each source's calls and region statuses.
type merged struct {
	mu    sync.Mutex
	done  map[model.Source]int
	total map[model.Source]int
	regs  map[string]map[model.Source]model.RegionStatus
	srcs  []model.Source // the sources searched, in their order
}

func (m *merged) fold(s model.Source, e SearchEvent) SearchEvent {
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

// explainedError keeps the original error for errors.Is while reading as its source's
// one-sentence explanation (and so redacted).
type explainedError struct {
	msg string
	err error
}

func (e explainedError) Error() string { return e.msg }
func (e explainedError) Unwrap() error { return e.err }

// Explained is err in the words of explain, still err for errors.Is.
func Explained(explain func(error) Explanation, err error) error {
	return explainedError{msg: explain(err).String(), err: err}
}

// explainedStatus is a source's region status as a person reads it: its error explained
// by the source, which also gives the message when there is none.
func explainedStatus(s *model.RegionStatus, explain func(error) Explanation) *model.RegionStatus {
	if s == nil {
		return nil
	}
	st := *s
	if st.Err != nil {
		st.Err = Explained(explain, st.Err)
		if st.Message == "" {
			st.Message = st.Err.Error()
		}
	}
	return &st
}

// List lists the reservations of every source in the regions. The first source's listing
// is the list: when none of its regions could be read the listing fails, and the others are
// not asked. A further source's failure leaves the list standing, so it is only partial.
// The problems of every source but the program's first (model.Sources) name their source,
// so that a listing of the training plans alone still says whose the failure is.
func List(ctx context.Context, srcs []Source, regions []string) (BlockList, error) {
	var list BlockList
	for i, src := range srcs {
		l, err := src.List(ctx, regions)
		list.Blocks = append(list.Blocks, l.Blocks...)
		if len(l.Fees) > 0 {
			if list.Fees == nil {
				list.Fees = map[string]model.Money{}
			}
			maps.Copy(list.Fees, l.Fees)
		}
		lf := ClassifyListing(err)
		named := ""
		if i > 0 || src.Caps().Source != model.Sources()[0] {
			named = src.Caps().Noun + "s: "
		}
		for _, g := range lf.Grouped(func(err error) string { return src.Explain(err).String() }) {
			list.Problems = append(list.Problems, BlockProblem{Region: g.Where(), Regions: g.Regions, Partial: g.Partial || i > 0, Message: named + g.Message})
		}
		if i > 0 {
			continue
		}
		list.Quiet = l.Quiet
		if lf.NoneRead(l.Listed) {
			return list, Explained(src.Explain, err)
		}
	}
	return list, nil
}

// Forget makes the next List of every source that leaves quiet regions out ask them all.
func Forget(srcs []Source) {
	for _, src := range srcs {
		if r, ok := src.(Rescanner); ok {
			r.Forget()
		}
	}
}
