package ec2sim

import (
	"net/http"
	"sort"
)

// actionNames lists, sorted, the EC2 actions the emulator answers.
func actionNames() []string {
	out := make([]string, 0, len(ec2Actions))
	for n := range ec2Actions {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// errUnauthorized is EC2's answer to an action the caller's policies do not allow
// (reference §2.4; AWS may append an encoded authorization failure message, which the
// reference does not give, so none is sent).
var errUnauthorized = errf(http.StatusForbidden, "UnauthorizedOperation", "You are not authorized to perform this operation.")

// guarded is how every EC2 action is registered: when the deny fault names the action,
// the action runs as a DryRun, so that its validation errors still come first, and the
// point where it would have succeeded (or answered DryRunOperation) answers
// UnauthorizedOperation instead; nothing is changed. A DryRun is how AWS lets a client
// ask for a permission, and the answer is the same whether or not DryRun was set.
func guarded(h handler) handler {
	return func(s *Server, c *call) (*xmlBody, *apiError) {
		s.settlePayments(c.region, c.now)
		if !c.faults.Denies(c.action) {
			return h(s, c)
		}
		c.dryRun = true
		if _, e := h(s, c); e != nil && e != errDryRun {
			return nil, e
		}
		return nil, errUnauthorized
	}
}
