package simcore

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/model"
)

// DemoAccount is the account every request acts as (STS GetCallerIdentity, ownerId, ARNs)
// unless Options.Account names another.
const DemoAccount = "123456789012"

// Options configure a Core.
type Options struct {
	Seed      int64
	Start     time.Time // the clock's start; zero = time.Now(), or the state file's clock when ahead
	Speed     float64   // clock rate vs real time; 0 means 1
	StateFile string    // "" = in memory only; else load at New and save after every mutation (atomic write)
	Faults    Faults
	// PaymentDelay is how long purchases stay payment-pending; zero = 1 to 5 minutes.
	PaymentDelay PaymentDelay
	// RateLimits, when set, refuses requests beyond AWS's request token buckets; nil
	// turns them off.
	RateLimits *RateLimits
	// Zones are a served region's availability zones (not its Local Zones), which every
	// market places its capacity in.
	Zones func(region string) []Zone
	// Account is the 12-digit AWS account the emulator stands for ("" = DemoAccount), so
	// that two emulators are two accounts.
	Account string
	// PriceDrop, when set, makes the markets cheaper step by step from when the core is
	// made, or from when asked (the demo's); nil keeps them as they are.
	PriceDrop *PriceDrop
}

// Protocol is one AWS protocol served on the emulator's port: a handler package makes
// one, and registering it in New's list is all a new service takes (with its actions
// registered for the deny fault, RegisterActions, from the package's init). Requests go
// to the first protocol that claims them: by Match when set, else by an X-Amz-Target
// starting with TargetPrefix; then to the JSON protocol whose SigningName the request is
// signed for; a JSON request no protocol claims is UnknownOperationException; a protocol
// with neither Match nor TargetPrefix takes the rest.
type Protocol struct {
	Name         string // the key of its state in the state file, e.g. "sagemaker"
	TargetPrefix string // e.g. "SageMaker."
	// SigningName is the service of its SigV4 scope (e.g. "sagemaker"): a request signed
	// for it that no protocol claims by target goes to it, to be answered in its shape.
	SigningName string
	Match       func(*http.Request) bool
	Mount       func(*Core) Handler
}

// Handler answers a Protocol's requests and keeps its state. SaveState and LoadState are
// called with the core's lock held; LoadState(nil) means a fresh state. A handler that
// keeps no state returns nil from SaveState.
type Handler interface {
	http.Handler
	SaveState() (json.RawMessage, error)
	LoadState(json.RawMessage) error
}

// Stateless is embedded by a handler that keeps nothing in the state file.
type Stateless struct{}

func (Stateless) SaveState() (json.RawMessage, error) { return nil, nil }
func (Stateless) LoadState(json.RawMessage) error     { return nil }

type mounted struct {
	Protocol
	h Handler
}

// Core is what every protocol's handler shares: the clock, the seed's market choices,
// the faults, the request buckets, the accounts, and one state (in memory and in the
// state file) guarded by one lock. It routes each request to its protocol.
type Core struct {
	opts   Options
	hash   Hasher
	clock  *Clock
	dropMu sync.Mutex
	opened time.Time // where the PriceDrop started (zero: not yet), guarded by dropMu
	dice   *Dice
	faults faults

	mu   sync.Mutex  // guards every protocol's state and the state file
	id   string      // ID, kept in the state file
	seen fs.FileInfo // the state file as this core last read or wrote it
	lock *os.File    // the state file's lock file, opened on first use

	protocols []mounted
}

// New makes a core serving protocols, loading Options.StateFile if it exists.
func New(opts Options, protocols ...Protocol) (*Core, error) {
	if err := opts.PaymentDelay.Check(); err != nil {
		return nil, fmt.Errorf("ec2sim: %w", err)
	}
	if opts.Account == "" {
		opts.Account = DemoAccount
	}
	if !ValidAccount(opts.Account) {
		return nil, fmt.Errorf("ec2sim: account %q: want an AWS account id of 12 digits", opts.Account)
	}
	if opts.Speed < 0 {
		return nil, fmt.Errorf("ec2sim: speed %v must be positive", opts.Speed)
	}
	if err := opts.PriceDrop.check(); err != nil {
		return nil, fmt.Errorf("ec2sim: %w", err)
	}
	c := &Core{opts: opts, hash: Hasher{opts.Seed}, dice: NewDice(opts.Seed)}
	for _, p := range protocols {
		c.protocols = append(c.protocols, mounted{p, p.Mount(c)})
	}
	start := opts.Start
	c.clock = NewClock(start, opts.Speed)
	if opts.StateFile != "" {
		saved, err := c.load()
		if err != nil {
			return nil, err
		}
		// A demo run faster than real time left its clock ahead of the wall clock; resume
		// from there so that its blocks do not go back in time.
		if start.IsZero() && saved.After(time.Now()) {
			c.clock = NewClock(saved, opts.Speed)
		}
	}
	if err := c.ensureID(); err != nil {
		return nil, err
	}
	if opts.PriceDrop != nil && !opts.PriceDrop.WhenAsked {
		c.opened = dropStart(c.clock.Now())
	}
	opts.RateLimits.init()
	c.SetFaults(opts.Faults)
	return c, nil
}

