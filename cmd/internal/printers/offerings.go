package printers

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
)

// RegionsIn is the regions of set in the order the user gave them (any others after, sorted),
// so that messages naming several regions read the same on every run.
func RegionsIn(order []string, set map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range order {
		if set[r] && !seen[r] {
			out = append(out, r)
			seen[r] = true
		}
	}
	var rest []string
	for r, ok := range set {
		if ok && !seen[r] {
			rest = append(rest, r)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func SortOfferings(all []model.Offering) {
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		switch {
		case !a.Start.Equal(b.Start):
			return a.Start.Before(b.Start)
		case a.Region != b.Region:
			return a.Region < b.Region
		case a.InstanceType != b.InstanceType:
			return a.InstanceType < b.InstanceType
		case a.Minutes() != b.Minutes():
			return a.Minutes() < b.Minutes()
		case a.Fee.Cmp(b.Fee) != 0:
			return a.Fee.Cmp(b.Fee) < 0
		}
		return a.ID < b.ID
	})
}

// OfferingJSON is a row of -o json; the tests decode the output into it.
type OfferingJSON = export.Offering

// The on-demand rate and the break-even follow $/INST-HOUR so that the three read together.
// Each width is that of the longest value (ap-northeast-1, a Local Zone, p6-b200.48xlarge,
// $99,999,999.99) or of the header: a row is 179 columns with the offering ID.
const offeringTableFormat = "%-14s  %-16s  %-16s  %5s  %-16s  %-16s  %-9s  %14s  %11s  %9s  %10s  %s\n"

func OfferingTableHeader() string {
	return fmt.Sprintf(offeringTableFormat, "REGION", "ZONE", "TYPE", "COUNT", "START (UTC)", "END (UTC)", "LENGTH", "UPFRONT FEE", "$/INST-HOUR",
		"ON-DEMAND", "BREAK-EVEN", "OFFERING")
}

func OfferingTableRow(o model.Offering, c pricing.Comparison) string {
	od, be := onDemandCells(o, c)
	return fmt.Sprintf(offeringTableFormat, o.Region, o.ZoneCell(), o.InstanceType, strconv.Itoa(o.Count),
		o.Start.UTC().Format(model.LayoutMinute), o.End.UTC().Format(model.LayoutMinute), o.Length(),
		o.Fee.Dollars(), o.InstanceHourlyRate().Rate(), od, be, o.ID)
}

// noOnDemand fills the table's on-demand cells where there is no price to compare with:
// nothing is guessed, and -o json says why (NoOnDemandReason).
const noOnDemand = "—"

// onDemandCells are the table's ON-DEMAND rate, per instance-hour like $/INST-HOUR (an
// UltraServer's rate spread over its member instances), and the BREAK-EVEN utilization in
// whole percent rounded up, or "never" when the block cannot cost less than on-demand: the
// break-even is above 100%, or falls in the last 30 minutes, when instances are already gone.
func onDemandCells(o model.Offering, c pricing.Comparison) (od, be string) {
	if c.NoOnDemand {
		return noOnDemand, noOnDemand
	}
	rate := c.InstanceOnDemandHourly(o)
	switch {
	case !c.BreakEvenUtilization.Valid():
		be = noOnDemand
	case !c.CanWin:
		be = "never"
	default:
		be = fmt.Sprintf("%d%%", c.BreakEvenPercent())
	}
	return rate.Rate(), be
}
