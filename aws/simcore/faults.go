package simcore

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Faults are failures injected on demand into the protocols' calls (never into /_sim/).
type Faults struct {
	Latency  time.Duration // added to every call
	Jitter   time.Duration // +/- random on top of Latency
	Throttle float64       // probability of RequestLimitExceeded, HTTP 503
	Error    float64       // probability of HTTP 500 InternalError
	// Down lists the regions answering every call with HTTP 503 Unavailable; an entry
	// SERVICE:REGION (monitoring:us-west-2) takes down one service of the region only.
	Down      []string
	Sold      float64 // probability that PurchaseCapacityBlock finds the offering already sold (InvalidCapacityBlockOfferingIdExpired; nothing bought)
	LostReply float64 // probability that PurchaseCapacityBlock / PurchaseCapacityBlockExtension commits and then answers HTTP 500
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
	// Quota lists the instance families (model.Family: trn2, p5) whose Capacity Block
	// quota, such as "Concurrent TRN2 Capacity Blocks per account", is 0: EC2 answers
	// DescribeCapacityBlockOfferings of them CapacityBlockDescribeLimitExceeded (HTTP 400).
	Quota []string
}

// DownIn reports whether the down fault takes service (a signing name) down in region.
func (f Faults) DownIn(service, region string) bool {
	return slices.Contains(f.Down, region) || (service != "" && slices.Contains(f.Down, service+":"+region))
}

// QuotaZero reports whether the quota fault makes the family's Capacity Block quota 0.
func (f Faults) QuotaZero(family string) bool {
	return family != "" && slices.Contains(f.Quota, family)
}

// DownServices are the services (by their signing names) that down=SERVICE:REGION can
// take down alone.
var DownServices = []string{"ec2", "sagemaker", "sts", "monitoring"}

// DenyAll in Faults.Deny denies every action.
const DenyAll = "all"

// Denies reports whether the action is denied.
func (f Faults) Denies(action string) bool {
	return slices.Contains(f.Deny, DenyAll) || slices.Contains(f.Deny, action)
}

// ActionSet is a protocol's actions, which the deny fault may name.
type ActionSet struct {
	Service string          // the IAM prefix (ec2, sagemaker), which deny= may put before a name
	Label   string          // how help names them: "EC2 actions", "SageMaker operations"
	Names   func() []string // the names; called when a fault is parsed, after every init
	// Primary marks the set whose names help gives as its example and whose answer
	// (UnauthorizedOperation) it states; the others are listed after it.
	Primary bool
	// Denied is the code its answer to a denied action has, for help; "" is
	// AccessDeniedException.
	Denied string
}

var (
	actionSetsMu sync.Mutex
	actionSets   []ActionSet
)

// RegisterActions lets the deny fault (ParseFault) name a protocol's actions and lists
// them in FaultHelp; a protocol package calls it from init, before flags are parsed.
func RegisterActions(set ActionSet) {
	actionSetsMu.Lock()
	actionSets = append(actionSets, set)
	// By service, so that the help reads the same whatever order the packages start in.
	slices.SortFunc(actionSets, func(a, b ActionSet) int { return strings.Compare(a.Service, b.Service) })
	actionSetsMu.Unlock()
	FaultHelp = faultHelp()
}

func registered() []ActionSet {
	actionSetsMu.Lock()
	defer actionSetsMu.Unlock()
	return slices.Clone(actionSets)
}

// FaultHelp lists the fault names and values ParseFault accepts. It is kept current as
// protocols register the actions the deny fault may name (RegisterActions), all of which
// happens in init, before any flag is defined.
var FaultHelp = faultHelp()

func faultHelp() string {
	deny := "deny=ACTION[,ACTION…] or deny=all (UnauthorizedOperation, e.g. deny=PurchaseCapacityBlock,RunInstances"
	var other []string
	for _, set := range registered() {
		if !set.Primary {
			code := cmp.Or(set.Denied, "AccessDeniedException")
			other = append(other, set.Label+" among "+strings.Join(set.Names(), ", ")+", which answer "+code)
		}
	}
	if len(other) > 0 {
		deny += "; also " + strings.Join(other, "; ")
	}
	return "latency=DURATION (e.g. 150ms), jitter=DURATION, throttle=P, error=P, down=REGION[,REGION…] (or SERVICE:REGION, e.g. monitoring:us-west-2, for one service: " +
		strings.Join(DownServices, ", ") + "), sold=P, lost-reply=P, " +
		deny + "), payfail=N (the next N purchases, of blocks or extensions, end in payment-failed); " +
		"interconnect=impaired (every active block's interconnect), unavailable=N (instances of each active block), " +
		"quota=FAMILY[,FAMILY…] (a Capacity Block quota of 0 for the family, e.g. quota=trn2: CapacityBlockDescribeLimitExceeded); " +
		"P is a probability from 0 to 1"
}

