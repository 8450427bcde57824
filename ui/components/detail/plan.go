package detail

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// planSearchCommand is the AWS CLI search that finds a training plan offering: SageMaker's
// own names for the type, count, length, window and target resources.
func planSearchCommand(o model.Offering, q model.Query) string {
	args := []string{"aws", "sagemaker", "search-training-plan-offerings", "--region", o.Region}
	if o.UltraServerType != "" {
		args = append(args, "--ultra-server-type", o.UltraServerType, "--ultra-server-count", fmt.Sprint(max(1, o.UltraServerCount)))
	} else {
		args = append(args, "--instance-type", o.InstanceType, "--instance-count", fmt.Sprint(o.Count))
	}
	args = append(args, "--duration-hours", fmt.Sprint(o.DurationHours))
	if !q.Start.IsZero() && !q.End.IsZero() {
		args = append(args, "--start-time-after", q.Start.UTC().Format(time.RFC3339), "--end-time-before", q.End.UTC().Format(time.RFC3339))
	}
	targets := o.Targets
	if len(targets) == 0 {
		targets = []string{model.TargetTrainingJob}
	}
	args = append(args, "--target-resources", strings.Join(targets, " "))
	return strings.Join(args, " ")
}

// planPurchaseCommand is the AWS CLI command that buys a training plan offering; NAME is
// the plan's name, which gpublock derives from the purchase's request id.
func planPurchaseCommand(o model.Offering) string {
	return strings.Join([]string{"aws", "sagemaker", "create-training-plan", "--region", o.Region,
		"--training-plan-name", "NAME", "--training-plan-offering-id", o.ID}, " ")
}

// NoSageMakerPrice says that a plan of the type has no SageMaker on-demand rate in the
// catalog: EC2's rate of the same hardware is not SageMaker's, so none is used. The detail,
// the purchase dialog and the extension dialog all say it so.
func NoSageMakerPrice(instanceType string) string {
	return model.NoSageMakerPrice(instanceType)
}

func noSageMakerPrice(o model.Offering) string {
	return "— " + NoSageMakerPrice(o.InstanceType) + " in " + o.Region + " (EC2's rate is not SageMaker's and is not used)"
}

// planContent is the detail of a training plan offering: its parts, its honest hours (the sum
// of the parts', never the span across a gap), its rates and SageMaker's on-demand price.
func planContent(l *drawer, o model.Offering, c *pricing.Comparison, q model.Query, now time.Time, readOnly bool) {
	th := l.th
	l.add(th.Focused.Render(o.ID) + th.Value.Render(" · "+o.Region+" · "+model.SourceTrainingPlan.Title()))
	l.field("For", model.TargetsWords(o.Targets))
	what := fmt.Sprintf("%d × %s", o.Count, o.InstanceType)
	if t, known := model.LookupType(model.EC2Type(o.InstanceType)); known {
		what += fmt.Sprintf(" · %d× %s %s, %d GiB each", t.Accelerators, t.AcceleratorMaker, t.AcceleratorModel, t.AcceleratorGiB)
	}
	l.field("Instances", what)
	l.field("Start", l.both(o.Start))
	l.field("End", l.both(o.End))
	hours := model.PartsHours(o.Parts)
	if hours == 0 {
		hours = int64(o.DurationHours)
	}
	length := fmt.Sprintf("%d hours reserved", hours)
	if len(o.Parts) > 1 {
		length += fmt.Sprintf(" in %d parts (the gaps between them are not reserved, nor paid)", len(o.Parts))
	}
	l.field("Length", length)
	for i, p := range o.Parts {
		l.field(fmt.Sprintf("Part %d", i+1), p.Summary())
	}
	cur := o.Currency
	if cur == "" {
		cur = "USD"
	}
	l.field("Upfront fee", o.Fee.Dollars()+" "+cur+" ("+o.Fee.String()+"), charged at purchase; cannot be cancelled or modified")
	l.field("Rates", o.HourlyRate().Rate()+" per instance-hour · "+o.AcceleratorHourlyRate().Rate()+" per accelerator-hour")
	if c != nil {
		if c.NoOnDemand {
			l.field("On-demand", noSageMakerPrice(o))
		} else {
			on, be := pricingFields(*c)
			l.field("On-demand", on)
			if be != "" {
				l.field("Break-even", be)
			}
		}
	}
	when := "in " + model.ShortSpan(o.Start.Sub(now))
	if o.Started(now) {
		when = StartedWords
	}
	l.field("Starts", when)
	l.add(spacer)
	l.para(th.Warning.Render, "When a reserved capacity ends, SageMaker stops what runs on it: training jobs, cluster instances and endpoints are not carried over.")
	l.add(spacer)
	if readOnly {
		l.add(th.Label.Render("AWS CLI · y copies the search"))
	} else {
		l.add(th.Label.Render("AWS CLI · y copies the search · Y copies the purchase"))
	}
	for _, s := range shellWrap(planSearchCommand(o, q), l.width) {
		l.add(th.Code.Render(s))
	}
	if !readOnly {
		for _, s := range shellWrap(planPurchaseCommand(o), l.width) {
			l.add(th.Code.Render(s))
		}
	}
}
