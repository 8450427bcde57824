package ec2sim

import (
	"strings"

	"github.com/gpublock/gpublock/aws/apilimit"
)

// admit is EC2's request bucket check: nil when the call may go on.
func admit(rl *RateLimits, c *call) *apiError {
	if rl == nil || c.action == "" {
		return nil
	}
	unfiltered := !c.form.has("MaxResults") && !c.form.has("NextToken")
	for k := range c.form.v {
		if strings.HasPrefix(k, "Filter.") {
			unfiltered = false
			break
		}
	}
	key := c.action
	if unfiltered && apilimit.UnfilteredActions[c.action] {
		key += "/unfiltered" // a bucket of its own, beside the filtered calls' one
	}
	if rl.Take("ec2", c.region, key, rl.EC2.For(c.action, unfiltered)) {
		return nil
	}
	return errThrottled
}
