package trainingplans

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"

	gaws "github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

// Query is a training-plan search: types (EC2 or ml.* names), a count, the lengths in
// days to sweep, the window the plan must start after and end before, the regions, and the
// target resources (training jobs when none is given).
type Query struct {
	InstanceTypes []string
	Count         int
	Days          []int
	Start, End    time.Time
	Regions       []string
	Targets       []string
}

// QueryFrom is the training-plan form of a Capacity Block query, with its targets.
func QueryFrom(q model.Query, targets ...string) Query {
	return Query{InstanceTypes: q.InstanceTypes, Count: q.Count, Days: q.Durations.Days(), Start: q.Start, End: q.End,
		Regions: q.Regions, Targets: targets}
}

// Check is every rule of training plans a query breaks, before any call.
func (q Query) Check() error {
	var errs []error
	if len(q.InstanceTypes) == 0 {
		errs = append(errs, errors.New("no instance type"))
	}
	for _, t := range q.InstanceTypes {
		if !Reservable(t) {
			errs = append(errs, fmt.Errorf("training plans do not reserve %s (they reserve %s)", SageMakerType(t), strings.Join(append(slices.Clone(instanceTypes), ultraServerTypes...), ", ")))
		}
	}
	if err := CheckCount(q.Count); err != nil && !q.ultraOnly() {
		errs = append(errs, err)
	}
	if len(q.Days) == 0 {
		errs = append(errs, errors.New("no duration"))
	}
	for _, d := range q.Days {
		if err := CheckDays(d); err != nil {
			errs = append(errs, err)
		}
	}
	for _, t := range q.Targets {
		if !slices.Contains(Targets(), t) {
			errs = append(errs, fmt.Errorf("target resource %q: want one of %s", t, strings.Join(Targets(), ", ")))
		}
	}
	if !q.End.IsZero() && !q.End.After(q.Start) {
		errs = append(errs, fmt.Errorf("the window %s – %s is empty", q.Start.Format(time.DateOnly), q.End.Format(time.DateOnly)))
	}
	return errors.Join(errs...)
}

func (q Query) ultraOnly() bool {
	for _, t := range q.InstanceTypes {
		if !slices.Contains(ultraServerTypes, SageMakerType(t)) {
			return false
		}
	}
	return len(q.InstanceTypes) > 0
}

// SearchEvent is one step of a search: the offerings of one call as they arrived, a
// change of a region's status, or both (the same status as the Capacity Block search's).
type SearchEvent struct {
	Region     string
	Offerings  []Offering
	Status     *gaws.RegionStatus
	CallsDone  int
	CallsTotal int
}

type call struct {
	region, typ string
	days        int
}

// Search starts the fan-out (region × type × length) and returns at once; each call's
// offerings are delivered as they arrive. The channel is closed when every call has
// finished or ctx is cancelled; the caller drains it or cancels ctx. A query that breaks
// a rule ends every region in an error naming it, without any call.
func (c *Client) Search(ctx context.Context, q Query) <-chan SearchEvent {
	out := make(chan SearchEvent, 16)
	regions := slices.Compact(slices.Sorted(slices.Values(q.Regions)))
	if len(regions) == 0 {
		regions = []string{c.base.Region()}
	}
	if len(q.Targets) == 0 {
		q.Targets = []string{TargetTrainingJob}
	}
	var calls []call
	for _, r := range regions {
		for _, t := range q.InstanceTypes {
			for _, d := range q.Days {
				calls = append(calls, call{r, SageMakerType(t), d})
			}
		}
	}
	s := &search{c: c, q: q, out: out, total: len(calls), runs: map[string]*run{}, seen: map[string]bool{}}
	for _, r := range regions {
		s.runs[r] = &run{}
	}
	for _, cl := range calls {
		s.runs[cl.region].pending++
	}
	go s.start(ctx, regions, calls)
	return out
}

type run struct {
	pending, offerings int
	notSold            int
	throttled          bool
	err                error
	last               *gaws.RegionStatus
}

type search struct {
	c     *Client
	q     Query
	out   chan<- SearchEvent
	mu    sync.Mutex // also orders the sends
	runs  map[string]*run
	seen  map[string]bool
	done  int
	total int
}

func (s *search) start(ctx context.Context, regions []string, calls []call) {
	defer close(s.out)
	if err := s.q.Check(); err != nil {
		for _, r := range regions {
			st := gaws.RegionStatus{Region: r, State: gaws.RegionError, Message: "bad query: " + err.Error(), Err: err}
			if !s.send(ctx, SearchEvent{Region: r, Status: &st, CallsTotal: s.total}) {
				return
			}
		}
		return
	}
	for _, r := range regions {
		st := gaws.RegionStatus{Region: r, State: gaws.RegionSearching}
		s.runs[r].last = &st
		if !s.send(ctx, SearchEvent{Region: r, Status: &st, CallsTotal: s.total}) {
			return
		}
	}
	sems := map[string]chan struct{}{}
	for _, r := range regions {
		sems[r] = make(chan struct{}, s.c.perRegion)
	}
	var wg sync.WaitGroup
	for _, cl := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The region's bucket first, then a slot: a call waiting for its token
			// never holds a slot.
			cctx, err := s.c.pacer.Wait(ctx, cl.region, "SearchTrainingPlanOfferings")
			if err != nil {
				return
			}
			select {
			case sems[cl.region] <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sems[cl.region] }()
			s.do(cctx, cl)
		}()
	}
	wg.Wait()
}

