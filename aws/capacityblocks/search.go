package capacityblocks

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/source"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

// searchCall is one DescribeCapacityBlockOfferings search, followed over all its pages:
// of one type, or of several at once (InstanceTypePreferences).
type searchCall struct {
	region string
	types  []string
	days   int
	// again: the type is asked again alone because an answer of several types may have cut
	// it; held is what that answer held of it.
	again bool
	held  []model.Offering
}

// has reports whether the call asks for the cell of region, type and duration.
func (c searchCall) has(region, typ string, days int) bool {
	return c.region == region && c.days == days && slices.Contains(c.types, typ)
}

// maxTypesPerCall is how many instance types one call asks for. AWS documents no limit on
// InstanceTypePreferences; asking for every type a region sells (at most 10) is the
// assumption, unconfirmed.
const maxTypesPerCall = 10

// answerCap is how many offerings AWS gives for one search (model.OfferingsPerAnswer).
// Whether a search of several types gives six in all or six per type is not documented;
// possiblyCut is right under both readings.
const answerCap = model.OfferingsPerAnswer

// planSearch lists the calls of a query: per region, count, duration and window, one call
// for all the instance types the region sells (AWS's bucket of 10 calls refilled at 0.15 a
// second is what a search waits for, so every call saved is 6⅔ s), and one per UltraServer
// type (UltraserverType takes one type). It leaves out the calls that cannot return
// anything: types the catalog says a region does not sell, and durations the window cannot
// hold. It also returns, per region, why it has no call. typesPerCall 1 is the plan of one
// call per type.
func planSearch(q model.Query, typesPerCall int) ([]string, []searchCall, map[string]string) {
	regions := dedupe(q.Regions)
	types := dedupe(q.InstanceTypes)
	days := fittingDays(q)
	var calls []searchCall
	why := map[string]string{}
	for _, r := range regions {
		n := 0
		for _, group := range typeGroups(r, types, typesPerCall) {
			for _, d := range days {
				calls = append(calls, searchCall{region: r, types: group, days: d})
				n++
			}
		}
		switch {
		case n == 0 && len(days) == 0:
			why[r] = fmt.Sprintf("no %s block fits between %s and %s", q.Durations, q.Start.UTC().Format(model.LayoutMinute), q.End.UTC().Format(model.LayoutMinuteUTC))
		case n == 0:
			why[r] = fmt.Sprintf("%s not sold here (sold in %s)", strings.Join(types, ", "), strings.Join(model.RegionsSelling(types...), ", "))
		}
	}
	return regions, calls, why
}

// typeGroups splits the types region sells into the groups asked in one call each: the
// instance types, at most per at a time, and each UltraServer type alone.
func typeGroups(region string, types []string, per int) [][]string {
	per = max(1, per)
	var groups [][]string
	var batch []string
	for _, tn := range types {
		t, ok := model.LookupType(tn)
		if !ok || !t.Sells(region) {
			continue
		}
		if t.UltraServer {
			groups = append(groups, []string{tn})
			continue
		}
		if len(batch) == per {
			groups = append(groups, batch)
			batch = nil
		}
		batch = append(batch, tn)
	}
	if len(batch) > 0 {
		groups = append(groups, batch)
	}
	return groups
}

