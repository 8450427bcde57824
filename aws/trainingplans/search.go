package trainingplans

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/source"
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

// QueryFrom is the training-plan form of a query, with its targets: the lengths of its
// range that plans sell (every whole day, not the blocks' set).
func QueryFrom(q model.Query, targets ...string) Query {
	days := model.SourceTrainingPlan.DurationDays(q.Durations.MinDays, q.Durations.MaxDays)
	return Query{InstanceTypes: q.InstanceTypes, Count: q.Count, Days: days, Start: q.Start, End: q.End,
		Regions: q.Regions, Targets: targets}
}

// Check is every rule of training plans a query breaks, before any call.
func (q Query) Check() error {
	var errs []error
	if len(q.InstanceTypes) == 0 {
		errs = append(errs, errors.New("no instance type"))
	}
	src := model.SourceTrainingPlan
	for _, t := range q.InstanceTypes {
		if _, err := src.TypeIn(t); err != nil {
			errs = append(errs, err)
		}
	}
	for _, t := range q.InstanceTypes {
		if err := src.CheckCount(t, q.Count); err != nil {
			errs = append(errs, err)
			break
		}
	}
	if len(q.Days) == 0 {
		errs = append(errs, errors.New("no duration"))
	}
	for _, d := range q.Days {
		if err := src.CheckDays(d); err != nil {
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

// SearchEvent is one step of a search: the offerings of one call as they arrived, a
// change of a region's status, or both (the same steps as the Capacity Block search's).
type SearchEvent = source.Step[Offering]

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
				calls = append(calls, call{r, model.SageMakerType(t), d})
			}
		}
	}
	callRegions := make([]string, len(calls))
	for i, cl := range calls {
		callRegions[i] = cl.region
	}
	fan := awsapi.NewFanout(out, regions, callRegions, func(o Offering) string { return o.Region + "/" + o.ID },
		func(err error) string { return Explain(err).Summary })
	fan.Unsold = "not offered as a training plan here"
	fan.Bucket = c.pacer.Bucket("SearchTrainingPlanOfferings")
	s := &search{c: c, q: q, fan: fan}
	go s.start(ctx, out, regions, calls)
	return out
}

type search struct {
	c   *Client
	q   Query
	fan *awsapi.Fanout[Offering]
}

func (s *search) start(ctx context.Context, out chan<- SearchEvent, regions []string, calls []call) {
	defer close(out)
	if err := s.q.Check(); err != nil {
		s.fan.Refuse(ctx, regions, err)
		return
	}
	if !s.fan.Begin(ctx, regions, nil) {
		return
	}
	pace := func(ctx context.Context, region string) (context.Context, error) {
		return s.c.pacer.Wait(ctx, region, "SearchTrainingPlanOfferings")
	}
	awsapi.RunCalls(ctx, calls, func(cl call) string { return cl.region }, s.c.perRegion, 0, pace, s.do)
}

func (s *search) input(cl call) *sagemaker.SearchTrainingPlanOfferingsInput {
	in := &sagemaker.SearchTrainingPlanOfferingsInput{DurationHours: aws.Int64(int64(cl.days) * 24)}
	for _, t := range s.q.Targets {
		in.TargetResources = append(in.TargetResources, types.SageMakerResourceName(t))
	}
	if !s.q.Start.IsZero() {
		in.StartTimeAfter = aws.Time(s.q.Start.UTC())
	}
	if !s.q.End.IsZero() {
		in.EndTimeBefore = aws.Time(s.q.End.UTC())
	}
	if slices.Contains(ultraServerTypes, cl.typ) {
		in.UltraServerType = aws.String(cl.typ)
		in.UltraServerCount = aws.Int32(int32(s.q.Count))
	} else {
		in.InstanceType = types.ReservedCapacityInstanceType(cl.typ)
		in.InstanceCount = aws.Int32(int32(s.q.Count))
	}
	return in
}

func (s *search) do(ctx context.Context, cl call) {
	hooked := awsapi.WithThrottleHook(ctx, func(error) { s.fan.Throttled(ctx, cl.region) })
	asked := time.Now().UTC()
	out, err := s.c.in(cl.region).SearchTrainingPlanOfferings(hooked, s.input(cl))
	if err != nil {
		if notOffered(err) {
			s.fan.FinishUnsold(ctx, cl.region)
			return
		}
		s.fan.Finish(ctx, cl.region, err)
		return
	}
	var offs []Offering
	for _, o := range out.TrainingPlanOfferings {
		off, err := offeringFrom(cl.region, o)
		if err != nil {
			s.fan.Finish(ctx, cl.region, err)
			return
		}
		offs = append(offs, off)
	}
	s.fan.Deliver(ctx, cl.region, offs)
	s.remember(cl, asked, offs)
	s.fan.Finish(ctx, cl.region, nil)
}

// remember keeps a call's whole answer in the market cache with the window it asked: an
// offering's id is that of the search's window (the emulator's is; AWS's ids are not
// documented), so a purchase of an offering listed earlier asks that window again
// (marketcache.Cache.Listed). No screen shows a plan from the cache.
func (s *search) remember(cl call, asked time.Time, offs []Offering) {
	cache, backend := s.c.base.MarketCache()
	if cache == nil {
		return
	}
	rows := make([]model.Offering, len(offs))
	for i, o := range offs {
		rows[i] = ModelOffering(o)
	}
	cell := marketcache.Cell{Source: model.SourceTrainingPlan.Name(), Cloud: backend, Region: cl.region, Type: cl.typ,
		Count: s.q.Count, Days: cl.days, Start: s.q.Start, End: s.q.End, Targets: strings.Join(s.q.Targets, ",")}
	if err := cache.Put(cell, asked, rows); err != nil {
		slog.Debug("market cache not written", "err", err)
	}
}

// notOffered recognises SageMaker's answer for a type a region does not offer as a plan:
// ValidationException "Invalid instance type ml.X". That region has nothing, not an error.
func notOffered(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" &&
		(strings.Contains(ae.ErrorMessage(), "Invalid instance type") || strings.Contains(ae.ErrorMessage(), "Invalid UltraServer type"))
}
