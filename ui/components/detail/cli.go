package detail

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// SearchCommand is the AWS CLI command of the search that found this offering: its
// region, type and count, the window searched, and of the durations searched the one
// nearest the offering's length. Without a query (zero Start) it asks for the offering's own
// dates.
func SearchCommand(o model.Offering, q model.Query) string {
	if o.Source == model.SourceTrainingPlan {
		return planSearchCommand(o, q)
	}
	args := []string{"aws", "ec2", "describe-capacity-block-offerings", "--region", o.Region}
	if o.UltraServerType != "" {
		n := max(1, o.UltraServerCount)
		args = append(args, "--ultraserver-type", o.UltraServerType, "--ultraserver-count", fmt.Sprint(n))
	} else {
		args = append(args, "--instance-type", o.InstanceType, "--instance-count", fmt.Sprint(o.Count))
	}
	start, end := o.Start, o.End
	if !q.Start.IsZero() && !q.End.IsZero() {
		start, end = q.Start, q.End
	}
	args = append(args,
		"--capacity-duration-hours", fmt.Sprint(requestedDays(o, q)*24),
		"--start-date-range", start.UTC().Format(time.RFC3339),
		"--end-date-range", end.UTC().Format(time.RFC3339))
	return strings.Join(args, " ")
}

// PurchaseCommand is the AWS CLI command that buys this offering. gpublock never runs it;
// it is shown so that a person can see exactly what a purchase is.
func PurchaseCommand(o model.Offering) string {
	if o.Source == model.SourceTrainingPlan {
		return planPurchaseCommand(o)
	}
	return strings.Join([]string{"aws", "ec2", "purchase-capacity-block", "--region", o.Region,
		"--capacity-block-offering-id", o.ID, "--instance-platform", "Linux/UNIX"}, " ")
}

// requestedDays is the duration, in days, of the request that returns this offering. A
// near-term block that starts off the 11:30 boundary is shorter or longer than the days asked
// for, so it is the searched duration nearest the offering's length.
func requestedDays(o model.Offering, q model.Query) int {
	days := q.Durations.Days()
	if len(days) == 0 {
		days = model.ValidDurationDays()
	}
	best, bestDiff := days[0], int64(-1)
	for _, d := range days {
		diff := o.Minutes() - int64(d)*24*60
		if diff < 0 {
			diff = -diff
		}
		if bestDiff < 0 || diff < bestDiff {
			best, bestDiff = d, diff
		}
	}
	return best
}
