package ec2sim

import (
	"fmt"
	"math/rand/v2"
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
}

// FaultHelp lists the fault names and values ParseFault accepts.
const FaultHelp = "latency=DURATION (e.g. 150ms), jitter=DURATION, throttle=P, error=P, down=REGION[,REGION…], sold=P, lost-reply=P; P is a probability from 0 to 1"

// ParseFault reads one NAME=VALUE fault into f. down= adds to the regions already down.
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
				return fmt.Errorf("fault down=%s: unknown region %q; regions: %s", val, r, strings.Join(regionNames(), ", "))
			}
			f.Down = append(f.Down, r)
		}
	default:
		return fmt.Errorf("fault %q: unknown name %q; allowed: %s", spec, name, FaultHelp)
	}
	return err
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
