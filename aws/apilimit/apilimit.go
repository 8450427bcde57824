// Package apilimit holds AWS's request token buckets: the bucket itself, which the
// emulator keeps per account, region and action, and EC2's documented bucket sizes and
// refill rates, which the client paces itself by. Both sides read the figures from here,
// so the client's model of a bucket is the emulator's.
package apilimit

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// Limit is one token bucket's shape: Burst tokens at most, refilled at Rate per second.
type Limit struct {
	Burst float64
	Rate  float64
}

func (l Limit) String() string {
	return fmt.Sprintf("%s/%s", trimFloat(l.Burst), trimFloat(l.Rate))
}

func trimFloat(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

// Bound is the least time n requests can take through a full bucket of this shape when
// each takes rtt: the first Burst go at once, then one every 1/Rate seconds, and the last
// one still needs its round trip.
func (l Limit) Bound(n int, rtt time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	extra := float64(n) - math.Floor(l.Burst)
	if extra <= 0 || l.Rate <= 0 {
		return rtt
	}
	return time.Duration(math.Ceil(extra)/l.Rate*float64(time.Second)) + rtt
}

// Bucket is one token bucket. The zero value is not usable; use NewBucket.
type Bucket struct {
	limit  Limit
	tokens float64
	last   time.Time
}

// NewBucket returns a full bucket at now.
func NewBucket(l Limit, now time.Time) *Bucket {
	return &Bucket{limit: l, tokens: l.Burst, last: now}
}

func (b *Bucket) refill(now time.Time) {
	if dt := now.Sub(b.last); dt > 0 {
		b.tokens = math.Min(b.limit.Burst, b.tokens+dt.Seconds()*b.limit.Rate)
		b.last = now
	}
}

// Take removes one token if there is one. A refused request takes nothing: AWS counts
// what it serves.
func (b *Bucket) Take(now time.Time) bool {
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// Tokens is what the bucket holds at now.
func (b *Bucket) Tokens(now time.Time) float64 {
	b.refill(now)
	return b.tokens
}

// Buckets is a set of buckets by key (for EC2: account, region and action), made full on
// first use. It is safe for concurrent use.
type Buckets struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[string]*Bucket
}

// NewBuckets returns an empty set reading time from now (time.Now when nil). Buckets run
// on real time whatever an emulator's clock does: AWS throttles by the wall clock.
func NewBuckets(now func() time.Time) *Buckets {
	if now == nil {
		now = time.Now
	}
	return &Buckets{now: now, m: map[string]*Bucket{}}
}

// Take takes a token from the bucket of key, whose shape is l.
func (bs *Buckets) Take(key string, l Limit) bool {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b, ok := bs.m[key]
	if !ok || b.limit != l {
		b = NewBucket(l, bs.now())
		bs.m[key] = b
	}
	return b.Take(bs.now())
}

// Table gives each action's limit: named actions, then the category's default.
type Table struct {
	Actions     map[string]Limit
	NonMutating Limit // Describe*, List*, Search*, Get* not named elsewhere
	// Unfiltered applies to the actions of UnfilteredActions called with neither a filter
	// nor pagination.
	Unfiltered Limit
	Mutating   Limit // every other action
}

// Source is where EC2's figures come from, for comments, help and errors.
const Source = "Request throttling for the Amazon EC2 API, docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html"

// UnfilteredActions draw from the smaller Unfiltered bucket when called with neither a
// filter nor pagination (same page).
var UnfilteredActions = map[string]bool{
	"DescribeInstances": true, "DescribeInstanceStatus": true, "DescribeNetworkInterfaces": true,
	"DescribeSecurityGroups": true, "DescribeSnapshots": true, "DescribeSpotInstanceRequests": true,
	"DescribeVolumes": true,
}

// EC2 is EC2's request token buckets per account and region, from the tables "Request
// token bucket sizes and refill rates" and "Uncategorized actions" of Source (read
// 2026-12-01). Only the uncategorized actions gpublock or its emulator call are named;
// the rest fall into their category. The Capacity Block actions are among the
// uncategorized ones, with the smallest buckets that matter here: 10 requests, refilled
// at 0.15 per second (one every 6⅔ s). RunInstances also has a resource bucket (1000
// instances, 2 per second) that is not modelled.
func EC2() Table {
	return Table{
		Actions: map[string]Limit{
			"DescribeCapacityBlockOfferings":          {10, 0.15},
			"DescribeCapacityBlockExtensionOfferings": {10, 0.15},
			"PurchaseCapacityBlock":                   {10, 0.15},
			"PurchaseCapacityBlockExtension":          {10, 0.15},
			"RunInstances":                            {5, 2},
			"StartInstances":                          {5, 2},
			"TerminateInstances":                      {100, 5},
			"CreateTags":                              {100, 10},
			"DeleteTags":                              {100, 10},
			"CreateKeyPair":                           {50, 5}, // resource-intensive
			"AuthorizeSecurityGroupIngress":           {50, 5}, // resource-intensive
			"RevokeSecurityGroupIngress":              {50, 5}, // resource-intensive
		},
		NonMutating: Limit{100, 20},
		Unfiltered:  Limit{50, 10},
		Mutating:    Limit{50, 5},
	}
}

// For is the limit of a call of action; unfiltered says the call has neither a filter
// nor pagination.
func (t Table) For(action string, unfiltered bool) Limit {
	if l, ok := t.Actions[action]; ok {
		return l
	}
	if unfiltered && UnfilteredActions[action] {
		return t.Unfiltered
	}
	for _, p := range []string{"Describe", "List", "Search", "Get"} {
		if strings.HasPrefix(action, p) {
			return t.NonMutating
		}
	}
	return t.Mutating
}

// Scaled multiplies every refill rate by f and keeps the bursts: a demo (or a benchmark)
// that cannot wait minutes keeps the bucket's shape at a faster pace.
func (t Table) Scaled(f float64) Table {
	out := Table{Actions: map[string]Limit{}}
	sc := func(l Limit) Limit { return Limit{l.Burst, l.Rate * f} }
	for a, l := range t.Actions {
		out.Actions[a] = sc(l)
	}
	out.NonMutating, out.Unfiltered, out.Mutating = sc(t.NonMutating), sc(t.Unfiltered), sc(t.Mutating)
	return out
}

// Format writes the table as lines "NAME BURST RATE" (categories as *non-mutating,
// *unfiltered, *mutating), sorted; Parse reads it back.
func (t Table) Format() string {
	var lines []string
	for a, l := range t.Actions {
		lines = append(lines, fmt.Sprintf("%s %s %s", a, trimFloat(l.Burst), trimFloat(l.Rate)))
	}
	sort.Strings(lines)
	for _, c := range []struct {
		n string
		l Limit
	}{{"*non-mutating", t.NonMutating}, {"*unfiltered", t.Unfiltered}, {"*mutating", t.Mutating}} {
		lines = append(lines, fmt.Sprintf("%s %s %s", c.n, trimFloat(c.l.Burst), trimFloat(c.l.Rate)))
	}
	return strings.Join(lines, "\n") + "\n"
}

// Parse reads what Format wrote.
func Parse(s string) (Table, error) {
	t := Table{Actions: map[string]Limit{}}
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var name string
		var l Limit
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%s %g %g", &name, &l.Burst, &l.Rate); err != nil || l.Burst < 1 || l.Rate <= 0 {
			return Table{}, fmt.Errorf("line %d %q: want NAME BURST RATE with BURST ≥ 1 and RATE > 0", i+1, line)
		}
		switch name {
		case "*non-mutating":
			t.NonMutating = l
		case "*unfiltered":
			t.Unfiltered = l
		case "*mutating":
			t.Mutating = l
		default:
			t.Actions[name] = l
		}
		seen[name] = true
	}
	for _, c := range []string{"*non-mutating", "*unfiltered", "*mutating"} {
		if !seen[c] {
			return Table{}, fmt.Errorf("no %s line", c)
		}
	}
	return t, nil
}
