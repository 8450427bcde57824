package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// scanSources lists the reservations of every source --source names, each through its
// own listing (the Capacity Blocks' skips the regions found empty for a while). The
// failures of a source other than the default one (the first registered) name it, and a
// region stays listed in part when an earlier source's reservations stand. The fees paid
// are the sources' (the journal's, for the blocks; SageMaker's own, for the plans).
func (a *blocksArgs) scanSources(ctx context.Context, regions []string) ([]model.Block, map[string]model.Money, error) {
	var (
		blocks []model.Block
		fees   = map[string]model.Money{}
		errs   []error
	)
	for i, src := range a.sources {
		l, err := src.List(ctx, regions)
		blocks = append(blocks, l.Blocks...)
		maps.Copy(fees, l.Fees)
		for _, e := range source.Unjoin(err) {
			var rf *source.RegionFailure
			switch {
			case e == nil:
			case sourcePrefix(src.Caps().Source) != "" && errors.As(e, &rf):
				errs = append(errs, &source.RegionFailure{Region: rf.Region, Err: fmt.Errorf("%s%w", sourcePrefix(src.Caps().Source), rf.Err), Partial: i > 0})
			default:
				errs = append(errs, e)
			}
		}
	}
	return blocks, fees, errors.Join(errs...)
}

// openSources opens every source --source names, in their order.
func (a *blocksArgs) openSources(client *awsapi.Client) error {
	srcs, _, _ := a.src.check() // validated before
	for _, s := range srcs {
		src, err := openSource(client, s)
		if err != nil {
			return err
		}
		a.sources = append(a.sources, src)
	}
	return nil
}

// partsSource is the first source listed whose reservations are made of parts (training
// plans), which have their own table and JSON; ok is false when none is listed.
func (a *blocksArgs) partsSource() (model.Source, bool) {
	srcs, _, _ := a.src.check()
	i := slices.IndexFunc(srcs, func(s model.Source) bool { caps, _ := capsOf(s); return hasParts(caps) })
	if i < 0 {
		return 0, false
	}
	return srcs[i], true
}

// planJSON is a training plan as DescribeTrainingPlan names its fields, plus its source,
// region, countdown and how to use it.
type planJSON struct {
	Source                    model.Source
	TrainingPlanName          string
	TrainingPlanArn           string
	Region                    string
	Status                    string
	StatusMessage             string `json:",omitempty"`
	StartTime                 string
	EndTime                   string
	DurationHours             int64
	UpfrontFee                string
	CurrencyCode              string
	TotalInstanceCount        int
	AvailableInstanceCount    int
	InUseInstanceCount        int
	TargetResources           []string
	ReservedCapacitySummaries []reservedCapacityJSON
	Countdown                 string `json:",omitempty"`
	HowToUse                  []model.PlanUse
}

// planListJSON is a plan in a listing: with every warning in force, as a block has.
type planListJSON struct {
	planJSON
	Warnings []warningJSON
}

type reservedCapacityJSON struct {
	ReservedCapacityArn string `json:",omitempty"`
	Status              string `json:",omitempty"`
	AvailabilityZone    string
	InstanceType        string
	TotalInstanceCount  int
	StartTime           string
	EndTime             string
	DurationHours       int64
}

func toPlanJSON(b model.Block) planJSON {
	j := planJSON{Source: b.Source, TrainingPlanName: b.ReservationID, TrainingPlanArn: b.ARN, Region: b.Region,
		Status: model.PlanStatus(b.State), StatusMessage: b.StatusMessage, StartTime: rfc3339(b.Start), EndTime: rfc3339(b.End),
		DurationHours: b.Hours(), UpfrontFee: b.Fee.String(), CurrencyCode: b.Currency, TotalInstanceCount: b.TotalCount,
		AvailableInstanceCount: b.AvailableCount, InUseInstanceCount: b.RunningCount, TargetResources: b.Targets,
		ReservedCapacitySummaries: []reservedCapacityJSON{}, HowToUse: model.PlanUses(b)}
	for _, p := range b.Parts {
		j.ReservedCapacitySummaries = append(j.ReservedCapacitySummaries, reservedCapacityJSON{ReservedCapacityArn: p.ARN, Status: p.Status,
			AvailabilityZone: p.AvailabilityZone, InstanceType: p.InstanceType, TotalInstanceCount: p.Count,
			StartTime: rfc3339(p.Start), EndTime: rfc3339(p.End), DurationHours: p.Hours})
	}
	if j.HowToUse == nil {
		j.HowToUse = []model.PlanUse{}
	}
	return j
}

const planTableFormat = "%-15s  %-30s  %-14s  %-16s  %5s  %-10s  %-16s  %-16s  %6s  %-14s  %-38s  %s\n"

// printPlans writes the plans of a listing in a table of their own, under the blocks',
// with each plan's most urgent warning, its ARN and how to use it.
func printPlans(plans []model.Block, rules model.WarnRules, now time.Time, w io.Writer, underBlocks bool) error {
	if len(plans) == 0 {
		return nil
	}
	if underBlocks {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, planTableFormat, "SOURCE", "TRAINING PLAN", "REGION", "TYPE", "COUNT", "STATUS", "START (UTC)", "END (UTC)", "HOURS", "FEE", "TO START / TO END", "WARNING")
	for _, b := range plans {
		if _, err := fmt.Fprintf(w, planTableFormat, b.Source.Name(), b.ReservationID, b.Region, b.InstanceType, strconv.Itoa(b.TotalCount),
			model.PlanStatus(b.State), b.Start.UTC().Format("2006-01-02 15:04"), b.End.UTC().Format("2006-01-02 15:04"), strconv.FormatInt(b.Hours(), 10),
			b.Fee.Dollars(), b.PlanCountdown(now), rules.Top(b, now).Cell(b, now)); err != nil {
			return err
		}
	}
	for _, b := range plans {
		fmt.Fprintf(w, "\n%s  %s\n", b.ReservationID, b.ARN)
		for i, p := range b.Parts {
			fmt.Fprintf(w, "  part %d: %s × %d in %s, %s → %s UTC (%d hours)\n", i+1, p.InstanceType, p.Count, p.AvailabilityZone,
				p.Start.UTC().Format("2006-01-02 15:04"), p.End.UTC().Format("2006-01-02 15:04"), p.Hours)
		}
		for _, u := range model.PlanUses(b) {
			fmt.Fprintf(w, "  %s (%s):\n    %s\n", u.Target, u.Field, u.Command)
		}
	}
	return nil
}

// splitParts separates the reservations made of parts (training plans) of a listing from
// the blocks, by what their source's capabilities say.
func splitParts(all []model.Block) (blocks, plans []model.Block) {
	for _, b := range all {
		if caps, _ := capsOf(b.Source); hasParts(caps) {
			plans = append(plans, b)
		} else {
			blocks = append(blocks, b)
		}
	}
	return blocks, plans
}
