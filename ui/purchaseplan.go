package ui

import (
	"fmt"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
)

// planIrrevocable is the plans' form of the blocks' warning: SageMaker's words are
// "cannot be cancelled or modified".
const planIrrevocable = "This training plan cannot be cancelled or modified. The fee is charged up front."

// planLines is the purchase dialog of a training plan: the same facts as a block's (account,
// region, what it is for, each reserved capacity with its zone and window, the total fee),
// no platform, and in place of the dry run the plain fact that there is none. out holds the
// mode's first line.
func (d purchaseDialog) planLines(w int, account string, out []string) []string {
	th, o := d.env.Theme, d.o
	onDemand := detail.NoSageMakerPrice(o.InstanceType)
	switch {
	case d.cmp.NoOnDemand:
	case d.cmp.CanWin:
		onDemand = fmt.Sprintf("%d%% utilization against SageMaker's on-demand rate", d.cmp.BreakEvenPercent())
	default:
		onDemand = fmt.Sprintf("%d%% utilization: never cheaper than SageMaker on-demand", d.cmp.BreakEvenPercent())
	}
	hours := model.PartsHours(o.Parts)
	if hours == 0 {
		hours = int64(o.DurationHours)
	}
	rows := [][2]string{
		{"Account", account + " (alias unavailable)"},
		{"Region", o.Region},
		{"For", model.TargetsWords(o.Targets)},
		{"Capacity", fmt.Sprintf("%s × %d, %d hours reserved", o.InstanceType, o.Count, hours)},
	}
	for i, p := range o.Parts {
		rows = append(rows, [2]string{fmt.Sprintf("Part %d", i+1), partShort(p, o.InstanceType)})
	}
	rows = append(rows,
		[2]string{"Start", bothTimes(o.Start, d.env.Location)},
		[2]string{"End", bothTimes(o.End, d.env.Location)},
		[2]string{"UPFRONT FEE", exactFee(o.Fee, o.Currency) + ", total for every part"},
		[2]string{"Break-even", onDemand},
		[2]string{"Offering", o.ID},
	)
	for _, l := range fieldLines(th, rows, w-2) {
		out = append(out, "  "+l)
	}
	return append(out, d.tailLines(planIrrevocable, w)...)
}

// partShort is a part in a dialog's width: its zone, count, window and hours, and its type
// only where it is not the plan's.
func partShort(p model.Part, planType string) string {
	what := fmt.Sprintf("×%d", p.Count)
	if p.InstanceType != planType {
		what = fmt.Sprintf("%d × %s", p.Count, p.InstanceType)
	}
	hours := p.Hours
	if hours == 0 {
		hours = int64(p.End.Sub(p.Start).Hours())
	}
	return fmt.Sprintf("%s · %s · %s – %s UTC · %dh", p.AvailabilityZone, what, p.Start.UTC().Format("Jan 02 15:04"), p.End.UTC().Format("Jan 02 15:04"), hours)
}
