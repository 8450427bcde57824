package printers

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/model"
)

// PlanJSON is a training plan as DescribeTrainingPlan names its fields, plus its source,
// region, countdown and how to use it.
type PlanJSON struct {
	Source model.Source
	// Account is the AWS account that owns the plan (its ARN's).
	Account                   string `json:",omitempty"`
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

// PlanListJSON is a plan in a listing: with every warning in force, as a block has.
type PlanListJSON struct {
	PlanJSON
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

func ToPlanJSON(b model.Block) PlanJSON {
	j := PlanJSON{Source: b.Source, Account: b.Account, TrainingPlanName: b.ReservationID, TrainingPlanArn: b.ARN, Region: b.Region,
		Status: model.PlanStatus(b.State), StatusMessage: b.StatusMessage, StartTime: RFC3339(b.Start), EndTime: RFC3339(b.End),
		DurationHours: b.Hours(), UpfrontFee: b.Fee.String(), CurrencyCode: b.Currency, TotalInstanceCount: b.TotalCount,
		AvailableInstanceCount: b.AvailableCount, InUseInstanceCount: b.RunningCount, TargetResources: b.Targets,
		ReservedCapacitySummaries: []reservedCapacityJSON{}, HowToUse: model.PlanUses(b)}
	for _, p := range b.Parts {
		j.ReservedCapacitySummaries = append(j.ReservedCapacitySummaries, reservedCapacityJSON{ReservedCapacityArn: p.ARN, Status: p.Status,
			AvailabilityZone: p.AvailabilityZone, InstanceType: p.InstanceType, TotalInstanceCount: p.Count,
			StartTime: RFC3339(p.Start), EndTime: RFC3339(p.End), DurationHours: p.Hours})
	}
	if j.HowToUse == nil {
		j.HowToUse = []model.PlanUse{}
	}
	return j
}

const planTableFormat = "%-15s  %-30s  %-14s  %-16s  %5s  %-10s  %-16s  %-16s  %6s  %-14s  %-38s  %s\n"

// printPlans writes the plans of a listing in a table of their own, under the blocks',
// with each plan's most urgent warning, its ARN and how to use it.
func printPlans(plans []model.Block, rules model.WarnRules, now time.Time, w io.Writer, underBlocks, accounts bool) error {
	if len(plans) == 0 {
		return nil
	}
	if underBlocks {
		fmt.Fprintln(w)
	}
	head, account := "", func(model.Block) string { return "" }
	if accounts {
		head = fmt.Sprintf(accountCell, "ACCOUNT")
		account = func(b model.Block) string { return fmt.Sprintf(accountCell, b.Account) }
	}
	fmt.Fprint(w, head)
	fmt.Fprintf(w, planTableFormat, "SOURCE", "TRAINING PLAN", "REGION", "TYPE", "COUNT", "STATUS", "START (UTC)", "END (UTC)", "HOURS", "FEE", "TO START / TO END", "WARNING")
	for _, b := range plans {
		fmt.Fprint(w, account(b))
		if _, err := fmt.Fprintf(w, planTableFormat, b.Source.Name(), b.ReservationID, b.Region, b.InstanceType, strconv.Itoa(b.TotalCount),
			model.PlanStatus(b.State), b.Start.UTC().Format(model.LayoutMinute), b.End.UTC().Format(model.LayoutMinute), strconv.FormatInt(b.Hours(), 10),
			b.Fee.Dollars(), b.PlanCountdown(now), rules.Top(b, now).Cell(b, now)); err != nil {
			return err
		}
	}
	for _, b := range plans {
		fmt.Fprintf(w, "\n%s  %s\n", b.ReservationID, b.ARN)
		for i, p := range b.Parts {
			fmt.Fprintf(w, "  part %d: %s × %d in %s, %s → %s UTC (%d hours)\n", i+1, p.InstanceType, p.Count, p.AvailabilityZone,
				p.Start.UTC().Format(model.LayoutMinute), p.End.UTC().Format(model.LayoutMinute), p.Hours)
		}
		for _, u := range model.PlanUses(b) {
			fmt.Fprintf(w, "  %s (%s):\n    %s\n", u.Target, u.Field, u.Command)
		}
	}
	return nil
}