func (s *search) input(cl call) *sagemaker.SearchTrainingPlanOfferingsInput {
	in := &sagemaker.SearchTrainingPlanOfferingsInput{DurationHours: sdkaws.Int64(int64(cl.days) * 24)}
	for _, t := range s.q.Targets {
		in.TargetResources = append(in.TargetResources, types.SageMakerResourceName(t))
	}
	if !s.q.Start.IsZero() {
		in.StartTimeAfter = sdkaws.Time(s.q.Start.UTC())
	}
	if !s.q.End.IsZero() {
		in.EndTimeBefore = sdkaws.Time(s.q.End.UTC())
	}
	if slices.Contains(ultraServerTypes, cl.typ) {
		in.UltraServerType = sdkaws.String(cl.typ)
		in.UltraServerCount = sdkaws.Int32(int32(s.q.Count))
	} else {
		in.InstanceType = types.ReservedCapacityInstanceType(cl.typ)
		in.InstanceCount = sdkaws.Int32(int32(s.q.Count))
	}
	return in
}

func (s *search) do(ctx context.Context, cl call) {
	hooked := gaws.WithThrottleHook(ctx, func(error) { s.throttled(ctx, cl.region) })
	out, err := s.c.in(cl.region).SearchTrainingPlanOfferings(hooked, s.input(cl))
	if err != nil {
		if notOffered(err) {
			s.finish(ctx, cl.region, nil, true)
			return
		}
		s.finish(ctx, cl.region, err, false)
		return
	}
	var offs []Offering
	for _, o := range out.TrainingPlanOfferings {
		off, err := offeringFrom(cl.region, o)
		if err != nil {
			s.finish(ctx, cl.region, err, false)
			return
		}
		offs = append(offs, off)
	}
	s.deliver(ctx, cl.region, offs)
	s.finish(ctx, cl.region, nil, false)
}

// notOffered recognises SageMaker's answer for a type a region does not offer as a plan:
// ValidationException "Invalid instance type ml.X". That region has nothing, not an error.
func notOffered(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" &&
		(strings.Contains(ae.ErrorMessage(), "Invalid instance type") || strings.Contains(ae.ErrorMessage(), "Invalid UltraServer type"))
}

func (s *search) deliver(ctx context.Context, region string, offs []Offering) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fresh []Offering
	for _, o := range offs {
		if k := region + "/" + o.ID; !s.seen[k] {
			s.seen[k] = true
			fresh = append(fresh, o)
		}
	}
	if len(fresh) == 0 {
		return
	}
	r := s.runs[region]
	r.offerings += len(fresh)
	r.throttled = false
	s.sendLocked(ctx, SearchEvent{Region: region, Offerings: fresh, Status: s.statusChange(region), CallsDone: s.done, CallsTotal: s.total})
}

func (s *search) throttled(ctx context.Context, region string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[region].throttled = true
	if st := s.statusChange(region); st != nil {
		s.sendLocked(ctx, SearchEvent{Region: region, Status: st, CallsDone: s.done, CallsTotal: s.total})
	}
}

func (s *search) finish(ctx context.Context, region string, err error, notSold bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	r := s.runs[region]
	r.pending--
	r.throttled = false
	if notSold {
		r.notSold++
	}
	if err != nil && r.err == nil {
		r.err = err
	}
	s.done++
	s.sendLocked(ctx, SearchEvent{Region: region, Status: s.statusChange(region), CallsDone: s.done, CallsTotal: s.total})
}

func (s *search) statusChange(region string) *gaws.RegionStatus {
	r := s.runs[region]
	st := gaws.RegionStatus{Region: region, Offerings: r.offerings}
	switch {
	case r.pending == 0 && r.err != nil:
		st.State, st.Err, st.Message = gaws.RegionError, r.err, Explain(r.err).Summary
	case r.pending == 0 && r.offerings > 0:
		st.State = gaws.RegionOK
	case r.pending == 0:
		st.State = gaws.RegionEmpty
		if r.notSold > 0 {
			st.Message = "not offered as a training plan here"
		}
	case r.throttled:
		st.State, st.Message = gaws.RegionThrottled, "AWS is throttling requests; retrying with backoff"
	default:
		st.State = gaws.RegionSearching
	}
	if r.last != nil && *r.last == st {
		return nil
	}
	r.last = &st
	cp := st
	return &cp
}

func (s *search) send(ctx context.Context, ev SearchEvent) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sendLocked(ctx, ev)
}

func (s *search) sendLocked(ctx context.Context, ev SearchEvent) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case s.out <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}
