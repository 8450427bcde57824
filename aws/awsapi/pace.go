package awsapi

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"

	"github.com/gpublock/gpublock/aws/apilimit"
)

// DefaultHeadroom is the share of each of AWS's request buckets gpublock leaves to the
// other tools of the account (the console, Terraform, a colleague's script) when
// Config.Headroom is 0.
const DefaultHeadroom = 0.05

// pacer is the client's copy of one AWS request bucket (a region's action): it lets a
// burst go at once, then one call per refill, so that AWS need not refuse any. A call
// that AWS refuses all the same (someone else spent the tokens) empties the copy and
// slows it down for a while: the backoff.
type pacer struct {
	mu     sync.Mutex
	burst  float64
	full   float64 // the refill rate with headroom, per second
	rate   float64 // the rate in force: full, or less after throttles
	tokens float64
	last   time.Time
	now    func() time.Time
}

func newPacer(l apilimit.Limit, headroom float64, now func() time.Time) *pacer {
	burst := float64(int(l.Burst * (1 - headroom)))
	burst = max(burst, 1)
	rate := l.Rate * (1 - headroom)
	return &pacer{burst: burst, full: rate, rate: rate, tokens: burst, last: now(), now: now}
}

func (p *pacer) refillLocked(t time.Time) {
	if dt := t.Sub(p.last); dt > 0 {
		p.tokens = min(p.burst, p.tokens+dt.Seconds()*p.rate)
		p.last = t
	}
}

// take takes a token if there is one, or says how long until there will be.
func (p *pacer) take() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refillLocked(p.now())
	if p.tokens >= 1 {
		p.tokens--
		return 0
	}
	return time.Duration((1 - p.tokens) / p.rate * float64(time.Second))
}

// wait blocks until the caller may make one call. Nothing is reserved while waiting, so
// that a throttle (which empties the bucket and slows the rate) holds back every waiter.
func (p *pacer) wait(ctx context.Context) error {
	for {
		d := p.take()
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(max(d, time.Millisecond))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// throttled is told of a RequestLimitExceeded: AWS's bucket is empty whatever the copy
// thought, and something else is spending it (another tool, or a bucket smaller than
// the table says), so the pace drops by a third, down to a quarter of the full rate, until
// calls succeed again. A steeper drop would find a much smaller bucket sooner, but would
// crawl whenever throttles come at random (the emulator's throttle= fault).
func (p *pacer) throttled() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refillLocked(p.now())
	p.tokens = min(p.tokens, 0)
	p.rate = max(p.rate*2/3, p.full/4)
}

// succeeded is told of a call AWS served: the pace recovers a tenth of the full rate.
func (p *pacer) succeeded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rate < p.full {
		p.refillLocked(p.now())
		p.rate = min(p.full, p.rate+p.full/10)
	}
}

// pacers are a client's buckets, one per region and action, all of one table.
type pacers struct {
	once     sync.Once
	resolve  func() *apilimit.Table // nil: AWS's buckets are unknown or off; no pacing
	table    *apilimit.Table
	headroom float64
	now      func() time.Time

	mu sync.Mutex
	m  map[string]*pacer

	answered sync.Map // region → time.Time of its latest served call
}

