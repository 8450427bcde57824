package ec2sim

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults are failures injected on demand into EC2 and STS calls (never into /_sim/).
type Faults struct {
	Latency   time.Duration // added to every EC2/STS call
	Jitter    time.Duration // +/- random on top of Latency
	Throttle  float64       // probability of RequestLimitExceeded, HTTP 503
	Error     float64       // probability of HTTP 500 InternalError
	Down      []string      // regions answering every call with HTTP 503 Unavailable
	Sold      float64       // probability that PurchaseCapacityBlock finds the offering already sold (InvalidCapacityBlockOfferingIdExpired; nothing bought)
	LostReply float64       // probability that PurchaseCapacityBlock / PurchaseCapacityBlockExtension commits and then answers HTTP 500
	// Deny lists the actions this identity may not call ("all" for every one), EC2's and
	// those of the other protocols registered for the deny fault: EC2's
	// answer UnauthorizedOperation (HTTP 403) where they would have succeeded, and a DryRun
	// of them where it would have answered DryRunOperation. STS GetCallerIdentity needs no
	// permission in AWS and is never denied.
	Deny []string
	// PayFail is how many of the next purchases, of blocks or of extensions, end in
	// payment-failed when their payment resolves (instead of scheduled, or
	// payment-succeeded); each such purchase takes one off.
	PayFail int
	// Impaired makes DescribeCapacityBlockStatus report every active block's interconnect
	// impaired; Unavailable reports that many of each active block's instances' capacity
	// unavailable (at most the block's count).
	Impaired    bool
	Unavailable int
}

// denyAll in Faults.Deny denies every EC2 action.
const denyAll = "all"

// denies reports whether the action is denied.
func (f Faults) denies(action string) bool {
	return slices.Contains(f.Deny, denyAll) || slices.Contains(f.Deny, action)
}

// FaultHelp lists the fault names and values ParseFault accepts. It is kept current as
// other protocols register the actions the deny fault may name (RegisterServiceFaultActions),
// all of which happens in init, before any flag is defined.
var FaultHelp = faultHelp()

func faultHelp() string {
	deny := "deny=ACTION[,ACTION…] or deny=all (UnauthorizedOperation, e.g. deny=PurchaseCapacityBlock,RunInstances"
	if other := registeredActions(); len(other) > 0 {
		deny += "; also " + strings.Join(other, "; ") + ", which answer AccessDeniedException"
	}
	return "latency=DURATION (e.g. 150ms), jitter=DURATION, throttle=P, error=P, down=REGION[,REGION…], sold=P, lost-reply=P, " +
		deny + "), payfail=N (the next N purchases, of blocks or extensions, end in payment-failed); " +
		"interconnect=impaired (every active block's interconnect), unavailable=N (instances of each active block); " +
		"P is a probability from 0 to 1"
}

// ParseFault reads one NAME=VALUE fault into f. down= and deny= add to the regions and
// actions already given.
func ParseFault(spec string, f *Faults) error {
	name, val, ok := strings.Cut(strings.TrimSpace(spec), "=")
	if !ok || val == "" {
		return fmt.Errorf("fault %q: want NAME=VALUE; allowed: %s", spec, FaultHelp)
	}
	dur := func() (time.Duration, error) {
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("fault %s=%s: want a non-negative Go duration such as 150ms or 2s", name, val)
		}
		return d, nil
	}
	prob := func() (float64, error) {
		p, err := strconv.ParseFloat(val, 64)
		if err != nil || p < 0 || p > 1 || p != p {
			return 0, fmt.Errorf("fault %s=%s: want a probability from 0 to 1 (e.g. 0.3)", name, val)
		}
		return p, nil
	}
	var err error
	switch strings.ToLower(name) {
	case "latency":
		f.Latency, err = dur()
	case "jitter":
		f.Jitter, err = dur()
	case "throttle":
		f.Throttle, err = prob()
	case "error":
		f.Error, err = prob()
	case "sold":
		f.Sold, err = prob()
	case "lost-reply", "lostreply", "lost_reply":
		f.LostReply, err = prob()
	case "down":
		for _, r := range strings.Split(val, ",") {
			r = strings.TrimSpace(r)
			if _, ok := regions[r]; !ok {
				return fmt.Errorf("fault down=%s: region %q is not served (Capacity Blocks are sold in %s)", val, r, strings.Join(regionNames(), ", "))
			}
			f.Down = append(f.Down, r)
		}
	case "deny":
		for _, a := range strings.Split(val, ",") {
			name, ok := actionName(a)
			if !ok {
				known := append([]string{"EC2 actions among " + strings.Join(actionNames(), ", ")}, registeredActions()...)
				return fmt.Errorf("fault deny=%s: unknown action %q; give all, or %s", val, strings.TrimSpace(a), strings.Join(known, "; or "))
			}
			if !slices.Contains(f.Deny, name) {
				f.Deny = append(f.Deny, name)
			}
		}
	case "payfail", "pay-fail", "payment-failed":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("fault %s=%s: want how many of the next purchases fail their payment, a whole number such as 1", name, val)
		}
		f.PayFail = n
	case "interconnect":
		if val != "impaired" && val != "ok" {
			return fmt.Errorf("fault interconnect=%s: want impaired (or ok)", val)
		}
		f.Impaired = val == "impaired"
	case "unavailable":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("fault unavailable=%s: want how many instances of each active block are unavailable, a whole number such as 1", val)
		}
		f.Unavailable = n
	default:
		return fmt.Errorf("fault %q: unknown name %q; allowed: %s", spec, name, FaultHelp)
	}
	return err
}

// takePayFail reports whether the purchase being made is one whose payment is to fail,
// counting it off the payfail fault. Call with s.mu held, so that two purchases do not
// both take the last one.
func (s *Server) takePayFail() bool {
	f := s.currentFaults()
	if f.PayFail <= 0 {
		return false
	}
	f.PayFail--
	s.SetFaults(f)
	return true
}

// dice is the seeded random source of faults and small delays, safe for concurrent use.
type dice struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newDice(seed int64) *dice {
	return &dice{r: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

// hit reports true with probability p.
func (d *dice) hit(p float64) bool {
	if p <= 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.r.Float64() < p
}

// jitter returns a duration in [-j, +j].
func (d *dice) jitter(j time.Duration) time.Duration {
	if j <= 0 {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return time.Duration(d.r.Int64N(int64(2*j)+1)) - j
}

// actionName reads an action as the deny fault names it: case does not matter, and an
// IAM-style ec2: prefix may be given.
func actionName(a string) (string, bool) {
	a = strings.TrimSpace(a)
	if strings.EqualFold(a, denyAll) {
		return denyAll, true
	}
	ec2Prefix := false
	if p, rest, ok := strings.Cut(a, ":"); ok && strings.EqualFold(p, "ec2") {
		a, ec2Prefix = rest, true
	}
	for name := range ec2Actions {
		if strings.EqualFold(name, a) {
			return name, true
		}
	}
	if ec2Prefix {
		return "", false // ec2:CreateTrainingPlan names no action
	}
	return protocolAction(a)
}

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
		if !c.faults.denies(c.action) {
			return h(s, c)
		}
		c.dryRun = true
		if _, e := h(s, c); e != nil && e != errDryRun {
			return nil, e
		}
		return nil, errUnauthorized
	}
}