// ServeHTTP routes a request: /_sim/ to the control API, else to its protocol.
func (c *Core) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_sim/") || r.URL.Path == "/_sim" {
		c.serveControl(w, r)
		return
	}
	c.route(r).ServeHTTP(w, r)
}

func (c *Core) route(r *http.Request) http.Handler {
	target := r.Header.Get("X-Amz-Target")
	var fallback http.Handler = http.NotFoundHandler()
	for _, p := range c.protocols {
		switch {
		case p.Match != nil:
			if p.Match(r) {
				return p.h
			}
		case p.TargetPrefix != "":
			if target != "" && strings.HasPrefix(target, p.TargetPrefix) {
				return p.h
			}
		default:
			fallback = p.h
		}
	}
	// A request signed for a JSON protocol's service that names none of its operations
	// goes to that protocol, which answers in its own shape.
	if svc := SigningService(r); svc != "" {
		for _, p := range c.protocols {
			if p.SigningName == svc && p.TargetPrefix != "" {
				return p.h
			}
		}
	}
	// A request in AWS's JSON protocol that no protocol claims (no target, or one of a
	// service not served) is answered in that protocol, as an AWS JSON endpoint answers an
	// operation it does not know, never by the query protocol's fallback.
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-amz-json-") {
		return unknownJSONOperation{}
	}
	return fallback
}

// IDHeader is the response header of STS GetCallerIdentity that carries the emulator's
// ID. AWS sends no such header.
const IDHeader = "X-Gpublock-Sim-Id"

// ID is the emulator's identity: made at its first start and kept in its state file
// (without one, a new identity each start, as its state is new), so that a client keys what it has done against this
// emulator by the emulator, not by the URL that reaches it (a proxy is the same backend;
// another emulator later on the same port is not).
func (c *Core) ID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// Account is the AWS account the emulator stands for.
func (c *Core) Account() string { return c.opts.Account }