// describeSets names the registered actions, one phrase per set: "SageMaker operations
// among CreateTrainingPlan, …"; primary chooses the primary sets or the others.
func describeSets(primary bool) []string {
	var out []string
	for _, set := range registered() {
		if set.Primary != primary {
			continue
		}
		names := set.Names()
		if primary {
			names = slices.Sorted(slices.Values(names))
		}
		out = append(out, set.Label+" among "+strings.Join(names, ", "))
	}
	return out
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
			svc, region, one := strings.Cut(r, ":")
			if !one {
				region = r
			} else if svc = strings.ToLower(strings.TrimSpace(svc)); !slices.Contains(DownServices, svc) {
				return fmt.Errorf("fault down=%s: service %q is not served; give REGION, or SERVICE:REGION with a service among %s", val, svc, strings.Join(DownServices, ", "))
			}
			region = strings.TrimSpace(region)
			if !Served(region) {
				return fmt.Errorf("fault down=%s: region %q is not served (Capacity Blocks are sold in %s)", val, region, strings.Join(model.Regions(), ", "))
			}
			if one {
				region = svc + ":" + region
			}
			f.Down = append(f.Down, region)
		}
	case "deny":
		for _, a := range strings.Split(val, ",") {
			name, ok := actionName(a)
			if !ok {
				known := append(describeSets(true), describeSets(false)...)
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
	case "quota":
		for _, fam := range strings.Split(val, ",") {
			fam = strings.ToLower(strings.TrimSpace(fam))
			if !slices.Contains(model.Families(), fam) {
				return fmt.Errorf("fault quota=%s: unknown instance family %q; families: %s", val, fam, strings.Join(model.Families(), ", "))
			}
			if !slices.Contains(f.Quota, fam) {
				f.Quota = append(f.Quota, fam)
			}
		}
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

// actionName reads an action as the deny fault names it: case does not matter, and the
// IAM prefix of its service (ec2:, sagemaker:) may be given; another service's prefix
// names nothing (ec2:CreateTrainingPlan). The primary set is searched first.
func actionName(a string) (string, bool) {
	a = strings.TrimSpace(a)
	if strings.EqualFold(a, DenyAll) {
		return DenyAll, true
	}
	prefix, rest, hasPrefix := strings.Cut(a, ":")
	if hasPrefix {
		a = rest
	}
	sets := registered()
	slices.SortStableFunc(sets, func(x, y ActionSet) int {
		switch {
		case x.Primary == y.Primary:
			return 0
		case x.Primary:
			return -1
		}
		return 1
	})
	for _, set := range sets {
		if hasPrefix && set.Service != "" && !strings.EqualFold(set.Service, prefix) {
			continue
		}
		for _, n := range set.Names() {
			if strings.EqualFold(n, a) {
				return n, true
			}
		}
	}
	return "", false
}

// faults holds the faults in force, safe for concurrent use.
type faults struct {
	mu sync.Mutex
	f  Faults
}

func (h *faults) set(f Faults) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.f = f
	h.f.Down = slices.Clone(f.Down)
	h.f.Deny = slices.Clone(f.Deny)
	h.f.Quota = slices.Clone(f.Quota)
}

func (h *faults) get() Faults {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.f
}

// takePayFail counts one purchase off the payfail fault, reporting whether there was one.
func (h *faults) takePayFail() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f.PayFail <= 0 {
		return false
	}
	h.f.PayFail--
	return true
}

// FaultHit is which of the faults common to every protocol a call meets.
type FaultHit int

const (
	FaultNone     FaultHit = iota
	FaultDown              // the region is down
	FaultThrottle          // the call is throttled
	FaultError             // the call fails with a server error
)

// inject applies the latency and draws the faults common to every protocol for one call
// of service in region: down first, then the latency, the throttle and the error.
func inject(ctx context.Context, f Faults, d *Dice, service, region string) FaultHit {
	if f.DownIn(service, region) {
		return FaultDown
	}
	if wait := f.Latency + d.Jitter(f.Jitter); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	if d.Hit(f.Throttle) {
		return FaultThrottle
	}
	if d.Hit(f.Error) {
		return FaultError
	}
	return FaultNone
}

// Dice is the seeded random source of faults and small delays, safe for concurrent use.
type Dice struct {
	mu sync.Mutex
	r  *rand.Rand
}

// NewDice makes the dice of a seed.
func NewDice(seed int64) *Dice {
	return &Dice{r: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

// Hit reports true with probability p.
func (d *Dice) Hit(p float64) bool {
	if p <= 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.r.Float64() < p
}

// Jitter returns a duration in [-j, +j].
func (d *Dice) Jitter(j time.Duration) time.Duration {
	if j <= 0 {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return time.Duration(d.r.Int64N(int64(2*j)+1)) - j
}
