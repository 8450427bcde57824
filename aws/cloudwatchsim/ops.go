package cloudwatchsim

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The metrics served (EC2 User Guide, "Monitor Capacity Reservations usage with
// CloudWatch metrics"): per reservation, under the one dimension CapacityReservationId.
// Whether AWS publishes them for Capacity Blocks is not documented (the Capacity Blocks
// pages name EventBridge and CloudTrail only); a Capacity Block is a Capacity Reservation
// and the emulator publishes them, while gpublock takes missing data as unknown use.
const (
	cwNamespaceCR     = "AWS/EC2CapacityReservations"
	dimReservationID  = "CapacityReservationId"
	metricUsed        = "UsedInstanceCount"
	metricAvailable   = "AvailableInstanceCount"
	metricTotal       = "TotalInstanceCount"
	metricUtilization = "InstanceUtilization"
)

var cwMetricUnits = map[string]string{metricUsed: "Count", metricAvailable: "Count", metricTotal: "Count", metricUtilization: "Percent"}

// How long CloudWatch keeps data points, and at what period (CloudWatch User Guide,
// "Metrics concepts", retention): 5-minute ones for 63 days, hourly ones for 455 days (15
// months). A request for older data asks for what is not kept: no data points.
const (
	retainMinute     = 15 * 24 * time.Hour
	retainFiveMinute = 63 * 24 * time.Hour
	retainHour       = 455 * 24 * time.Hour
	// listedFor is how long ListMetrics lists a metric after its last data point.
	listedFor = 14 * 24 * time.Hour
)

var (
	cwStats = []string{"SampleCount", "Average", "Sum", "Minimum", "Maximum"}
	cwUnits = []string{"Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes", "Gigabytes", "Terabytes",
		"Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count", "Bytes/Second", "Kilobytes/Second",
		"Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second", "Kilobits/Second", "Megabits/Second",
		"Gigabits/Second", "Terabits/Second", "Count/Second", "None"}
	metricIDPattern = regexp.MustCompile(`^[a-z][a-zA-Z0-9_]*$`)
)

const (
	maxQueries        = 500
	defaultDatapoints = 100800
	maxStatsPoints    = 1440
	listPage          = 500
)

// validation is GetMetricData's refusal: ValidationError, HTTP 400, the code CloudWatch
// answers it with (seen in clients' reports, e.g. "ValidationError: The parameter
// StartTime must not equal parameter EndTime."; its model names no error for these).
// GetMetricStatistics answers the same faults InvalidParameterValue, as its model says.
// The words of the messages other than those quoted are UNCONFIRMED.
func validation(format string, args ...any) *cwError {
	return cwErrf(http.StatusBadRequest, "ValidationError", format, args...)
}

func invalidValue(format string, args ...any) *cwError {
	return cwErrf(http.StatusBadRequest, "InvalidParameterValue", format, args...)
}

func missing(name string) *cwError {
	return cwErrf(http.StatusBadRequest, "MissingParameter", "The parameter %s is required.", name)
}

type dim struct{ name, value string }

type metricRef struct {
	namespace, name string
	dims            []dim
}

// readDims reads a list of dimensions; a filter's value may be left out.
func readDims(p params, member string, filter bool, errf func(string, ...any) *cwError) ([]dim, *cwError) {
	vs, at, e := p.list(member)
	if e != nil {
		return nil, e
	}
	if limit := map[bool]int{false: 30, true: 10}[filter]; len(vs) > limit {
		return nil, errf("The collection %s must not have a size greater than %d.", p.name(member), limit)
	}
	var out []dim
	for i, v := range vs {
		d, e := p.elem(v, at(i))
		if e != nil {
			return nil, e
		}
		if e := d.only("Name", "Value"); e != nil {
			return nil, e
		}
		name, e := d.str("Name")
		if e != nil {
			return nil, e
		}
		value, e := d.str("Value")
		if e != nil {
			return nil, e
		}
		if name == "" {
			return nil, errf("The parameter %s is required.", d.name("Name"))
		}
		if value == "" && !filter {
			return nil, errf("The parameter %s is required.", d.name("Value"))
		}
		out = append(out, dim{name, value})
	}
	return out, nil
}

func readUnit(p params, errf func(string, ...any) *cwError) (string, *cwError) {
	u, e := p.str("Unit")
	if e != nil || u == "" {
		return "", e
	}
	if !slices.Contains(cwUnits, u) {
		return "", errf("The parameter %s must be a value in the set [ %s ].", p.name("Unit"), strings.Join(cwUnits, ", "))
	}
	return u, nil
}

// checkPeriod is CloudWatch's rule for a period: 1, 5, 10, 20, 30 (high resolution) or a
// multiple of 60 seconds.
func checkPeriod(p int64, name string, errf func(string, ...any) *cwError) *cwError {
	switch {
	case p < 1:
		return errf("The parameter %s must be greater than 0.", name)
	case p%60 != 0 && !slices.Contains([]int64{1, 5, 10, 20, 30}, p):
		return errf("The parameter %s must be a multiple of 60.", name)
	}
	return nil
}

// readTimes reads StartTime and EndTime by CloudWatch's rule for them.
func readTimes(in params, errf func(string, ...any) *cwError) (start, end time.Time, e *cwError) {
	if start, _, e = in.time("StartTime"); e != nil {
		return
	}
	if end, _, e = in.time("EndTime"); e != nil {
		return
	}
	switch {
	case start.Equal(end):
		e = errf("The parameter StartTime must not equal parameter EndTime.")
	case start.After(end):
		e = errf("The parameter StartTime must be less than the parameter EndTime.")
	}
	return
}

// roundStart is StartTime as CloudWatch rounds it down: to the minute when less than 15
// days ago, to 5 minutes up to 63 days, to the hour beyond.
func roundStart(start, now time.Time) time.Time {
	switch age := now.Sub(start); {
	case age > retainFiveMinute:
		return start.Truncate(time.Hour)
	case age > retainMinute:
		return start.Truncate(5 * time.Minute)
	}
	return start.Truncate(time.Minute)
}

// periodServes reports whether data is returned at period for a StartTime so long ago:
// a multiple of 60 seconds beyond 3 hours, of 300 beyond 15 days, of 3600 beyond 63 days;
// otherwise CloudWatch returns no data points.
func periodServes(start, now time.Time, period int64) bool {
	switch age := now.Sub(start); {
	case age > retainFiveMinute:
		return period%3600 == 0
	case age > retainMinute:
		return period%300 == 0
	case age > 3*time.Hour:
		return period%60 == 0
	}
	return true
}

// aggregate is a metric's samples in one period.
type aggregate struct {
	at            time.Time
	n             int
	sum, min, max float64
}

func (a aggregate) stat(name string) float64 {
	switch name {
	case "SampleCount":
		return float64(a.n)
	case "Sum":
		return a.sum
	case "Minimum":
		return a.min
	case "Maximum":
		return a.max
	}
	return a.sum / float64(a.n)
}

// periods are the data points of a metric in [start, end) at period, oldest first: none
// for a metric that is not published (another namespace, name or dimension set, a
// reservation the region does not have) or a unit it is not published in.
func (c *cwCall) periods(m metricRef, unit string, start, end time.Time, period int64) []aggregate {
	r, ok := c.series(m)
	if !ok || (unit != "" && unit != cwMetricUnits[m.name]) {
		return nil
	}
	start = roundStart(start, c.now)
	if !periodServes(start, c.now, period) {
		return nil
	}
	p := time.Duration(period) * time.Second
	var out []aggregate
	for _, s := range c.samples(r, m.name, maxTime(start, c.now.Add(-retainHour)), end) {
		at := start.Add(s.at.Sub(start) / p * p)
		if n := len(out); n > 0 && out[n-1].at.Equal(at) {
			a := &out[n-1]
			a.n, a.sum, a.min, a.max = a.n+1, a.sum+s.v, min(a.min, s.v), max(a.max, s.v)
			continue
		}
		out = append(out, aggregate{at: at, n: 1, sum: s.v, min: s.v, max: s.v})
	}
	return out
}

// series is the reservation a metric is of; ok is false when the emulator publishes no
// such metric.
func (c *cwCall) series(m metricRef) (Reservation, bool) {
	if m.namespace != cwNamespaceCR || cwMetricUnits[m.name] == "" || len(m.dims) != 1 || m.dims[0].name != dimReservationID {
		return Reservation{}, false
	}
	return c.rs.Reservation(m.dims[0].value, c.now)
}

// mdQuery is one of GetMetricData's queries.
type mdQuery struct {
	id, label    string
	metric       metricRef
	period       int64
	stat, unit   string
	returnData   bool
	otherAccount bool
}

func getMetricData(c *cwCall) (cwObj, *cwError) {
	in := c.in
	if e := in.only("MetricDataQueries", "StartTime", "EndTime", "NextToken", "ScanBy", "MaxDatapoints", "LabelOptions"); e != nil {
		return nil, e
	}
	for _, req := range []string{"MetricDataQueries", "StartTime", "EndTime"} {
		if !in.has(req) {
			return nil, validation("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", lowerFirst(req))
		}
	}
	raw, at, e := in.list("MetricDataQueries")
	if e != nil {
		return nil, e
	}
	if len(raw) > maxQueries {
		return nil, validation("The collection MetricDataQueries must not have a size greater than %d.", maxQueries)
	}
	start, end, e := readTimes(in, validation)
	if e != nil {
		return nil, e
	}
	scan, e := in.str("ScanBy")
	if e != nil {
		return nil, e
	}
	if scan != "" && scan != "TimestampDescending" && scan != "TimestampAscending" {
		return nil, validation("1 validation error detected: Value '%s' at 'scanBy' failed to satisfy constraint: Member must satisfy enum value set: [TimestampDescending, TimestampAscending]", scan)
	}
	limit, given, e := in.int("MaxDatapoints")
	if e != nil {
		return nil, e
	}
	if !given {
		limit = defaultDatapoints
	} else if limit < 1 {
		return nil, validation("The parameter MaxDatapoints must be greater than 0.")
	}
	if lo, ok, e := in.obj("LabelOptions"); e != nil {
		return nil, e
	} else if ok {
		if e := lo.only("Timezone"); e != nil {
			return nil, e
		}
		if tz, e := lo.str("Timezone"); e != nil {
			return nil, e
		} else if tz != "" && !regexp.MustCompile(`^[+-][0-9]{4}$`).MatchString(tz) {
			return nil, validation("The parameter LabelOptions.Timezone must be + or - followed by four digits, such as +0130.")
		}
	}
	qs := make([]mdQuery, len(raw))
	seen := map[string]bool{}
	for i, v := range raw {
		q, e := readQuery(in, v, at(i), c.core.Account())
		if e != nil {
			return nil, e
		}
		if seen[q.id] {
			return nil, validation("The values for parameter id in MetricDataQueries are not unique.")
		}
		seen[q.id] = true
		qs[i] = q
	}
	token, e := in.str("NextToken")
	if e != nil {
		return nil, e
	}
	key := requestKey(start, end, scan, qs)
	offset := 0
	if token != "" {
		if offset, e = readToken(token, key); e != nil {
			return nil, e
		}
	}
	if e := c.denied(); e != nil {
		return nil, e
	}
	var results []mdResult
	for _, q := range qs {
		if !q.returnData {
			continue
		}
		res := mdResult{id: q.id, label: q.label}
		if !q.otherAccount {
			res.points = c.periods(q.metric, q.unit, start, end, q.period)
		}
		if scan != "TimestampAscending" {
			slices.Reverse(res.points)
		}
		res.stat = q.stat
		results = append(results, res)
	}
	page, next := pageResults(results, offset, int(limit))
	out := cwObj{{"MetricDataResults", page}}
	if next >= 0 {
		out = append(out, cwKV{"NextToken", writeToken(next, key)})
	}
	return append(out, cwKV{"Messages", []any{}}), nil
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// readQuery reads one of GetMetricData's queries. Metric math and Metrics Insights
// (Expression) are refused: the emulator computes none.
func readQuery(in params, v any, name, account string) (mdQuery, *cwError) {
	p, e := in.elem(v, name)
	if e != nil {
		return mdQuery{}, e
	}
	if e := p.only("Id", "MetricStat", "Expression", "Label", "ReturnData", "Period", "AccountId"); e != nil {
		return mdQuery{}, e
	}
	q := mdQuery{returnData: true}
	if q.id, e = p.str("Id"); e != nil {
		return q, e
	}
	if q.id == "" {
		return q, validation("The parameter %s is required.", p.name("Id"))
	}
	if len(q.id) > 255 || !metricIDPattern.MatchString(q.id) {
		return q, validation("The value %s for parameter %s is not valid: an id begins with a lowercase letter and holds only letters, numbers and underscores.", q.id, p.name("Id"))
	}
	if q.label, e = p.str("Label"); e != nil {
		return q, e
	}
	if rd, ok, e := p.boolean("ReturnData"); e != nil {
		return q, e
	} else if ok {
		q.returnData = rd
	}
	if acct, e := p.str("AccountId"); e != nil {
		return q, e
	} else if acct != "" && acct != account {
		q.otherAccount = true // this account sees no other's metrics: no data
	}
	expr, e := p.str("Expression")
	if e != nil {
		return q, e
	}
	stat, has, e := p.obj("MetricStat")
	switch {
	case e != nil:
		return q, e
	case has && expr != "":
		return q, validation("The parameters %s and %s cannot be given together.", p.name("MetricStat"), p.name("Expression"))
	case expr != "":
		return q, validation("%s: metric math and Metrics Insights queries are not computed by this emulator; give a MetricStat.", p.name("Expression"))
	case !has:
		return q, validation("The parameter %s must contain either a MetricStat or an Expression.", name)
	}
	if e := stat.only("Metric", "Period", "Stat", "Unit"); e != nil {
		return q, e
	}
	m, ok, e := stat.obj("Metric")
	if e != nil {
		return q, e
	}
	if !ok {
		return q, validation("The parameter %s is required.", stat.name("Metric"))
	}
	if e := m.only("Namespace", "MetricName", "Dimensions"); e != nil {
		return q, e
	}
	if q.metric, e = readMetric(m, validation); e != nil {
		return q, e
	}
	period, ok, e := stat.int("Period")
	if e != nil {
		return q, e
	}
	if !ok {
		return q, validation("The parameter %s is required.", stat.name("Period"))
	}
	if e := checkPeriod(period, stat.name("Period"), validation); e != nil {
		return q, e
	}
	q.period = period
	if q.stat, e = stat.str("Stat"); e != nil {
		return q, e
	}
	if q.stat == "" {
		return q, validation("The parameter %s is required.", stat.name("Stat"))
	}
	if !slices.Contains(cwStats, q.stat) {
		return q, validation("The value %s for parameter %s is not computed by this emulator, which computes %s.", q.stat, stat.name("Stat"), strings.Join(cwStats, ", "))
	}
	if q.unit, e = readUnit(stat, validation); e != nil {
		return q, e
	}
	if q.label == "" {
		q.label = q.metric.name
	}
	return q, nil
}

// readMetric reads a metric's members (of a Metric, or of GetMetricStatistics' input).
func readMetric(p params, errf func(string, ...any) *cwError) (metricRef, *cwError) {
	var m metricRef
	var e *cwError
	if m.namespace, e = p.str("Namespace"); e != nil {
		return m, e
	}
	if m.name, e = p.str("MetricName"); e != nil {
		return m, e
	}
	if m.name == "" {
		return m, errf("The parameter %s is required.", p.name("MetricName"))
	}
	if e := checkNamespace(m.namespace, p.name("Namespace"), errf); e != nil {
		return m, e
	}
	m.dims, e = readDims(p, "Dimensions", false, errf)
	return m, e
}

func checkNamespace(ns, name string, errf func(string, ...any) *cwError) *cwError {
	if len(ns) > 255 || strings.HasPrefix(ns, ":") {
		return errf("The parameter %s must be 1 to 255 characters and not begin with a colon.", name)
	}
	return nil
}

// mdResult is one query's data points, in the order they are returned.
type mdResult struct {
	id, label, stat string
	points          []aggregate
}

// pageResults is the page of results from data point offset (counted across the results
// in order), of at most limit data points, and where the next page starts (-1: none). A
// result split across pages is PartialData until its last page, as CloudWatch says.
func pageResults(results []mdResult, offset, limit int) ([]any, int) {
	var page []any
	pos, budget := 0, limit
	for i, r := range results {
		n := len(r.points)
		if pos+n < offset || (n > 0 && pos+n == offset) {
			pos += n
			continue
		}
		if budget == 0 {
			return page, pos + max(0, offset-pos)
		}
		from := max(0, offset-pos)
		to := min(n, from+budget)
		budget -= to - from
		ts, vs := make([]any, 0, to-from), make([]any, 0, to-from)
		for _, a := range r.points[from:to] {
			ts, vs = append(ts, a.at), append(vs, a.stat(r.stat))
		}
		status := "Complete"
		if to < n {
			status = "PartialData"
		}
		page = append(page, cwObj{{"Id", r.id}, {"Label", r.label}, {"Timestamps", ts}, {"Values", vs}, {"StatusCode", status}, {"Messages", []any{}}})
		if to < n {
			return page, pos + to
		}
		pos += n
		if budget == 0 && i < len(results)-1 {
			return page, pos
		}
	}
	return page, -1
}

// requestKey ties a NextToken to the request that made it.
func requestKey(start, end time.Time, scan string, qs []mdQuery) uint32 {
	h := fnv.New32a()
	fmt.Fprint(h, start.UnixNano(), end.UnixNano(), scan)
	for _, q := range qs {
		fmt.Fprint(h, q.id, q.metric, q.period, q.stat, q.unit, q.returnData)
	}
	return h.Sum32()
}

func writeToken(offset int, key uint32) string { return fmt.Sprintf("%x-%d", key, offset) }

func readToken(token string, key uint32) (int, *cwError) {
	k, o, ok := strings.Cut(token, "-")
	n, err := strconv.Atoi(o)
	if !ok || err != nil || n < 0 || k != fmt.Sprintf("%x", key) {
		return 0, cwErrf(http.StatusBadRequest, "InvalidNextToken", "The service couldn't process the next token: it belongs to no page of this request.")
	}
	return n, nil
}

func getMetricStatistics(c *cwCall) (cwObj, *cwError) {
	in := c.in
	if e := in.only("Namespace", "MetricName", "Dimensions", "StartTime", "EndTime", "Period", "Statistics", "ExtendedStatistics", "Unit"); e != nil {
		return nil, e
	}
	for _, req := range []string{"Namespace", "MetricName", "StartTime", "EndTime", "Period"} {
		if !in.has(req) {
			return nil, missing(req)
		}
	}
	m, e := readMetric(in, invalidValue)
	if e != nil {
		return nil, e
	}
	if m.namespace == "" {
		return nil, missing("Namespace")
	}
	start, end, e := readTimes(in, invalidValue)
	if e != nil {
		return nil, e
	}
	period, _, e := in.int("Period")
	if e != nil {
		return nil, e
	}
	if e := checkPeriod(period, "Period", invalidValue); e != nil {
		return nil, e
	}
	stats, e := in.strings("Statistics")
	if e != nil {
		return nil, e
	}
	ext, e := in.strings("ExtendedStatistics")
	if e != nil {
		return nil, e
	}
	if (len(stats) == 0) == (len(ext) == 0) {
		return nil, cwErrf(http.StatusBadRequest, "InvalidParameterCombination", "Must specify either Statistics or ExtendedStatistics, but not both.")
	}
	if len(ext) > 0 {
		return nil, invalidValue("The parameter ExtendedStatistics: percentile statistics are not computed by this emulator; give Statistics among %s.", strings.Join(cwStats, ", "))
	}
	if len(stats) > len(cwStats) {
		return nil, invalidValue("The collection Statistics must not have a size greater than %d.", len(cwStats))
	}
	for i, st := range stats {
		if !slices.Contains(cwStats, st) {
			return nil, invalidValue("The parameter Statistics.member.%d must be a value in the set [ %s ].", i+1, strings.Join(cwStats, ", "))
		}
	}
	unit, e := readUnit(in, invalidValue)
	if e != nil {
		return nil, e
	}
	p := time.Duration(period) * time.Second
	if n := (end.Sub(roundStart(start, c.now)) + p - 1) / p; n > maxStatsPoints {
		return nil, cwErrf(http.StatusBadRequest, "InvalidParameterCombination",
			"You have requested up to %s datapoints, which exceeds the limit of 1,440. You may reduce the datapoints requested by increasing Period, or decreasing the time range.", thousands(int64(n)))
	}
	if e := c.denied(); e != nil {
		return nil, e
	}
	points := []any{}
	for _, a := range c.periods(m, unit, start, end, period) {
		dp := cwObj{{"Timestamp", a.at}}
		for _, st := range cwStats {
			if slices.Contains(stats, st) {
				dp = append(dp, cwKV{st, a.stat(st)})
			}
		}
		points = append(points, append(dp, cwKV{"Unit", cwMetricUnits[m.name]}))
	}
	return cwObj{{"Label", m.name}, {"Datapoints", points}}, nil
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func listMetrics(c *cwCall) (cwObj, *cwError) {
	in := c.in
	if e := in.only("Namespace", "MetricName", "Dimensions", "NextToken", "RecentlyActive", "IncludeLinkedAccounts", "OwningAccount"); e != nil {
		return nil, e
	}
	ns, e := in.str("Namespace")
	if e != nil {
		return nil, e
	}
	if e := checkNamespace(ns, "Namespace", invalidValue); e != nil {
		return nil, e
	}
	name, e := in.str("MetricName")
	if e != nil {
		return nil, e
	}
	filters, e := readDims(in, "Dimensions", true, invalidValue)
	if e != nil {
		return nil, e
	}
	recent, e := in.str("RecentlyActive")
	if e != nil {
		return nil, e
	}
	since := c.now.Add(-listedFor)
	switch recent {
	case "":
	case "PT3H":
		since = c.now.Add(-3 * time.Hour)
	default:
		return nil, invalidValue("The parameter RecentlyActive must be PT3H.")
	}
	linked, _, e := in.boolean("IncludeLinkedAccounts")
	if e != nil {
		return nil, e
	}
	owner, e := in.str("OwningAccount")
	if e != nil {
		return nil, e
	}
	token, e := in.str("NextToken")
	if e != nil {
		return nil, e
	}
	if e := c.denied(); e != nil {
		return nil, e
	}
	var all []any
	if (ns == "" || ns == cwNamespaceCR) && (owner == "" || owner == c.core.Account()) {
		rsv := c.rs.Reservations(c.now)
		sort.Slice(rsv, func(i, j int) bool { return rsv[i].ID < rsv[j].ID })
		names := []string{metricAvailable, metricUtilization, metricTotal, metricUsed}
		for _, r := range rsv {
			if !r.Publishes || r.To.Sub(r.From) < sampleEvery || !r.To.After(since) {
				continue
			}
			if !dimsMatch(filters, r.ID) {
				continue
			}
			for _, n := range names {
				if name == "" || name == n {
					all = append(all, cwObj{{"Namespace", cwNamespaceCR}, {"MetricName", n},
						{"Dimensions", []any{cwObj{{"Name", dimReservationID}, {"Value", r.ID}}}}})
				}
			}
		}
	}
	key := uint32(len(all))
	offset := 0
	if token != "" {
		if offset, e = readToken(token, key); e != nil {
			return nil, e
		}
	}
	page := all[min(offset, len(all)):min(offset+listPage, len(all))]
	out := cwObj{{"Metrics", append([]any{}, page...)}}
	if offset+listPage < len(all) {
		out = append(out, cwKV{"NextToken", writeToken(offset+listPage, key)})
	}
	if linked {
		owners := make([]any, len(page))
		for i := range owners {
			owners[i] = c.core.Account()
		}
		out = append(out, cwKV{"OwningAccounts", owners})
	}
	return out, nil
}

// dimsMatch reports whether a reservation's one dimension passes ListMetrics' filters:
// each names a dimension the metric has, with its value when given.
func dimsMatch(filters []dim, id string) bool {
	for _, f := range filters {
		if f.name != dimReservationID || (f.value != "" && f.value != id) {
			return false
		}
	}
	return true
}
