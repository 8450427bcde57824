package advisor

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// PerHourHeading heads the column of Cells.PerHour in the CLI and the TUI: the cost over the
// job's accelerator-hours of useful work, which is more than a block's fee over all its
// accelerator-hours (model.Offering.AcceleratorHourlyRate), since a block is paid whole.
const PerHourHeading = "PER USEFUL ACC-H"

// Cells are an option's table cells, as the CLI and the TUI show them.
type Cells struct {
	Total, PerHour, Where, Status string
}

// Describe writes an option's cells: its total (or range, or "unknown"), its cost per
// useful accelerator-hour, where it is, and whether it is recommended, unknown or ruled out.
func Describe(o Option, recommended Kind) Cells {
	c := Cells{Total: "unknown", PerHour: "—"}
	switch {
	case o.Known:
		c.Total, c.PerHour = o.Total.Dollars(), o.PerUsefulAcceleratorHour.Rate()
	case o.HasRange && o.Low == o.High:
		c.Total, c.PerHour = "~"+o.Low.Dollars(), "~"+o.PerLow.Rate()
	case o.HasRange:
		c.Total, c.PerHour = o.Low.Dollars()+"–"+o.High.Dollars(), o.PerLow.Rate()+"–"+o.PerHigh.Rate()
	}
	if !o.Eligible() {
		c.Total, c.PerHour = "—", "—"
	}
	switch {
	case o.Offering != nil:
		off := o.Offering.Offering
		c.Where = fmt.Sprintf("%s %s", off.AvailabilityZone, off.Start.UTC().Format(model.LayoutDay))
	case o.Region != "":
		c.Where = o.Region
	}
	switch {
	case o.Kind == recommended && recommended != "":
		c.Status = "recommended"
	case !o.Eligible():
		c.Status = "ruled out"
	case !o.Known:
		c.Status = "unknown"
	default:
		c.Status = "fits"
	}
	return c
}

// Details are the lines under an option: what it guarantees, why it is ruled out or what is
// unknown, its notes and the source and age of every figure.
func Details(o Option, now time.Time) []string {
	var out []string
	if o.RuledOut != "" {
		out = append(out, "ruled out: "+o.RuledOut)
	}
	if o.Unknown != "" {
		out = append(out, "unknown: "+o.Unknown)
	}
	if o.Eligible() {
		out = append(out, fmt.Sprintf("guarantees: capacity: %s; price: %s; interruption: %s", o.Guarantee.Capacity, o.Guarantee.Price, o.Guarantee.Interruption))
	}
	out = append(out, o.Notes...)
	for _, f := range o.Figures {
		age := pricing.Row{Date: f.Date}.Age(now)
		if f.Live {
			age = "live, " + age
		}
		out = append(out, fmt.Sprintf("figure: %s %s (%s, %s; %s)", f.What, f.Value, f.Source, shortDate(f.Date), age))
	}
	return out
}

func shortDate(d string) string {
	if t, err := time.Parse(time.RFC3339, d); err == nil {
		return t.UTC().Format(model.LayoutMinuteUTC)
	}
	return d
}

// JobLine says the job in one line.
func JobLine(j Job) string {
	what := j.InstanceType
	if what == "" {
		what = "any " + j.Class + "-class type"
		if types := ClassTypes(j.Class); len(types) > 0 {
			t, _ := model.LookupType(types[0])
			what = "any " + t.AcceleratorModel + "-class type"
		}
	}
	size := fmt.Sprintf("%d × %s", j.Instances, what)
	if t, ok := model.LookupType(j.InstanceType); ok {
		size += fmt.Sprintf(" (%d %s)", j.Instances*t.Accelerators, t.AcceleratorModel)
	}
	if j.Accelerators > 0 {
		size = fmt.Sprintf("%d accelerators of %s", j.Accelerators, what)
	}
	run := fmt.Sprintf("%d h", j.Hours)
	if j.Recurring() {
		run = fmt.Sprintf("%d h a month for %d months", j.RecurringHoursPerMonth, j.RecurringMonths)
	}
	var flags []string
	if j.Interruptible {
		flags = append(flags, "interruptible")
	}
	if j.SageMaker {
		flags = append(flags, "on SageMaker")
	}
	extra := ""
	if len(flags) > 0 {
		extra = ", " + strings.Join(flags, ", ")
	}
	return fmt.Sprintf("Job: %s, %s at %d%% utilization%s; window %s – %s; %s", size, run, j.UtilizationPercent, extra,
		j.WindowStart.UTC().Format(model.LayoutShort), j.WindowEnd.UTC().Format(model.LayoutShortUTC), strings.Join(j.Regions, ","))
}
