package advisor

import (
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// steps writes the decision tree for this job: on-demand first; reserve when the capacity
// must be certain; a reservation only at enough utilization; Savings Plans for a recurring
// need of a year or more; Spot for work that can be interrupted; plan large jobs ahead.
func (w work) steps(a Advice) []string {
	get := func(k Kind) Option { o, _ := a.Option(k); return o }
	var out []string
	od := get(OnDemand)
	switch {
	case od.Known:
		out = append(out, fmt.Sprintf("1. On-demand first: no commitment, %s for %d × %s in %s (%s/h, %s, %s); capacity is not guaranteed, so if a launch fails try another region or start time.",
			od.Total.Dollars(), od.Instances, od.InstanceType, od.Region, strings.TrimSuffix(od.Figures[0].Value, "/h"), od.Figures[0].Source, od.Figures[0].Date))
	case od.RuledOut != "":
		out = append(out, "1. On-demand first: ruled out, "+od.RuledOut+".")
	default:
		out = append(out, "1. On-demand first: no commitment, but its cost is unknown: "+od.Unknown+".")
	}
	res := get(CapacityBlock)
	if w.job.SageMaker {
		res = get(TrainingPlan)
	}
	name := res.Kind.Title()
	switch {
	case res.Known:
		off := res.Offering.Offering
		out = append(out, fmt.Sprintf("2. When the capacity must be certain, reserve it: a %s of %d × %s in %s from %s, %s, for %s (%s per useful accelerator-hour).",
			name, off.Count, off.InstanceType, off.AvailabilityZone, off.Start.UTC().Format(model.LayoutWeekdayDay+" "+model.LayoutClockUTC), durationText(off.Minutes()), w.feeText(off.Fee, res.Total), res.PerUsefulAcceleratorHour.Rate()))
	case res.RuledOut != "":
		out = append(out, fmt.Sprintf("2. When the capacity must be certain, reserve it: no %s: %s.", name, res.RuledOut))
	default:
		out = append(out, fmt.Sprintf("2. When the capacity must be certain, reserve it: %s.", res.Unknown))
	}
	if res.Known && od.Known {
		var cross *Crossing
		for i, c := range a.Crossings {
			if (c.A == res.Kind && c.B == OnDemand) || (c.B == res.Kind && c.A == OnDemand) {
				cross = &a.Crossings[i]
			}
		}
		switch {
		case cross == nil && res.Total.Cmp(od.Total) <= 0:
			out = append(out, fmt.Sprintf("3. A reservation pays only when the instances are busy enough: the %s costs less than on-demand at any utilization.", name))
		case cross == nil:
			out = append(out, fmt.Sprintf("3. A reservation pays only when the instances are busy enough: the %s costs more than on-demand even at 100%% utilization.", name))
		case res.Total.Cmp(od.Total) <= 0:
			out = append(out, fmt.Sprintf("3. A reservation pays only when the instances are busy enough: from %s utilization the %s costs less than on-demand; at %d%% it saves %s.",
				cross.Utilization.Percent(), name, w.pct, od.Total.Sub(res.Total).Dollars()))
		default:
			out = append(out, fmt.Sprintf("3. A reservation pays only when the instances are busy enough: it needs %s utilization; at %d%% the %s costs %s more than on-demand.",
				cross.Utilization.Percent(), w.pct, name, res.Total.Sub(od.Total).Dollars()))
		}
	} else {
		out = append(out, "3. A reservation pays only when the instances are busy enough: no reservation and on-demand price to compare.")
	}
	sp1, sp3 := get(SavingsPlan1y), get(SavingsPlan3y)
	switch {
	case !w.job.Recurring():
		out = append(out, "4. A predictable need over a year or more is a Savings Plan's job: this job does not recur.")
	case sp1.RuledOut != "" && sp3.RuledOut != "":
		out = append(out, "4. A predictable need over a year or more is a Savings Plan's job: not this one: "+sp1.RuledOut+".")
	default:
		sp := sp1
		if sp3.Eligible() {
			sp = sp3
		}
		text := "4. A predictable need over a year or more is a Savings Plan's job: " + sp.Kind.Title() + " could pay"
		switch {
		case sp.Known:
			text += fmt.Sprintf(", %s for the term", sp.Total.Dollars())
		case sp.HasRange:
			text += fmt.Sprintf(", %s to %s for the term; %s", sp.Low.Dollars(), sp.High.Dollars(), sp.Unknown)
		default:
			text += "; " + sp.Unknown
		}
		out = append(out, text+"; it buys no capacity.")
	}
	sp := get(Spot)
	switch {
	case !w.job.Interruptible:
		out = append(out, "5. Work that can checkpoint or retry can add Spot: this job cannot be interrupted.")
	case sp.HasRange:
		out = append(out, fmt.Sprintf("5. Work that can checkpoint or retry can add Spot: %d × %s in %s, %s to %s (%s); the deepest discount, but interruptible and not guaranteed.",
			sp.Instances, sp.InstanceType, sp.Region, sp.Low.Dollars(), sp.High.Dollars(), sp.Unknown))
	default:
		out = append(out, "5. Work that can checkpoint or retry can add Spot: its price is unknown here: "+sp.Unknown+".")
	}
	acc := 0
	if len(w.cands) > 0 {
		acc = w.cands[0].Accelerators
	}
	if lead := w.job.WindowStart.Sub(w.in.Now); acc >= largeAccelerators && lead < planAhead && !w.in.Now.IsZero() {
		out = append(out, fmt.Sprintf("6. Large deployments are planned about three weeks ahead: %d accelerators starting in %s.", acc, durationText(int64(max(lead.Minutes(), 0)))))
	}
	if a.Recommended != "" {
		o := a.Options[0]
		why := ""
		switch {
		case o.Kind == Spot:
			why = "it can be interrupted, and Spot is the deepest discount"
		case o.Kind.Reserved():
			why = "it costs the least at this utilization and guarantees the capacity"
		case o.Kind == OnDemand:
			why = "it costs the least at this utilization, with no commitment"
		default:
			why = "it costs the least over the term"
		}
		out = append(out, fmt.Sprintf("Recommended: %s, because %s.", o.Kind.Title(), why))
	} else {
		out = append(out, "No recommendation: no option has a known cost for this job.")
	}
	return out
}

// feeText says a reservation's fee: one block's upfront, and for a recurring job also the
// total of its runs, each named, so that the runs' total is never read as one block's fee.
func (w work) feeText(perRun, total model.Money) string {
	if w.runs <= 1 {
		return perRun.Dollars() + " upfront"
	}
	return fmt.Sprintf("%s upfront per run, %s for the %d runs", perRun.Dollars(), total.Dollars(), w.runs)
}

// durationText writes minutes as people say a length: "2 days", "3 weeks", "47.5 hours".
func durationText(minutes int64) string {
	switch {
	case minutes >= 21*24*60 && minutes%(7*24*60) == 0:
		return fmt.Sprintf("%d weeks", minutes/(7*24*60))
	case minutes%(24*60) == 0:
		if minutes == 24*60 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", minutes/(24*60))
	case minutes%60 == 0:
		return fmt.Sprintf("%d hours", minutes/60)
	}
	return fmt.Sprintf("%d h %d min", minutes/60, minutes%60)
}