// ValidAccount reports whether id is an AWS account id: 12 digits.
func ValidAccount(id string) bool {
	if len(id) != 12 {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Now is the emulator's clock.
func (c *Core) Now() time.Time { return c.clock.Now() }

// SetTime moves the clock to t; it keeps running from there.
func (c *Core) SetTime(t time.Time) { c.clock.Set(t); c.saveQuietly() }

// Advance moves the clock forward (or back, if d < 0) by d.
func (c *Core) Advance(d time.Duration) { c.clock.Advance(d); c.saveQuietly() }

// Hash is the seeded, deterministic choice every market is made of.
func (c *Core) Hash(parts ...any) uint64 { return c.hash.Sum(parts...) }

// Between returns a value in [lo, hi] chosen by the seed and parts.
func (c *Core) Between(lo, hi int, parts ...any) int { return c.hash.Between(lo, hi, parts...) }

// Dice are the faults' seeded dice.
func (c *Core) Dice() *Dice { return c.dice }

// Zone is an availability zone of a served region.
type Zone struct{ Name, ID string }

// Zones are the region's availability zones (not its Local Zones).
func (c *Core) Zones(region string) []Zone {
	if c.opts.Zones == nil {
		return nil
	}
	return c.opts.Zones(region)
}

// Served reports whether the emulator serves region: exactly the regions where gpublock's
// catalog says Capacity Blocks are sold (model.Regions).
func Served(region string) bool { return slices.Contains(model.Regions(), region) }

// Lock takes the state (in this process and, through the state file's lock, in every
// emulator on that file), fresh from the state file, and gives the clock's time. Call
// unlock when the request is answered, and Commit after a change.
func (c *Core) Lock() (now time.Time, unlock func(), e *APIError) {
	c.mu.Lock()
	unlockFile, e := c.lockFile()
	if e != nil {
		c.mu.Unlock()
		return time.Time{}, nil, e
	}
	return c.clock.Now(), func() { unlockFile(); c.mu.Unlock() }, nil
}

// Update runs fn inside Lock and commits when fn reports a change. An error means the
// state could not be locked or saved (the change is undone): the caller answers an
// internal error, never success.
func (c *Core) Update(fn func(now time.Time) (changed bool)) error {
	now, unlock, e := c.Lock()
	if e != nil {
		return e
	}
	defer unlock()
	if fn(now) {
		if e := c.Commit(); e != nil {
			return e
		}
	}
	return nil
}

// SignedRegion is the region (and service) of the request's SigV4 credential scope:
// Authorization: AWS4-HMAC-SHA256 Credential=AKID/20250601/us-east-2/ec2/aws4_request, …
// The error is ErrUnsigned when the request is not signed at all, ErrUnservedRegion
// (with the region and service given) when its region is not one the emulator serves,
// else AuthFailure saying why the scope is refused.
func (c *Core) SignedRegion(r *http.Request) (region, service string, e *APIError) {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return "", "", ErrUnsigned
	}
	cred, parts, found := scope(auth)
	if !found {
		return "", "", Errf(http.StatusUnauthorized, "AuthFailure", "The Authorization header has no SigV4 Credential scope.")
	}
	if parts == nil {
		return "", "", Errf(http.StatusUnauthorized, "AuthFailure", "The SigV4 credential scope %q is malformed; expected AKID/DATE/REGION/SERVICE/aws4_request.", cred)
	}
	region, service = parts[2], parts[3]
	if !Served(region) {
		return region, service, ErrUnservedRegion
	}
	return region, service, nil
}

// SigningService is the service of the request's SigV4 scope, "" when there is none.
func SigningService(r *http.Request) string {
	if _, parts, _ := scope(r.Header.Get("Authorization")); parts != nil {
		return parts[3]
	}
	return ""
}

// scope reads the SigV4 credential scope of an Authorization header: found when it has
// one, and its five parts (AKID, date, region, service, aws4_request) when well formed.
func scope(auth string) (cred string, parts []string, found bool) {
	i := strings.Index(auth, "Credential=")
	if i < 0 {
		return "", nil, false
	}
	cred = auth[i+len("Credential="):]
	if j := strings.IndexAny(cred, ", "); j >= 0 {
		cred = cred[:j]
	}
	parts = strings.Split(cred, "/")
	if len(parts) != 5 || parts[4] != "aws4_request" {
		return cred, nil, true
	}
	return cred, parts, true
}

// Inject applies the latency and draws the faults common to every protocol for one call
// of service (its signing name: ec2, sagemaker, monitoring…) in region; each protocol
// answers the hit in its own words.
func (c *Core) Inject(ctx context.Context, service, region string) FaultHit {
	return inject(ctx, c.faults.get(), c.dice, service, region)
}

// InjectError is Inject answered in EC2's codes, which the awsquery protocols share:
// Unavailable, RequestLimitExceeded (HTTP 503) and InternalError.
func (c *Core) InjectError(ctx context.Context, service, region string) *APIError {
	switch c.Inject(ctx, service, region) {
	case FaultDown:
		return Errf(http.StatusServiceUnavailable, "Unavailable", "The service is unavailable in %s. Please try again shortly.", region)
	case FaultThrottle:
		return ErrThrottled
	case FaultError:
		return ErrInternal
	}
	return nil
}

// Throttled takes a token from the bucket of service, region and op, of limit l, and
// reports whether there was none. Always false when the rate limits are off.
func (c *Core) Throttled(service, region, op string, l apilimit.Limit) bool {
	return !c.opts.RateLimits.Take(service, region, op, l)
}

// RateLimits are the request buckets in force, nil when off.
func (c *Core) RateLimits() *RateLimits { return c.opts.RateLimits }

// SetFaults replaces the faults in force.
func (c *Core) SetFaults(f Faults) { c.faults.set(f) }

// Faults are the faults in force.
func (c *Core) Faults() Faults { return c.faults.get() }

// Denied reports whether the deny fault names the action.
func (c *Core) Denied(action string) bool { return c.faults.get().Denies(action) }

// Hit reports true with probability p, from the faults' seeded dice (sold, lost-reply).
func (c *Core) Hit(p float64) bool { return c.dice.Hit(p) }

// TakePayFail reports whether the purchase being made is one whose payment is to fail,
// counting it off the payfail fault. Call inside Lock or Update, so that two purchases
// do not both take the last one.
func (c *Core) TakePayFail() bool { return c.faults.takePayFail() }