// fittingDays are the query's durations that a block in its window can have. A block
// starting within the hour may be up to a day shorter than asked (it ends at the 11:30 UTC
// before start + duration; the emulator offers such lengths, and whether AWS does is not
// documented), so a duration is dropped only when even that shorter block would not fit.
func fittingDays(q model.Query) []int {
	all := q.Durations.Days()
	if q.Start.IsZero() || q.End.IsZero() {
		return all // checkQueryShape reports the empty window
	}
	window := q.End.Sub(q.Start)
	var out []int
	for _, d := range all {
		if time.Duration(d-1)*24*time.Hour < window {
			out = append(out, d)
		}
	}
	return out
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// checkQueryShape catches what would make a call meaningless whatever the clock says;
// Query.Validate, which needs "now", is the caller's job.
func checkQueryShape(q model.Query) error {
	if q.Count < model.MinCount || q.Count > model.MaxCount {
		return fmt.Errorf("count %d is outside %d–%d", q.Count, model.MinCount, model.MaxCount)
	}
	if len(q.Durations.Days()) == 0 {
		return fmt.Errorf("duration %s holds no valid duration", q.Durations)
	}
	if len(q.InstanceTypes) == 0 {
		return fmt.Errorf("no instance type")
	}
	for _, t := range q.InstanceTypes {
		if _, ok := model.LookupType(t); !ok {
			return fmt.Errorf("unknown instance type %q", t)
		}
	}
	if q.Start.IsZero() || q.End.IsZero() || !q.End.After(q.Start) {
		return fmt.Errorf("the window %s – %s is empty", q.Start.Format(time.DateOnly), q.End.Format(time.DateOnly))
	}
	return nil
}

// Search starts the fan-out and returns at once. Each page is delivered as soon as it
// arrives; the channel is closed when every call has finished or ctx is cancelled. The
// caller must drain the channel or cancel ctx. A query without regions searches the home
// region.
func (c *Client) Search(ctx context.Context, q model.Query) <-chan source.SearchEvent {
	out := make(chan source.SearchEvent, 16)
	if len(dedupe(q.Regions)) == 0 {
		q.Regions = []string{c.api.Region()}
	}
	regions, calls, why := planSearch(q, c.typesPerCall())
	callRegions := make([]string, len(calls))
	for i, call := range calls {
		callRegions[i] = call.region
	}
	s := &search{c: c, q: q, out: out, fan: awsapi.NewFanout(out, regions, callRegions, offeringKey, func(err error) string { return awsapi.ExplainError(err).Summary })}
	s.fan.Bucket = c.pacer.Bucket(opDescribeOfferings)
	go s.run(ctx, regions, calls, why)
	return out
}

// typesPerCall is how many types the client asks for in one call.
func (c *Client) typesPerCall() int {
	if c.oneTypePerCall {
		return 1
	}
	return maxTypesPerCall
}

type search struct {
	c   *Client
	q   model.Query
	out chan<- source.SearchEvent
	fan *awsapi.Fanout[model.Offering]
	// calls runs the search's calls, and those of one type asked because a call's answer
	// may have been cut.
	calls *awsapi.CallRunner[searchCall]

	market market
}

func (s *search) run(ctx context.Context, regions []string, calls []searchCall, why map[string]string) {
	defer close(s.out)
	if err := checkQueryShape(s.q); err != nil {
		s.fan.Refuse(ctx, regions, err)
		return
	}
	if !s.fan.Begin(ctx, regions, why) {
		return
	}
	var cells []marketcache.Cell
	for _, call := range calls {
		cells = append(cells, s.cells(call)...)
	}
	cache, _ := s.c.api.MarketCache()
	held := cache.Get(time.Now().UTC(), cells...)
	if wantsCachedRows(ctx) && !s.sendCached(ctx, held) {
		return
	}
	calls = orderCalls(calls, held, s.c.api.Region())
	s.market.skipProbes(calls, s.fan.Bucket)
	perRegion, overall := s.c.api.Concurrency()
	s.calls = awsapi.NewCallRunner(ctx, func(c searchCall) string { return c.region }, perRegion, overall, s.pace, s.do)
	for _, c := range calls {
		s.calls.Go(c)
	}
	s.calls.Wait()
}

// pace lets each region go at the pace of its request bucket: a burst, then one call per
// refill. A call of several types waits first for the region's probe (market.begin), so
// that no token is held while it waits.
func (s *search) pace(ctx context.Context, call searchCall) (context.Context, error) {
	if call.again && s.c.capPerType.Load() {
		return ctx, nil // do takes what the answer held
	}
	if len(call.types) > 1 && !s.market.begin(ctx, call.region) {
		return ctx, ctx.Err()
	}
	return s.c.pacer.Wait(ctx, call.region, opDescribeOfferings)
}

const opDescribeOfferings = "DescribeCapacityBlockOfferings"

func (s *search) input(call searchCall) *ec2.DescribeCapacityBlockOfferingsInput {
	in := &ec2.DescribeCapacityBlockOfferingsInput{
		CapacityDurationHours: aws.Int32(int32(call.days * 24)),
		StartDateRange:        utc(s.q.Start),
		EndDateRange:          utc(s.q.End),
	}
	if s.c.pageSize > 0 {
		in.MaxResults = aws.Int32(s.c.pageSize)
	}
	if s.q.AllZones {
		in.AllAvailabilityZones = aws.Bool(true)
	}
	switch t, _ := model.LookupType(call.types[0]); {
	case t.UltraServer:
		in.UltraserverType = aws.String(call.types[0])
		in.UltraserverCount = aws.Int32(int32(s.q.Count))
	case len(call.types) == 1:
		// One type goes as InstanceType, which every endpoint (and an emulator that
		// predates InstanceTypePreferences) takes.
		in.InstanceType = aws.String(call.types[0])
		in.InstanceCount = aws.Int32(int32(s.q.Count))
	default:
		for _, tn := range call.types {
			in.InstanceTypePreferences = append(in.InstanceTypePreferences, types.CapacityBlockInstanceTypePreference{InstanceType: aws.String(tn)})
		}
		in.InstanceCount = aws.Int32(int32(s.q.Count))
	}
	return in
}

func (s *search) do(ctx context.Context, call searchCall) {
	if call.again && s.c.capPerType.Load() {
		// Learnt since the call was queued: the answer that held this type was whole.
		s.putCache(call, time.Now().UTC(), map[string][]model.Offering{call.types[0]: call.held}, nil)
		s.fan.Finish(ctx, call.region, nil)
		return
	}
	if len(call.types) > 1 {
		defer s.market.end(call.region)
		// What the region's answers showed decides how the types go: together while
		// answers are short; else alone, or with others whose answers were short enough
		// to share one. The first group goes with the token in hand.
		groups := s.market.groups(call.region, call.types)
		for _, g := range groups[1:] {
			s.fan.Add(call.region, 1)
			s.calls.Go(searchCall{region: call.region, types: g, days: call.days})
		}
		call.types = groups[0]
	}
	cl := s.c.api.EC2(call.region)
	hooked := awsapi.WithThrottleHook(ctx, func(error) { s.fan.Throttled(ctx, call.region) })
	p := ec2.NewDescribeCapacityBlockOfferingsPaginator(cl, s.input(call))
	asked := time.Now().UTC()
	var all []model.Offering
	for p.HasMorePages() {
		page, err := p.NextPage(hooked)
		if err != nil && len(call.types) > 1 && len(all) == 0 && awsAnswered(err) && !awsapi.ExplainError(err).Retryable && ctx.Err() == nil {
			// AWS refused the call of several types (a quota of one family, a type it
			// will not take): each type alone, so the others are still answered and the
			// refusal names its own type.
			s.askEach(call, call.types, nil)
			s.fan.Finish(ctx, call.region, nil)
			return
		}
		if err != nil {
			s.fan.Finish(ctx, call.region, awsapi.WithInstanceType(err, strings.Join(call.types, ", ")))
			return
		}
		var offs []model.Offering
		for _, o := range page.CapacityBlockOfferings {
			off, err := offeringFrom(call.region, o)
			if err != nil {
				s.fan.Finish(ctx, call.region, fmt.Errorf("offering %s: unreadable upfront fee %q: %w",
					aws.ToString(o.CapacityBlockOfferingId), aws.ToString(o.UpfrontFee), err))
				return
			}
			off.AskedAt = asked
			offs = append(offs, off)
		}
		all = append(all, offs...)
		if !s.fan.Deliver(ctx, call.region, offs) {
			return
		}
	}
	// An offering's type is its own (a call of several types answers with all of them);
	// an UltraServer's is its UltraServer type (offeringFrom).
	byType := map[string][]model.Offering{}
	for _, o := range all {
		byType[o.InstanceType] = append(byType[o.InstanceType], o)
	}
	if len(call.types) > 1 && len(all) > answerCap {
		s.c.capPerType.Store(true)
	}
	var cut []string
	if !s.c.capPerType.Load() {
		cut = possiblyCut(call, len(all), byType)
	}
	s.market.record(call, byType, cut)
	if len(cut) > 0 {
		s.askEach(call, cut, byType)
	}
	s.putCache(call, asked, byType, cut)
	s.fan.Finish(ctx, call.region, nil)
}

// putCache writes a whole answer's cells. Only a whole answer replaces a cell's: a failed
// or cancelled call leaves the old one, which shows with its age, and a type whose part
// may have been cut (cut) is written by its own call.
func (s *search) putCache(call searchCall, asked time.Time, byType map[string][]model.Offering, cut []string) {
	cache, _ := s.c.api.MarketCache()
	for _, cell := range s.cells(call) {
		if slices.Contains(cut, cell.Type) {
			continue
		}
		if err := cache.Put(cell, asked, byType[cell.Type]); err != nil {
			slog.Debug("market cache not written", "err", err)
		}
	}
}

// possiblyCut lists the types of a call of several whose offerings the answer may have
// left out. Under the reading that the cap holds for the call, an answer of exactly
// answerCap may have been cut, and each type it holds fewer than answerCap of is asked
// again alone (a type at the cap gives no more alone). An answer of more than answerCap
// shows that this call's cap is per type: each type's part is what a call of it alone
// would give, so nothing is asked again.
func possiblyCut(call searchCall, n int, byType map[string][]model.Offering) []string {
	if len(call.types) < 2 || n != answerCap {
		return nil
	}
	var out []string
	for _, tn := range call.types {
		if len(byType[tn]) < answerCap {
			out = append(out, tn)
		}
	}
	return out
}

// askEach asks for each of typeNames on its own, in call's region, duration and window, as
// the search's other calls go; the search waits for them before it ends.
func (s *search) askEach(call searchCall, typeNames []string, held map[string][]model.Offering) {
	s.fan.Add(call.region, len(typeNames))
	for _, tn := range typeNames {
		s.calls.Go(searchCall{region: call.region, types: []string{tn}, days: call.days, again: held != nil, held: held[tn]})
	}
}

// market is what a search's answers showed of each region's market, for the calls not yet
// made: whether an answer of several types was cut there, and how many offerings a type
// has had in an answer known whole. The first call of several types in a region (the
// probe) answers before the region's others of several types go: a wasted call costs 6⅔ s
// of AWS's bucket, a wait one round trip.
type market struct {
	mu      sync.Mutex
	regions map[string]*regionMarket
}

type regionMarket struct {
	probe chan struct{} // closed when the probe has answered
	// noProbe: the region's bucket holds a token for each of its calls of several types,
	// so that a call wasted on a cut answer costs no wait, and none waits for the probe.
	noProbe bool
	cut     bool
	counts  map[string]int // the most offerings of a type in one whole answer
}

func (m *market) region(r string) *regionMarket {
	if m.regions == nil {
		m.regions = map[string]*regionMarket{}
	}
	if m.regions[r] == nil {
		m.regions[r] = &regionMarket{counts: map[string]int{}}
	}
	return m.regions[r]
}

// skipProbes marks the regions whose calls of several types all fit in the tokens their
// bucket holds now (bucket, as Fanout.Bucket; nil or not ok: calls are not paced).
func (m *market) skipProbes(calls []searchCall, bucket func(region string) (tokens, rate float64, ok bool)) {
	n := map[string]int{}
	for _, c := range calls {
		if len(c.types) > 1 {
			n[c.region]++
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for r, k := range n {
		tokens, ok := 0.0, false
		if bucket != nil {
			tokens, _, ok = bucket(r)
		}
		if !ok || float64(k) <= tokens {
			m.region(r).noProbe = true
		}
	}
}

// begin is called before a call of several types in region waits for its token: the
// first goes on as the probe, the others wait until a call of several types there has
// ended (end), unless the region needs no probe. It reports false when ctx ended first.
func (m *market) begin(ctx context.Context, region string) bool {
	m.mu.Lock()
	rm := m.region(region)
	if rm.noProbe {
		m.mu.Unlock()
		return true
	}
	if rm.probe == nil {
		rm.probe = make(chan struct{})
		m.mu.Unlock()
		return true
	}
	ch := rm.probe
	m.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// end is called when a call of several types in region has ended, its answer recorded.
func (m *market) end(region string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rm := m.region(region)
	if rm.probe == nil {
		rm.probe = make(chan struct{})
	}
	select {
	case <-rm.probe:
	default:
		close(rm.probe)
	}
}

// record notes a whole answer (cut lists the types it may have cut).
func (m *market) record(call searchCall, byType map[string][]model.Offering, cut []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rm := m.region(call.region)
	if len(cut) > 0 {
		rm.cut = true
	}
	for _, tn := range call.types {
		if !slices.Contains(cut, tn) {
			rm.counts[tn] = max(rm.counts[tn], len(byType[tn]))
		}
	}
}

// groups splits a call's types as the region's answers so far advise: all together until
// an answer there was cut; after that, each type alone unless its answers were short, and
// those short ones together as long as their offerings add up to less than answerCap.
func (m *market) groups(region string, typeNames []string) [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	rm := m.region(region)
	if !rm.cut {
		return [][]string{typeNames}
	}
	var out [][]string
	var shared []string
	sum := 0
	for _, tn := range typeNames {
		n, known := rm.counts[tn]
		switch {
		case !known || n >= answerCap:
			out = append(out, []string{tn})
		case sum+n < answerCap && len(shared) < maxTypesPerCall:
			shared = append(shared, tn)
			sum += n
		default:
			out = append(out, shared)
			shared, sum = []string{tn}, n
		}
	}
	if len(shared) > 0 {
		out = append(out, shared)
	}
	return out
}

// cells are the market cache's cells of one call: one per type.
func (s *search) cells(call searchCall) []marketcache.Cell {
	_, cacheCloud := s.c.api.MarketCache()
	var out []marketcache.Cell
	for _, tn := range call.types {
		out = append(out, marketcache.Cell{Source: model.SourceCapacityBlock.Name(), Cloud: cacheCloud, Region: call.region,
			Type: tn, Count: s.q.Count, Days: call.days, Start: s.q.Start, End: s.q.End, AllZones: s.q.AllZones})
	}
	return out
}

// orderCalls puts first the calls likeliest to be bought, so their rows come first: the
// calls of a cell that had offerings last time (held), then the home region's, then the
// rest, each in the plan's order. Calls start in this order; each region's bucket still
// paces them.
func orderCalls(calls []searchCall, held []marketcache.Entry, home string) []searchCall {
	had := func(c searchCall) bool {
		for _, e := range held {
			if len(e.Offerings) > 0 && c.has(e.Cell.Region, e.Cell.Type, e.Cell.Days) {
				return true
			}
		}
		return false
	}
	rank := func(c searchCall) int {
		switch {
		case had(c):
			return 0
		case c.region == home:
			return 1
		}
		return 2
	}
	ranks := make(map[int]int, len(calls))
	for i, c := range calls {
		ranks[i] = rank(c)
	}
	idx := make([]int, len(calls))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return ranks[a] - ranks[b] })
	out := make([]searchCall, len(calls))
	for i, j := range idx {
		out[i] = calls[j]
	}
	return out
}

// sendCached sends, before any call, what the market cache holds for the calls, one step
// per cell marked with its age. It reports false when ctx ended.
func (s *search) sendCached(ctx context.Context, held []marketcache.Entry) bool {
	for _, e := range held {
		if len(e.Offerings) == 0 {
			continue
		}
		for i := range e.Offerings {
			e.Offerings[i].AskedAt = e.Asked
		}
		if !s.fan.Send(ctx, source.SearchEvent{Region: e.Cell.Region, Offerings: e.Offerings, CallsTotal: s.fan.Total(), CachedAt: e.Asked}) {
			return false
		}
	}
	return true
}

type cachedRowsKey struct{}

// WithCachedRows asks the searches run under ctx to send first what the market cache
// holds (steps with CachedAt set). For display only: a purchase's look-up never asks.
func WithCachedRows(ctx context.Context) context.Context {
	return context.WithValue(ctx, cachedRowsKey{}, true)
}

func wantsCachedRows(ctx context.Context) bool { v, _ := ctx.Value(cachedRowsKey{}).(bool); return v }

func offeringKey(o model.Offering) string {
	if o.ID != "" {
		return o.Region + "/" + o.ID
	}
	return fmt.Sprintf("%s/%s/%s/%d/%s/%s/%s", o.Region, o.AvailabilityZone, o.InstanceType, o.Count, o.Start, o.End, o.Fee)
}

// SearchCost is what a search will ask of AWS before it starts: its calls, and the least
// time the request buckets allow them, set by the busiest region.
type SearchCost struct {
	Calls  int
	Region string        // the busiest region
	Wait   time.Duration // 0 when calls are not paced (no bucket known)
}

// CostOf plans q as Search would and says what it will cost.
func (c *Client) CostOf(q model.Query) SearchCost {
	if len(dedupe(q.Regions)) == 0 {
		q.Regions = []string{c.api.Region()}
	}
	regions, calls, _ := planSearch(q, c.typesPerCall())
	per := map[string]int{}
	for _, call := range calls {
		per[call.region]++
	}
	cost := SearchCost{Calls: len(calls)}
	for _, r := range regions {
		l, ok := c.pacer.Limit(r, opDescribeOfferings)
		if !ok || per[r] == 0 {
			continue
		}
		if w := l.Bound(per[r], 0); w > cost.Wait || cost.Region == "" {
			cost.Wait, cost.Region = w, r
		}
	}
	return cost
}

// CostOfAll is what the searches qs, run one after another from now, will cost: their
// calls added up per region (each search's own cost would assume a full bucket for each,
// and many small searches add up to a long wait), through each region's bucket as it is
// now, so that what a search before them drained refills first.
func (c *Client) CostOfAll(qs []model.Query) SearchCost {
	per := map[string]int{}
	var cost SearchCost
	for _, q := range qs {
		if len(dedupe(q.Regions)) == 0 {
			q.Regions = []string{c.api.Region()}
		}
		_, calls, _ := planSearch(q, c.typesPerCall())
		cost.Calls += len(calls)
		for _, call := range calls {
			per[call.region]++
		}
	}
	read := c.pacer.Bucket(opDescribeOfferings)
	for _, r := range slices.Sorted(maps.Keys(per)) {
		l, ok := c.pacer.Limit(r, opDescribeOfferings)
		if !ok {
			continue
		}
		if read != nil {
			if tokens, _, ok := read(r); ok {
				l.Burst = tokens
			}
		}
		if w := l.Bound(per[r], 0); w > cost.Wait || cost.Region == "" {
			cost.Wait, cost.Region = w, r
		}
	}
	return cost
}

// String reads "656 calls: about 17 minutes at AWS's rate in us-east-1".
func (s SearchCost) String() string {
	n := fmt.Sprintf("%d calls", s.Calls)
	if s.Calls == 1 {
		n = "1 call"
	}
	if s.Wait < time.Second {
		return n
	}
	about := fmt.Sprintf("%d seconds", int(s.Wait.Round(time.Second).Seconds()))
	if s.Wait >= 90*time.Second {
		about = fmt.Sprintf("%d minutes", int(s.Wait.Round(time.Minute).Minutes()))
	}
	return fmt.Sprintf("%s: about %s at AWS's rate in %s", n, about, s.Region)
}
