package ec2sim

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Protocol is another AWS protocol served on the emulator's port (SageMaker's JSON 1.1,
// for one), sharing its clock, seed, faults, lock and state file. It is registered in
// Options.Protocols; requests whose X-Amz-Target starts with TargetPrefix go to it.
type Protocol struct {
	Name         string   // the key of its state in the state file, e.g. "sagemaker"
	TargetPrefix string   // e.g. "SageMaker."
	Actions      []string // the operations it answers, which the deny fault may name
	Mount        func(*Core) ProtocolHandler
}

// ProtocolHandler answers a Protocol's requests and keeps its state. SaveState and
// LoadState are called with the core's lock held; LoadState(nil) means a fresh state.
type ProtocolHandler interface {
	http.Handler
	SaveState() (json.RawMessage, error)
	LoadState(json.RawMessage) error
}

// Core is the part of the emulator a Protocol shares: one per Server.
type Core struct{ s *Server }

// Now is the emulator's clock.
func (c *Core) Now() time.Time { return c.s.clock.Now() }

// Seed is the market's seed.
func (c *Core) Seed() int64 { return c.s.opts.Seed }

// Hash is the seeded, deterministic choice the EC2 market is made of, for other markets.
func (c *Core) Hash(parts ...any) uint64 { return c.s.hash.sum(parts...) }

// Between returns a value in [lo, hi] chosen by the seed and parts.
func (c *Core) Between(lo, hi int, parts ...any) int { return c.s.hash.between(lo, hi, parts...) }

// Zone is an availability zone of a served region.
type Zone struct{ Name, ID string }

// Zones are the region's availability zones (not its Local Zones).
func (c *Core) Zones(region string) []Zone {
	var out []Zone
	for _, z := range regions[region].Zones {
		if z.Type == "local-zone" {
			continue
		}
		out = append(out, Zone{z.Name, z.ID})
	}
	return out
}

// Update runs fn with the state locked (in this process and, through the state file's
// lock, in every emulator on that file) and fresh from the state file, and saves every
// protocol's state (and EC2's) afterwards when fn reports a change. An error means the
// state could not be locked or saved (the change is undone): the caller answers an
// internal error, never success.
func (c *Core) Update(fn func(now time.Time) (changed bool)) error {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, aerr := s.lockState()
	if aerr != nil {
		return aerr
	}
	defer unlock()
	if fn(s.clock.Now()) {
		if aerr := s.commit(); aerr != nil {
			return aerr
		}
	}
	return nil
}

// ErrUnsigned is SignedRegion's error for a request with no Authorization header.
var ErrUnsigned error = errMissingAuth

// SignedRegion is the region of the request's SigV4 scope; the error says why a scope is
// refused, and is ErrUnsigned when the request is not signed at all.
func (c *Core) SignedRegion(r *http.Request) (region, service string, err error) {
	region, service, aerr := c.s.signedRegion(r)
	if aerr != nil {
		return "", "", aerr
	}
	return region, service, nil
}

// FaultHit is which of the faults common to every protocol a call meets.
type FaultHit int

const (
	FaultNone     FaultHit = iota
	FaultDown              // the region is down
	FaultThrottle          // the call is throttled
	FaultError             // the call fails with a server error
)

// Inject applies the latency and draws the faults common to every protocol for one call
// in region, by the EC2 side's own rule, whose answer is read back by its code and status.
func (c *Core) Inject(ctx context.Context, region string) FaultHit {
	e := c.s.injectFaults(ctx, &call{region: region, faults: c.s.currentFaults()})
	switch {
	case e == nil:
		return FaultNone
	case e.code == "Unavailable":
		return FaultDown
	case e.status >= 500 && e.status != http.StatusServiceUnavailable:
		return FaultError
	}
	return FaultThrottle
}

// Throttled takes a token from the SageMaker bucket of region's op and reports whether
// there was none (the call is then refused with the protocol's throttling error). Always
// false when the rate limits are off.
func (c *Core) Throttled(region, op string) bool {
	rl := c.s.opts.RateLimits
	if rl == nil {
		return false
	}
	return !rl.Take("sagemaker", region, op, rl.SageMakerTable().For(op, false))
}

// Faults are the faults in force.
func (c *Core) Faults() Faults { return c.s.currentFaults() }

// Denied reports whether the deny fault names the action.
func (c *Core) Denied(action string) bool { return c.s.currentFaults().denies(action) }

// Hit reports true with probability p, from the faults' seeded dice (sold, lost-reply).
func (c *Core) Hit(p float64) bool { return c.s.dice.hit(p) }

// APIError is an error a protocol answers a request with: an HTTP status, a code and a
// message, which each protocol writes in its own wire shape.
type APIError = apiError

// Errf makes an APIError.
func Errf(status int, code, format string, args ...any) *APIError {
	return errf(status, code, format, args...)
}

// Status is the HTTP status of the answer.
func (e *apiError) Status() int { return e.status }

// Code is the error code, as the SDKs match it.
func (e *apiError) Code() string { return e.code }

// Message is the error's text.
func (e *apiError) Message() string { return e.message }

// PaymentLead is how long before a block's start AWS must have taken its payment, and
// ExtensionPaymentLead how long before the end of the block an extension lengthens.
const (
	PaymentLead          = 5 * time.Minute
	ExtensionPaymentLead = 35 * time.Minute
)

// PaidAt is when a purchase made at now is paid, by the server's payment delay, and at the
// latest at deadline; parts make the delay deterministic per purchase.
func (c *Core) PaidAt(now, deadline time.Time, parts ...any) time.Time {
	return c.s.paidAt(now, deadline, parts...)
}

