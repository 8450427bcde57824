package model

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
)

// An Order is capacity a person wants and the most they will pay for it, left for
// gpublock to buy, once, when the market offers it: what a search takes, a ceiling, an
// expiry, and what to do once bought. Orders are kept in the state store per backend and
// account; their state changes only under the store's lock.
type Order struct {
	ID      string
	Created time.Time
	// Query is the search the order repeats. Its window is fixed when the order is placed;
	// each search starts at the later of its start and the backend's now.
	Query   Query
	Ceiling Ceiling
	Expires time.Time
	// MaxSpend is the order's own cap on the fee, beside the spending cap of the
	// gpublock that fills it; nil for none.
	MaxSpend *Money `json:",omitempty"`
	// ApproveCmd is asked before each purchase; "" asks nothing. CloseOnRefusal closes
	// the order when it refuses; otherwise the order stays open for the next offering.
	ApproveCmd     string            `json:",omitempty"`
	CloseOnRefusal bool              `json:",omitempty"`
	Tags           map[string]string `json:",omitempty"`
	Then           OrderThen

	State OrderState
	// Claim is the gpublock buying for the order now; nil when none is.
	Claim *OrderClaim `json:",omitempty"`
	// What the last search found, for `order --list`: when it ran, how many offerings it
	// saw, the best of them by the order's rule (within the ceiling or not), and why
	// nothing was bought.
	LastSearch time.Time  `json:",omitzero"`
	Seen       int        `json:",omitempty"`
	Best       *OrderSeen `json:",omitempty"`
	Why        string     `json:",omitempty"`
	Filled     *OrderFill `json:",omitempty"`
	Closed     time.Time  `json:",omitzero"`
}

// OrderState is where an order stands.
type OrderState string

const (
	OrderOpen      OrderState = "open"      // searched for at every watcher's round
	OrderFilling   OrderState = "filling"   // claimed: a purchase is under way or to be settled
	OrderFilled    OrderState = "filled"    // bought, once
	OrderExpired   OrderState = "expired"   // its expiry passed with nothing bought
	OrderCancelled OrderState = "cancelled" // cancelled by a person
	OrderRefused   OrderState = "refused"   // closed by its approval command's refusal
)

// Live reports whether the order may still buy.
func (s OrderState) Live() bool { return s == OrderOpen || s == OrderFilling }

// OrderThen is what to do once an order is bought.
type OrderThen struct {
	// Launch attaches a launch of ImageID × LaunchCount (0: the block's count) at the
	// block's start.
	Launch      bool   `json:",omitempty"`
	ImageID     string `json:",omitempty"`
	LaunchCount int    `json:",omitempty"`
	// Handoff writes the hand-off file of HandoffTool (model/handoff's names) for what
	// was bought to HandoffPath.
	Handoff     bool   `json:",omitempty"`
	HandoffTool string `json:",omitempty"`
	HandoffPath string `json:",omitempty"`
	// Notify sends the fill to the notification command and webhook.
	Notify bool `json:",omitempty"`
}

