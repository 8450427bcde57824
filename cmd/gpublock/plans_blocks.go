package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
)

// scanSources lists the reservations of every source --source names: the Capacity Blocks
// through the scanner, the training plans through SageMaker. A region whose plans could
// not be listed while its blocks were is listed in part (its blocks stand).
func (a *blocksArgs) scanSources(ctx context.Context, client *aws.Client, regions []string) ([]model.Block, error) {
	srcs, _, _ := a.src.check() // validated before
	var (
		blocks []model.Block
		errs   []error
	)
	withBlocks := slices.Contains(srcs, model.SourceCapacityBlock)
	if withBlocks {
		scan, err := a.scanner.Scan(ctx, regions)
		blocks = scan.Blocks
		if err != nil {
			errs = append(errs, aws.Unjoin(err)...)
		}
	}
	if slices.Contains(srcs, model.SourceTrainingPlan) {
		plans, err := trainingplans.New(client).Plans(ctx, regions)
		for _, p := range plans {
			blocks = append(blocks, trainingplans.ModelBlock(p))
		}
		for _, e := range aws.Unjoin(err) {
			var rf *aws.RegionFailure
			if e == nil {
				continue
			}
			if errors.As(e, &rf) {
				errs = append(errs, &aws.RegionFailure{Region: rf.Region, Err: fmt.Errorf("training plans: %w", rf.Err), Partial: withBlocks})
				continue
			}
			errs = append(errs, e)
		}
	}
	return blocks, errors.Join(errs...)
}

// withPlans reports whether the listing includes training plans.
func (a *blocksArgs) withPlans() bool {
	srcs, _, _ := a.src.check()
	return slices.Contains(srcs, model.SourceTrainingPlan)
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
	j := planJSON{Source: model.SourceTrainingPlan, TrainingPlanName: b.ReservationID, TrainingPlanArn: b.ARN, Region: b.Region,
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

// splitPlans separates the training plans of a listing from its blocks.
func splitPlans(all []model.Block) (blocks, plans []model.Block) {
	for _, b := range all {
		if b.Source == model.SourceTrainingPlan {
			plans = append(plans, b)
		} else {
			blocks = append(blocks, b)
		}
	}
	return blocks, plans
}