// get returns the pacer of a region's action, or nil when nothing is paced.
func (ps *pacers) get(region, action string) *pacer {
	ps.once.Do(func() { ps.table = ps.resolve() })
	if ps.table == nil || action == "" {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	k := region + "/" + action
	p, ok := ps.m[k]
	if !ok {
		// The unfiltered bucket is the smaller one; gpublock's calls may be either, so it
		// paces by the smaller.
		p = newPacer(ps.table.For(action, true), ps.headroom, ps.now)
		ps.m[k] = p
	}
	return p
}

// on reports whether calls are paced (the table is known once a call has been made).
func (ps *pacers) on() bool {
	ps.once.Do(func() { ps.table = ps.resolve() })
	return ps.table != nil
}

func newPacers(c *Client) *pacers {
	h := c.cfg.Headroom
	switch {
	case h == 0:
		h = DefaultHeadroom
	case h < 0:
		h = 0
	}
	return &pacers{resolve: c.rateLimits, headroom: min(h, 0.9), now: time.Now, m: map[string]*pacer{}}
}

// rateLimits is the table a client paces itself by: Config.RateLimits when set (an
// account with raised limits); against an emulator that publishes its buckets
// (GET /_sim/limits), those, or none when it has them off; AWS's documented ones otherwise.
func (c *Client) rateLimits() *apilimit.Table {
	if c.cfg.RateLimits != nil {
		return c.cfg.RateLimits
	}
	return c.rateLimitsAt(c.cfg.EndpointURL, "", apilimit.EC2())
}

// rateLimitsAt is the table of a service reached at endpoint ("" for AWS's own): the
// emulator's, read from /_sim/limits (?service= names another service than EC2), or none
// when it has them off; onAWS otherwise.
func (c *Client) rateLimitsAt(endpoint, service string, onAWS apilimit.Table) *apilimit.Table {
	if endpoint == "" {
		return &onAWS
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	u := strings.TrimSuffix(endpoint, "/") + "/_sim/limits"
	if service != "" {
		u += "?service=" + url.QueryEscape(service)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return &onAWS
	}
	hc := http.DefaultClient
	if c.cfg.HTTPClient != nil {
		hc = c.cfg.HTTPClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return &onAWS
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil || resp.StatusCode != http.StatusOK {
		return &onAWS
	}
	if strings.TrimSpace(string(body)) == "off" {
		return nil
	}
	t, err := apilimit.Parse(string(body))
	if err != nil {
		return &onAWS
	}
	return &t
}

// ServicePacer paces the SDK clients of another service than EC2 (SageMaker) by the model
// EC2's calls are paced by: its own buckets per region and operation, the same headroom,
// backoff and retry budget.
type ServicePacer struct {
	ps      *pacers
	retryer aws.RetryerV2
}

// NewServicePacer is the pacer of a service reached at endpoint ("" for AWS's own), named
// service in the emulator's /_sim/limits, whose buckets on AWS are onAWS. It makes no call
// until the first paced one. There is one per client, service and endpoint: AWS counts
// every call of the account in one bucket, and the commands build a source (and so ask
// for its pacer) per search.
func (c *Client) NewServicePacer(endpoint, service string, onAWS apilimit.Table) *ServicePacer {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := service + " " + endpoint
	if p, ok := c.servicePacers[key]; ok {
		return p
	}
	if c.servicePacers == nil {
		c.servicePacers = map[string]*ServicePacer{}
	}
	p := c.newServicePacer(endpoint, service, onAWS)
	c.servicePacers[key] = p
	return p
}

func (c *Client) newServicePacer(endpoint, service string, onAWS apilimit.Table) *ServicePacer {
	ps := newPacers(c)
	ps.resolve = func() *apilimit.Table { return c.rateLimitsAt(endpoint, service, onAWS) }
	r := c.retryer
	if rr, ok := r.(reportingRetryer); ok {
		// The same retry budget as EC2's reads, but a throttle's wait is left to this
		// service's pacer.
		r = reportingRetryer{RetryerV2: rr.RetryerV2, pacers: ps}
	}
	return &ServicePacer{ps: ps, retryer: r}
}

// Retryer is the reads' retryer (Client.ReadRetryer) for this service's clients.
func (p *ServicePacer) Retryer() aws.RetryerV2 { return p.retryer }

// Option is the middleware a region's client adds to its APIOptions to be paced.
func (p *ServicePacer) Option(region string) func(*middleware.Stack) error {
	return paceStack(p.ps, region)
}

// Wait waits for a token of the region's operation and returns the context to make that
// call with, whose first attempt then takes no second token. A search waits here before
// it takes a slot, so that no slot is held by a wait (as the Capacity Block search does).
func (p *ServicePacer) Wait(ctx context.Context, region, op string) (context.Context, error) {
	pc := p.ps.get(region, op)
	if pc == nil {
		return ctx, nil
	}
	if err := pc.wait(ctx); err != nil {
		return ctx, err
	}
	return withPrepaid(ctx), nil
}

// EC2Pacer is the pacer of the client's own EC2 calls, for a source's search to wait on.
func (c *Client) EC2Pacer() *ServicePacer { return &ServicePacer{ps: c.pacers, retryer: c.retryer} }

// Limit is the bucket a region's op is paced by; ok is false when it is not paced.
func (p *ServicePacer) Limit(region, op string) (l apilimit.Limit, ok bool) {
	pc := p.ps.get(region, op)
	if pc == nil {
		return apilimit.Limit{}, false
	}
	return apilimit.Limit{Burst: pc.burst, Rate: pc.full}, true
}

// Bucket reads, for a search's progress (Fanout.Bucket), a region's bucket of op.
func (p *ServicePacer) Bucket(op string) func(region string) (float64, float64, bool) {
	if p == nil {
		return nil
	}
	return p.ps.bucketOf(op)
}

func (ps *pacers) bucketOf(op string) func(region string) (float64, float64, bool) {
	return func(region string) (float64, float64, bool) {
		p := ps.get(region, op)
		if p == nil {
			return 0, 0, false
		}
		t, r := p.state()
		return t, r, true
	}
}

// On reports whether calls are paced: false when the emulator has its limits off.
func (p *ServicePacer) On() bool { return p.ps.on() }

// paceOption adds pacing and the retry budget to a region's EC2 client. Both sit inside
// the SDK's retry loop, so that every attempt, first or retry, is paced.
func (c *Client) paceOption(region string) func(*middleware.Stack) error {
	return paceStack(c.pacers, region)
}

func paceStack(ps *pacers, region string) func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		if err := s.Initialize.Add(budgetCall{}, middleware.After); err != nil {
			return err
		}
		return s.Finalize.Insert(paceAttempt{ps, region}, "Retry", middleware.After)
	}
}

// upFor is how long a region that answered counts as up.
const upFor = time.Minute

// budget is one operation's count of failures other than throttling.
type budget struct {
	failures int
	prepaid  atomic.Bool // the caller already waited for the first attempt's token
}

type budgetKey struct{}

type budgetCall struct{}

func (budgetCall) ID() string { return "gpublock.RetryBudget" }

func (budgetCall) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	b := &budget{}
	if p, ok := ctx.Value(prepaidKey{}).(*atomic.Bool); ok && p.Swap(false) {
		b.prepaid.Store(true)
	}
	return next.HandleInitialize(middleware.WithStackValue(ctx, budgetKey{}, b), in)
}