// MarketDay is the market day t falls in: the days run from 11:30 UTC to 11:30 UTC.
func MarketDay(t time.Time) int64 { return slotOf(t) }

// Consume records in used the units of typ bought in az (given back, when negative) on
// every market day that [start, end) touches.
func Consume(used map[string]int, az, typ string, start, end time.Time, units int) {
	for day := MarketDay(start); day <= MarketDay(end.Add(-time.Nanosecond)); day++ {
		used[supplyKey(az, typ, day)] += units
	}
}

// Consumed is what used records as bought of typ in az on a market day.
func Consumed(used map[string]int, az, typ string, day int64) int {
	return used[supplyKey(az, typ, day)]
}

// LeastOver is the smallest free supply over every market day that [start, end) touches:
// what a reservation of that span can take.
func LeastOver(start, end time.Time, free func(day int64) int) int {
	least := -1
	for day := MarketDay(start); day <= MarketDay(end.Add(-time.Nanosecond)); day++ {
		if n := free(day); least < 0 || n < least {
			least = n
		}
		if least == 0 {
			break
		}
	}
	return max(0, least)
}

// Fee is the upfront fee of units at rate per unit-hour for [start, end), the rate moved by
// bp basis points, so that the fee is exact to the cent.
func Fee(rate model.Money, bp, units int, start, end time.Time) model.Money {
	minutes := int64(end.Sub(start) / time.Minute)
	fee := rate.MulRat(int64(bp), 10000).MulRat(int64(units)*minutes, 60)
	return model.MoneyFromCents(fee.Cents())
}

// TakePayFail reports whether the purchase being made is one whose payment is to fail,
// counting it off the payfail fault. Call inside Update.
func (c *Core) TakePayFail() bool { return c.s.takePayFail() }

// mountProtocols makes the handlers of Options.Protocols. Call before the state is loaded.
func (s *Server) mountProtocols() {
	core := &Core{s}
	for _, p := range s.opts.Protocols {
		s.protocols = append(s.protocols, mounted{p, p.Mount(core)})
	}
}

type mounted struct {
	Protocol
	h ProtocolHandler
}

// protocolFor is the registered protocol a request's X-Amz-Target names, if any.
func (s *Server) protocolFor(r *http.Request) http.Handler {
	t := r.Header.Get("X-Amz-Target")
	for _, p := range s.protocols {
		if t != "" && strings.HasPrefix(t, p.TargetPrefix) {
			return p.h
		}
	}
	return nil
}

// faultActions are the actions of other protocols that the deny fault may name, with
// the service each belongs to (its IAM prefix, e.g. sagemaker).
var (
	faultActionsMu sync.Mutex
	faultActions   []serviceAction
)

type serviceAction struct{ service, name string }

// RegisterFaultActions lets the deny fault (ParseFault) name a protocol's actions; a
// protocol package calls it from init, before flags are parsed. Prefer
// RegisterServiceFaultActions, which lets help and errors say whose actions they are.
func RegisterFaultActions(names ...string) { RegisterServiceFaultActions("", names...) }

// RegisterServiceFaultActions registers the actions of service (its IAM prefix, such as
// sagemaker) for the deny fault, and lists them in FaultHelp and the deny fault's errors.
func RegisterServiceFaultActions(service string, names ...string) {
	faultActionsMu.Lock()
	for _, n := range names {
		faultActions = append(faultActions, serviceAction{service, n})
	}
	faultActionsMu.Unlock()
	FaultHelp = faultHelp()
}

// protocolAction is the name of a registered protocol's action, as the deny fault reads
// it: any case, with the service's IAM prefix (such as sagemaker:) allowed, another
// service's refused.
func protocolAction(a string) (string, bool) {
	prefix, rest, hasPrefix := strings.Cut(a, ":")
	if hasPrefix {
		a = rest
	}
	faultActionsMu.Lock()
	defer faultActionsMu.Unlock()
	for _, sa := range faultActions {
		if strings.EqualFold(sa.name, a) && (!hasPrefix || sa.service == "" || strings.EqualFold(sa.service, prefix)) {
			return sa.name, true
		}
	}
	return "", false
}

// registeredActions describes the other protocols' actions the deny fault may name, one
// phrase per service: "SageMaker operations among CreateTrainingPlan, …".
func registeredActions() []string {
	faultActionsMu.Lock()
	defer faultActionsMu.Unlock()
	var order []string
	by := map[string][]string{}
	for _, sa := range faultActions {
		if _, ok := by[sa.service]; !ok {
			order = append(order, sa.service)
		}
		by[sa.service] = append(by[sa.service], sa.name)
	}
	var out []string
	for _, svc := range order {
		label := "other actions"
		if svc != "" {
			label = serviceLabel(svc) + " operations"
		}
		out = append(out, label+" among "+strings.Join(by[svc], ", "))
	}
	return out
}

// serviceLabel is how help names a service by its IAM prefix.
func serviceLabel(svc string) string {
	if strings.EqualFold(svc, "sagemaker") {
		return "SageMaker"
	}
	return svc
}

// loadProtocols hands each protocol its part of a state file just read.
func (s *Server) loadProtocols(saved map[string]json.RawMessage) error {
	for _, p := range s.protocols {
		if err := p.h.LoadState(saved[p.Name]); err != nil {
			return err
		}
	}
	return nil
}

// saveProtocols collects each protocol's state for the state file.
func (s *Server) saveProtocols() (map[string]json.RawMessage, error) {
	if len(s.protocols) == 0 {
		return nil, nil
	}
	out := map[string]json.RawMessage{}
	for _, p := range s.protocols {
		b, err := p.h.SaveState()
		if err != nil {
			return nil, err
		}
		out[p.Name] = b
	}
	return out, nil
}