// Words names what Then does, for lists: "launch ami-…, handoff, notify".
func (t OrderThen) Words() string {
	var out []string
	if t.Launch {
		out = append(out, "launch "+t.ImageID)
	}
	if t.Handoff {
		s := "handoff " + t.HandoffTool
		if t.HandoffPath != "" {
			s += " to " + t.HandoffPath
		}
		out = append(out, s)
	}
	if t.Notify {
		out = append(out, "notify")
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// OrderClaim is one gpublock's hold on an order while it buys: nobody else buys for the
// order until the lease ends, and after it the purchase's request tag says from AWS what
// the claimant did.
type OrderClaim struct {
	Owner     string
	Until     time.Time
	RequestID string
	Offering  OrderSeen
}

// Live reports whether the claim still holds at now (the claimants' own clock).
func (c *OrderClaim) Live(now time.Time) bool { return c != nil && now.Before(c.Until) }

// OrderSeen is an offering as an order keeps it.
type OrderSeen struct {
	Source           Source
	ID               string
	Region           string
	AvailabilityZone string
	InstanceType     string
	Count            int
	Start, End       time.Time
	Fee              Money
	Currency         string `json:",omitempty"`
	// Rate is the fee per accelerator-hour of the usable hours, rounded, for display.
	Rate Money
	// Within: within the order's ceiling and cap.
	Within bool
}

// SeenOf is o as an order keeps it.
func SeenOf(o Offering, within bool) OrderSeen {
	return OrderSeen{Source: o.Source, ID: o.ID, Region: o.Region, AvailabilityZone: o.AvailabilityZone, InstanceType: o.InstanceType,
		Count: o.Count, Start: o.Start.UTC(), End: o.End.UTC(), Fee: o.Fee, Currency: o.Currency, Rate: o.UsableAcceleratorHourlyRate(), Within: within}
}

// OrderFill is what an order bought.
type OrderFill struct {
	RequestID    string
	Reservations []string
	Offering     OrderSeen
	At           time.Time
	// Recovered: the reply was lost, or the buyer was stopped, and the purchase was found
	// by its request tag.
	Recovered bool `json:",omitempty"`
	// ThenDone: what the order asked to do once bought was done (or failed, ThenErr).
	ThenDone bool   `json:",omitempty"`
	ThenErr  string `json:",omitempty"`
}

// CeilingKind is what an order's ceiling is a price of.
type CeilingKind string

const (
	PerAcceleratorHour CeilingKind = "accelerator-hour"
	PerInstanceHour    CeilingKind = "instance-hour"
	TotalFee           CeilingKind = "fee"
)

// Ceiling is the most an order pays: per accelerator-hour or per instance-hour of the
// usable hours (a block's instances stop TerminationLead before its end, so an hour that
// cannot run is not counted as bought), or the whole fee. Rates are compared exactly
// (fee × 60 against the ceiling × the usable minutes), never through a rounded rate.
type Ceiling struct {
	Kind   CeilingKind
	Amount Money
}

func (c Ceiling) String() string {
	if c.Kind == TotalFee {
		return c.Amount.Dollars() + " fee"
	}
	return "$" + c.Amount.String() + " per " + string(c.Kind)
}

// Check refuses a ceiling that could never be met or names no unit.
func (c Ceiling) Check() error {
	switch c.Kind {
	case PerAcceleratorHour, PerInstanceHour, TotalFee:
	default:
		return fmt.Errorf("a ceiling is per accelerator-hour, per instance-hour or the whole fee (got %q)", c.Kind)
	}
	if c.Amount.Cmp(Money{}) <= 0 {
		return errors.New("the ceiling must be above zero")
	}
	return nil
}

// units is the usable minutes of o in the ceiling's unit: accelerator-minutes or
// instance-minutes (an UltraServer's member instances); 0 when o's type is unknown.
func (c Ceiling) units(o Offering) int64 {
	switch c.Kind {
	case PerAcceleratorHour:
		return o.UsableAcceleratorMinutes()
	case PerInstanceHour:
		return o.UsableMemberInstanceMinutes()
	}
	return 0
}

// Allows reports whether o is within the ceiling.
func (c Ceiling) Allows(o Offering) bool {
	if c.Kind == TotalFee {
		return o.Fee.Cmp(c.Amount) <= 0
	}
	n := c.units(o)
	if n <= 0 || o.Fee.Overflowed() {
		return false
	}
	// fee × 60 ≤ amount × usable minutes, in exact integers.
	lhs := new(big.Int).Mul(big.NewInt(o.Fee.Micros()), big.NewInt(60))
	rhs := new(big.Int).Mul(big.NewInt(c.Amount.Micros()), big.NewInt(n))
	return lhs.Cmp(rhs) <= 0
}

// WorstCase is the most an order for q under c can cost: the ceiling applied to the
// largest block q can buy (its largest count of accelerators or instances, for its
// longest length, all usable hours), or the fee ceiling; never more than maxSpend when
// one is set. It rounds up to the cent, since it is a promise of "at most".
func (c Ceiling) WorstCase(q Query, maxSpend *Money) Money {
	worst := c.Amount
	if c.Kind != TotalFee {
		var most int64
		for _, typ := range q.InstanceTypes {
			o := Offering{InstanceType: EC2Type(typ), Count: q.Count, UltraServerCount: q.Count, DurationHours: q.Durations.MaxDays * 24}
			most = max(most, c.units(o))
		}
		p := new(big.Int).Mul(big.NewInt(c.Amount.Micros()), big.NewInt(most))
		cents := new(big.Int).Mul(big.NewInt(60), big.NewInt(10_000))
		q, r := new(big.Int).QuoRem(p, cents, new(big.Int))
		if r.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
		if q.IsInt64() {
			worst = MoneyFromCents(q.Int64())
		} else {
			worst = MoneyFromMicros(1<<63 - 1)
		}
	}
	if maxSpend != nil && maxSpend.Cmp(worst) < 0 {
		worst = *maxSpend
	}
	return worst
}

// UsableAcceleratorMinutes is the accelerator-minutes of o a job can use: each block (or
// segment, or part, each its own reservation) loses TerminationLead at its end.
func (o Offering) UsableAcceleratorMinutes() int64 {
	if len(o.Parts) == 0 {
		return int64(o.Accelerators()) * UsableMinutes(o.Minutes())
	}
	var n int64
	for _, p := range o.Parts {
		a := Offering{InstanceType: p.InstanceType, Count: p.Count, UltraServerCount: p.UltraServerCount}.Accelerators()
		n += int64(a) * UsableMinutes(p.minutes())
	}
	return n
}

// UsableMemberInstanceMinutes is the instance-minutes of o a job can use, an UltraServer
// counted as its member instances (as InstanceHourlyRate counts them).
func (o Offering) UsableMemberInstanceMinutes() int64 {
	members := func(typ string) int64 {
		if t, ok := LookupType(EC2Type(typ)); ok && t.UltraServer {
			return int64(t.Instances)
		}
		return 1
	}
	if len(o.Parts) == 0 {
		count := o.Count
		if t, ok := LookupType(EC2Type(o.InstanceType)); ok && t.UltraServer {
			count = max(1, o.UltraServerCount)
		}
		return int64(count) * members(o.InstanceType) * UsableMinutes(o.Minutes())
	}
	var n int64
	for _, p := range o.Parts {
		n += int64(p.Count) * members(p.InstanceType) * UsableMinutes(p.minutes())
	}
	return n
}

// UsableAcceleratorHourlyRate is the fee per accelerator-hour of the usable hours,
// rounded to the micro-dollar: what an order's rule ranks by, for display.
func (o Offering) UsableAcceleratorHourlyRate() Money {
	n := o.UsableAcceleratorMinutes()
	if n == 0 {
		return Money{}
	}
	return o.Fee.MulRat(60, n)
}

// CompareForOrder is the one rule that orders offerings for an order: the lowest cost per
// accelerator-hour of the usable hours first (compared exactly), then the earliest start,
// then the offering id, so that every gpublock names the same one. An offering whose
// accelerators are unknown comes last.
func CompareForOrder(a, b Offering) int {
	na, nb := a.UsableAcceleratorMinutes(), b.UsableAcceleratorMinutes()
	switch {
	case na <= 0 && nb > 0:
		return 1
	case nb <= 0 && na > 0:
		return -1
	case na > 0 && nb > 0:
		// a.fee / na against b.fee / nb: a.fee × nb against b.fee × na.
		l := new(big.Int).Mul(big.NewInt(a.Fee.Micros()), big.NewInt(nb))
		r := new(big.Int).Mul(big.NewInt(b.Fee.Micros()), big.NewInt(na))
		if c := l.Cmp(r); c != 0 {
			return c
		}
	}
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	return cmp.Compare(a.Region+"/"+a.ID, b.Region+"/"+b.ID)
}

// OrderPick is what the rule makes of one search for an order.
type OrderPick struct {
	// Best is the first offering by the rule, within the ceiling or not; ok is false
	// when the search found none.
	Best Offering
	Any  bool
	// Buy is the first offering by the rule within the ceiling and the cap; Within is
	// false when there is none.
	Buy    Offering
	Within bool
	// Why is why nothing can be bought, "" when Within.
	Why string
}

// PickForOrder applies the order's rule to what a search found: within the ceiling and
// the order's cap, the first by CompareForOrder.
func PickForOrder(offs []Offering, c Ceiling, maxSpend *Money) OrderPick {
	var p OrderPick
	if len(offs) == 0 {
		p.Why = "no offering matched the search"
		return p
	}
	sorted := slices.Clone(offs)
	slices.SortStableFunc(sorted, CompareForOrder)
	p.Best, p.Any = sorted[0], true
	overCap := false
	for _, o := range sorted {
		if !c.Allows(o) {
			continue
		}
		if maxSpend != nil && o.Fee.Cmp(*maxSpend) > 0 {
			overCap = true
			continue
		}
		p.Buy, p.Within = o, true
		return p
	}
	switch {
	case overCap:
		p.Why = fmt.Sprintf("offerings within the ceiling cost more than the order's --max-spend %s", maxSpend.Dollars())
	default:
		p.Why = fmt.Sprintf("the best of %d offerings costs $%s per accelerator-hour of its usable hours (fee %s), above the ceiling %s",
			len(offs), p.Best.UsableAcceleratorHourlyRate().String(), p.Best.Fee.Dollars(), c)
	}
	return p
}

// OrderRule is the rule in words, as `order` and the README state it.
const OrderRule = "within the ceiling (and --max-spend), the lowest cost per accelerator-hour of the usable hours " +
	"(a block's instances stop 30 minutes before its end), then the earliest start"
