package detail

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// SearchCommand is the AWS CLI command that asks for this offering again: its region, type,
// count and window, and the duration that was asked for.
func SearchCommand(o model.Offering) string {
	args := []string{"aws", "ec2", "describe-capacity-block-offerings", "--region", o.Region}
	if o.UltraServerType != "" {
		n := max(1, o.UltraServerCount)
		args = append(args, "--ultraserver-type", o.UltraServerType, "--ultraserver-count", fmt.Sprint(n))
	} else {
		args = append(args, "--instance-type", o.InstanceType, "--instance-count", fmt.Sprint(o.Count))
	}
	args = append(args,
		"--capacity-duration-hours", fmt.Sprint(RequestedDays(o)*24),
		"--start-date-range", o.Start.UTC().Format(time.RFC3339),
		"--end-date-range", o.End.UTC().Format(time.RFC3339))
	return strings.Join(args, " ")
}

// PurchaseCommand is the AWS CLI command that buys this offering. gpublock never runs it;
// it is shown so that a person can see exactly what a purchase is.
func PurchaseCommand(o model.Offering) string {
	return strings.Join([]string{"aws", "ec2", "purchase-capacity-block", "--region", o.Region,
		"--capacity-block-offering-id", o.ID, "--instance-platform", "Linux/UNIX"}, " ")
}

// RequestedDays is the duration, in days, of the request that returns this offering. A
// near-term block that starts off the 11:30 boundary is a little shorter or longer than the
// days asked for, so the length is rounded to the nearest day.
func RequestedDays(o model.Offering) int {
	return max(1, int((o.Minutes()+12*60)/(24*60)))
}
