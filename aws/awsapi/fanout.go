package awsapi

import (
	"context"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Fanout is the bookkeeping of a search spread over regions: per-region status, the
// de-duplication of offerings across calls, throttle reporting, and the ordered sends.
// Every capacity source's search uses it, so each states a region's progress by the same
// rules.
type Fanout[O any] struct {
	out     chan<- source.Step[O]
	key     func(O) string
	explain func(error) string
	// Unsold is the note of a region that finished empty after a call the source
	// declared not offered there (see FinishUnsold).
	Unsold string
	// Bucket, when set, gives a region's request bucket now: its tokens and refill rate
	// per second (ok false when the region is not paced), for the steps' Progress.
	Bucket func(region string) (tokens, rate float64, ok bool)

	// mu also serialises the sends, so events leave in the order their states were
	// computed and a finished region is never followed by a stale "searching".
	mu     sync.Mutex
	seen   map[string]bool
	states map[string]*regionRun
	done   int
	total  int
}

type regionRun struct {
	pending, offerings int
	done               int
	unsold             int
	throttled          bool
	err                error
	last               *model.RegionStatus
}

// NewFanout sends to out the steps of a search of regions, whose calls are in the
// regions listed in callRegions (one entry per call). key identifies an offering, region
// included, for de-duplication; explain gives a failed region's message.
func NewFanout[O any](out chan<- source.Step[O], regions, callRegions []string, key func(O) string, explain func(error) string) *Fanout[O] {
	f := &Fanout[O]{out: out, key: key, explain: explain, seen: map[string]bool{}, states: map[string]*regionRun{}, total: len(callRegions)}
	for _, r := range regions {
		f.states[r] = &regionRun{}
	}
	for _, r := range callRegions {
		f.states[r].pending++
	}
	return f
}

// Refuse ends every region in an error naming a query that breaks a rule, before any call.
func (f *Fanout[O]) Refuse(ctx context.Context, regions []string, err error) {
	for _, r := range regions {
		st := model.RegionStatus{Region: r, State: model.RegionError, Message: "bad query: " + err.Error(), Err: err}
		if !f.Send(ctx, source.Step[O]{Region: r, Status: &st, CallsTotal: f.total}) {
			return
		}
	}
}

// Begin sends each region's first status: searching, or empty with the note notes gives
// for a region that has no call. It reports false when ctx ended.
func (f *Fanout[O]) Begin(ctx context.Context, regions []string, notes map[string]string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range regions {
		st := model.RegionStatus{Region: r, State: model.RegionSearching}
		if msg, ok := notes[r]; ok {
			st = model.RegionStatus{Region: r, State: model.RegionEmpty, Message: msg}
		}
		f.states[r].last = &st
		if !f.sendLocked(ctx, source.Step[O]{Region: r, Status: &st, CallsTotal: f.total}) {
			return false
		}
	}
	return true
}

// Deliver sends one batch of a region's offerings, without those already delivered. It
// reports false when ctx ended.
func (f *Fanout[O]) Deliver(ctx context.Context, region string, offs []O) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	fresh := offs[:0:0]
	for _, o := range offs {
		k := f.key(o)
		if !f.seen[k] {
			f.seen[k] = true
			fresh = append(fresh, o)
		}
	}
	rs := f.states[region]
	rs.offerings += len(fresh)
	rs.throttled = false
	ev := source.Step[O]{Region: region, Offerings: fresh, CallsDone: f.done, CallsTotal: f.total}
	ev.Status = f.statusChange(region)
	if len(fresh) == 0 && ev.Status == nil {
		return ctx.Err() == nil
	}
	return f.sendLocked(ctx, ev)
}

// Throttled reports that AWS is throttling a region's calls (the SDK backs off and retries).
func (f *Fanout[O]) Throttled(ctx context.Context, region string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.states[region].throttled = true
	if st := f.statusChange(region); st != nil {
		f.sendLocked(ctx, source.Step[O]{Region: region, Status: st, CallsDone: f.done, CallsTotal: f.total})
	}
}

// Finish ends one call of a region, with its error if it failed.
func (f *Fanout[O]) Finish(ctx context.Context, region string, err error) {
	f.finish(ctx, region, err, false)
}

// FinishUnsold ends one call of a region that the source answered with "not offered here":
// nothing to show, and no error.
func (f *Fanout[O]) FinishUnsold(ctx context.Context, region string) {
	f.finish(ctx, region, nil, true)
}

func (f *Fanout[O]) finish(ctx context.Context, region string, err error, unsold bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ctx.Err() != nil {
		return // cancelled: no more events, and the error is only the cancellation
	}
	rs := f.states[region]
	rs.pending--
	rs.done++
	rs.throttled = false
	if unsold {
		rs.unsold++
	}
	if err != nil && rs.err == nil {
		rs.err = err
	}
	f.done++
	f.sendLocked(ctx, source.Step[O]{Region: region, Status: f.statusChange(region), CallsDone: f.done, CallsTotal: f.total})
}