type prepaidKey struct{}

// withPrepaid marks ctx's next operation as having waited for its first token already
// (the search waits before taking a slot, so that a slot is never held by a wait).
func withPrepaid(ctx context.Context) context.Context {
	p := &atomic.Bool{}
	p.Store(true)
	return context.WithValue(ctx, prepaidKey{}, p)
}

type paceAttempt struct {
	ps     *pacers
	region string
}

func (paceAttempt) ID() string { return "gpublock.Pace" }

func (m paceAttempt) HandleFinalize(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	b, _ := middleware.GetStackValue(ctx, budgetKey{}).(*budget)
	p := m.ps.get(m.region, awsmiddleware.GetOperationName(ctx))
	if p != nil && (b == nil || !b.prepaid.Swap(false)) {
		if err := p.wait(ctx); err != nil {
			return middleware.FinalizeOutput{}, middleware.Metadata{}, &aws.RequestCanceledError{Err: err}
		}
	}
	out, md, err := next.HandleFinalize(ctx, in)
	throttle := IsThrottle(err)
	if p != nil {
		switch {
		case throttle:
			p.throttled()
		case err == nil:
			p.succeeded()
		}
	}
	if err == nil {
		m.ps.answered.Store(m.region, time.Now())
	}
	if err != nil && !throttle && b != nil {
		// Throttling is AWS's pace, not a fault of the call: only the other failures count,
		// so that a throttled region still gets its full tries before it is called failed.
		// A region that has answered other calls is up, and its failures are passing ones:
		// they get more tries, so that only failures that persist fail it. A region that
		// has not answered yet may be down, and is reported after the usual three.
		b.failures++
		limit := OtherAttempts
		if at, ok := m.ps.answered.Load(m.region); ok && time.Since(at.(time.Time)) < upFor {
			limit = AnsweredAttempts
		}
		if b.failures >= limit {
			err = &spentError{err: err, tries: b.failures}
		}
	}
	return out, md, err
}

// spentError ends the retries of a call that failed OtherAttempts times for reasons
// other than throttling.
type spentError struct {
	err   error
	tries int
}

func (e *spentError) Error() string        { return e.err.Error() }
func (e *spentError) Unwrap() error        { return e.err }
func (e *spentError) RetryableError() bool { return false }