// statusChange computes the region's status and returns it when it differs from the
// last one sent.
func (f *Fanout[O]) statusChange(region string) *model.RegionStatus {
	rs := f.states[region]
	st := model.RegionStatus{Region: region, Offerings: rs.offerings}
	switch {
	case rs.pending == 0 && rs.err != nil:
		st.State, st.Err = model.RegionError, rs.err
		st.Message = f.explain(rs.err)
	case rs.pending == 0 && rs.offerings > 0:
		st.State = model.RegionOK
	case rs.pending == 0:
		st.State = model.RegionEmpty
		if rs.unsold > 0 {
			st.Message = f.Unsold
		}
	case rs.throttled:
		st.State, st.Message = model.RegionThrottled, "AWS is throttling requests; retrying with backoff"
	default:
		st.State = model.RegionSearching
	}
	if rs.last != nil && rs.last.State == st.State && rs.last.Offerings == st.Offerings && rs.last.Message == st.Message {
		return nil
	}
	rs.last = &st
	cp := st
	return &cp
}

// Add counts n more calls of region, decided after the search began (before the call
// that decided them finishes, so the region is not seen done in between).
func (f *Fanout[O]) Add(region string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.states[region].pending += n
	f.total += n
}

// Total is how many calls the search makes.
func (f *Fanout[O]) Total() int { return f.total }

// Send sends ev as it is, in order with the steps the fan-out makes (a cached answer's,
// before any call); it reports false when ctx ended.
func (f *Fanout[O]) Send(ctx context.Context, ev source.Step[O]) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sendLocked(ctx, ev)
}

func (f *Fanout[O]) sendLocked(ctx context.Context, ev source.Step[O]) bool {
	if ctx.Err() != nil {
		return false
	}
	if rs := f.states[ev.Region]; rs != nil && ev.Progress == nil {
		var tokens, rate float64
		if f.Bucket != nil {
			if t, r, ok := f.Bucket(ev.Region); ok {
				tokens, rate = t, r
			}
		}
		p := progressOf(ev.Region, rs.done, rs.pending, tokens, rate, time.Now())
		ev.Progress = &p
	}
	select {
	case f.out <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// RunCalls runs every call, each once its region's pace allows (pace waits for the
// region's request token and returns the context the call runs under), at most perRegion
// at a time in one region and overall in all (0: no such limit), and returns when all
// have ended. The token is waited for before any slot is taken, so that a region waiting
// for its bucket never holds a slot another region could use; and the region slot is taken
// before the overall one, so a busy region cannot starve the others.
func RunCalls[C any](ctx context.Context, calls []C, region func(C) string, perRegion, overall int,
	pace func(ctx context.Context, region string) (context.Context, error), do func(context.Context, C)) {
	r := NewCallRunner(ctx, region, perRegion, overall, func(ctx context.Context, c C) (context.Context, error) { return pace(ctx, region(c)) }, do)
	for _, c := range calls {
		r.Go(c)
	}
	r.Wait()
}

// CallRunner runs calls as RunCalls does, and takes more while it runs (a call that finds
// it must ask again).
type CallRunner[C any] struct {
	ctx                context.Context
	region             func(C) string
	perRegion, overall int
	pace               func(ctx context.Context, c C) (context.Context, error)
	do                 func(context.Context, C)

	all  chan struct{}
	mu   sync.Mutex
	sems map[string]chan struct{}
	wg   sync.WaitGroup
}

// NewCallRunner is a runner of calls under ctx with RunCalls' bounds; pace is given the call.
func NewCallRunner[C any](ctx context.Context, region func(C) string, perRegion, overall int,
	pace func(ctx context.Context, c C) (context.Context, error), do func(context.Context, C)) *CallRunner[C] {
	r := &CallRunner[C]{ctx: ctx, region: region, perRegion: perRegion, overall: overall, pace: pace, do: do, sems: map[string]chan struct{}{}}
	if overall > 0 {
		r.all = make(chan struct{}, overall)
	}
	return r
}

func (r *CallRunner[C]) sem(region string) chan struct{} {
	if r.perRegion <= 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sems[region] == nil {
		r.sems[region] = make(chan struct{}, r.perRegion)
	}
	return r.sems[region]
}

// Go starts c: it runs once its region's pace and slots allow. Calls start waiting in the
// order they are given.
func (r *CallRunner[C]) Go(c C) {
	ctx := r.ctx
	reg := r.region(c)
	sem := r.sem(reg)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		cctx, err := r.pace(ctx, c)
		if err != nil {
			return
		}
		if sem != nil {
			if !Acquire(ctx, sem) {
				return
			}
			defer func() { <-sem }()
		}
		if r.all != nil {
			if !Acquire(ctx, r.all) {
				return
			}
			defer func() { <-r.all }()
		}
		r.do(cctx, c)
	}()
}

// Wait returns when every call given, and every call they gave, has ended.
func (r *CallRunner[C]) Wait() { r.wg.Wait() }

// Acquire takes a slot of sem, or reports false when ctx ends first.
func Acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		if ctx.Err() != nil {
			<-sem
			return false
		}
		return true
	case <-ctx.Done():
		return false
	}
}
