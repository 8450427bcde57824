package reporting

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/model/report"
)

// The use of the reservations, as CloudWatch publishes it: the hourly average of
// UsedInstanceCount, times the hours of each hour that the reservation held. Hourly data
// points are kept 455 days (5-minute ones only 63 days), so a report may reach back 15
// months. A report whose bounds are not on the hour counts its first and last hour at
// that hour's average.
//
// What AWS documents, and what is assumed where it is silent:
//   - EC2 User Guide, "Monitor Capacity Reservations usage with CloudWatch metrics": Capacity
//     Reservations publish AWS/EC2CapacityReservations (UsedInstanceCount and others, by
//     CapacityReservationId) every five minutes. The Capacity Blocks pages do not say that
//     Capacity Blocks publish them; a block is a Capacity Reservation, so they are read,
//     and a block with none has unknown use, never zero.
//   - SageMaker Developer Guide, "Monitor capacity reservation usage with Amazon CloudWatch
//     metrics": training plans publish aws/sagemaker/CapacityReservations (UsedInstanceCount
//     and others) once the AWSServiceRoleForSageMakerCapacityReservation role exists, for
//     plans bought after. The page lists the dimensions (ReservationName among them) but not
//     which set each series is published under, nor whether ReservationName is the plan's
//     name; the plan's name alone is asked, and nothing found is unknown use.

const (
	usePeriod  = 3600
	maxQueries = 500
	// lateData is how long CloudWatch may take to publish a data point: an hour without one
	// that ended less than this before now is not yet a gap.
	lateData = time.Hour
)

// metric is the CloudWatch series of a reservation's use.
type metric struct {
	namespace string
	dims      []cwtypes.Dimension
	// none says why the use is unknown when the series has no data point.
	none string
}

func blockMetric(id string) *metric {
	return &metric{namespace: "AWS/EC2CapacityReservations",
		dims: []cwtypes.Dimension{{Name: aws.String("CapacityReservationId"), Value: aws.String(id)}},
		none: "CloudWatch has no use published for it (AWS documents these metrics for Capacity Reservations, not that Capacity Blocks publish them)"}
}

func planMetric(name string) *metric {
	return &metric{namespace: "aws/sagemaker/CapacityReservations",
		dims: []cwtypes.Dimension{{Name: aws.String("ReservationName"), Value: aws.String(name)}},
		none: "SageMaker publishes a training plan's use in CloudWatch (aws/sagemaker/CapacityReservations) only once its service-linked role exists, and only for plans bought after that; none is published for this one"}
}

// point is one hourly average.
type point struct {
	at time.Time
	v  float64
}

// readUse fills the use of every item inside [from, min(to, now)), one GetMetricData call
// (in batches of 500 queries, and its pages) per region, the regions at once. A region whose
// CloudWatch fails is a problem that names it; its reservations' use is unknown.
func readUse(ctx context.Context, c *awsapi.Client, items []*item, from, to, now time.Time) []string {
	until := to
	if now.Before(until) {
		until = now
	}
	byRegion := map[string][]*item{}
	for _, it := range items {
		switch {
		case it.reserved(from, until) <= 0:
			it.res.Use = report.Use{Known: true} // nothing reserved in the window up to now
		case it.metric == nil:
			it.res.Use = report.Use{Why: fmt.Sprintf("AWS no longer lists the %d reservations of this purchase, and the journal does not record which became which segment, so their use is not read", len(it.res.Group))}
		default:
			byRegion[it.res.Region] = append(byRegion[it.res.Region], it)
		}
	}
	regions := make([]string, 0, len(byRegion))
	for r := range byRegion {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	problems := make([][]string, len(regions))
	var wg sync.WaitGroup
	for i, region := range regions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			its := byRegion[region]
			points, failed, err := fetchUse(ctx, c.CloudWatch(region), its, from, until)
			if err != nil {
				problems[i] = append(problems[i], fmt.Sprintf("%s: the use of its reservations could not be read from CloudWatch: %s", region, c.ExplainError(err).String()))
				for _, it := range its {
					it.res.Use = report.Use{Why: "CloudWatch could not be read in " + region}
				}
				return
			}
			for k, it := range its {
				if why, ok := failed[k]; ok {
					it.res.Use = report.Use{Why: why}
					problems[i] = append(problems[i], fmt.Sprintf("%s (%s): %s", label(it), region, why))
					continue
				}
				if p := it.measure(points[k], from, until, now); p != "" {
					problems[i] = append(problems[i], p)
				}
			}
		}()
	}
	wg.Wait()
	return slices.Concat(problems...)
}

// fetchUse asks CloudWatch for the hourly average use of each item over the hours that
// hold [from, until): its points by the item's index, and why an item's query failed.
func fetchUse(ctx context.Context, cw *cloudwatch.Client, its []*item, from, until time.Time) (map[int][]point, map[int]string, error) {
	start, end := until, from
	for _, it := range its {
		first, last := it.span()
		start, end = minTime(start, maxTime(from, first)), maxTime(end, minTime(until, last))
	}
	start, end = start.Truncate(time.Hour), ceilHour(end)
	points, failed := map[int][]point{}, map[int]string{}
	for lo := 0; lo < len(its); lo += maxQueries {
		batch := its[lo:min(lo+maxQueries, len(its))]
		qs := make([]cwtypes.MetricDataQuery, len(batch))
		for k, it := range batch {
			qs[k] = cwtypes.MetricDataQuery{Id: aws.String(fmt.Sprintf("r%d", lo+k)), MetricStat: &cwtypes.MetricStat{
				Metric: &cwtypes.Metric{Namespace: aws.String(it.metric.namespace), MetricName: aws.String("UsedInstanceCount"), Dimensions: it.metric.dims},
				Period: aws.Int32(usePeriod), Stat: aws.String("Average")}}
		}
		p := cloudwatch.NewGetMetricDataPaginator(cw, &cloudwatch.GetMetricDataInput{MetricDataQueries: qs,
			StartTime: aws.Time(start), EndTime: aws.Time(end), ScanBy: cwtypes.ScanByTimestampAscending})
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				return nil, nil, err
			}
			for _, r := range out.MetricDataResults {
				var k int
				if _, err := fmt.Sscanf(aws.ToString(r.Id), "r%d", &k); err != nil {
					continue
				}
				if r.StatusCode == cwtypes.StatusCodeInternalError || r.StatusCode == cwtypes.StatusCodeForbidden {
					failed[k] = "CloudWatch answered " + string(r.StatusCode) + " for its use" + messages(r.Messages)
				}
				for n, ts := range r.Timestamps {
					if n < len(r.Values) {
						points[k] = append(points[k], point{ts.UTC(), r.Values[n]})
					}
				}
			}
		}
	}
	return points, failed, nil
}

func messages(ms []cwtypes.MessageData) string {
	var out string
	for _, m := range ms {
		out += ": " + aws.ToString(m.Value)
	}
	return out
}

// measure sets the item's use from its hourly points: each hour's average times the part
// of that hour the reservation held inside [from, until). An hour without a data point is
// neither used nor idle: its reserved hours are left out, and said when it is not merely
// late (it ended more than lateData before now).
func (it *item) measure(points []point, from, until, now time.Time) string {
	if len(points) == 0 {
		it.res.Use = report.Use{Why: it.metric.none}
		return ""
	}
	have := map[time.Time]bool{}
	use := report.Use{Known: true}
	for _, p := range points {
		a, b := maxTime(p.at, from), minTime(p.at.Add(time.Hour), until)
		if !b.After(a) || have[p.at] {
			continue
		}
		have[p.at] = true
		use.UsedHours += p.v * it.held(a, b).Hours()
		use.ReservedHours += it.reserved(a, b)
	}
	var gap float64
	first, last := it.span()
	for h := maxTime(from, first).Truncate(time.Hour); h.Before(minTime(until, last)); h = h.Add(time.Hour) {
		if !have[h] && !h.Add(time.Hour).After(now.Add(-lateData)) {
			gap += it.reserved(maxTime(h, from), minTime(h.Add(time.Hour), until))
		}
	}
	it.res.Use = use
	if gap <= 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s): CloudWatch has no use published for %.0f of its %.0f instance-hours reserved in the period; the report counts only the hours it has",
		label(it), it.res.Region, gap, use.ReservedHours+gap)
}

// reserved is the instance-hours the item reserved in [a, b).
func (it *item) reserved(a, b time.Time) float64 {
	var h float64
	for _, p := range it.parts {
		h += float64(p.count) * overlap(a, b, p.start, p.end).Hours()
	}
	return h
}

// held is how much of [a, b) some part of the item covers.
func (it *item) held(a, b time.Time) time.Duration {
	type span struct{ s, e time.Time }
	var spans []span
	for _, p := range it.parts {
		s, e := maxTime(a, p.start), minTime(b, p.end)
		if e.After(s) {
			spans = append(spans, span{s, e})
		}
	}
	slices.SortFunc(spans, func(x, y span) int { return x.s.Compare(y.s) })
	var d time.Duration
	var cur time.Time
	for _, sp := range spans {
		if sp.s.Before(cur) {
			sp.s = cur
		}
		if sp.e.After(sp.s) {
			d += sp.e.Sub(sp.s)
			cur = sp.e
		}
	}
	return d
}

// span is the item's first start and last end.
func (it *item) span() (time.Time, time.Time) {
	first, last := it.parts[0].start, it.parts[0].end
	for _, p := range it.parts[1:] {
		first, last = minTime(first, p.start), maxTime(last, p.end)
	}
	return first, last
}

func overlap(a, b, s, e time.Time) time.Duration {
	lo, hi := maxTime(a, s), minTime(b, e)
	if !hi.After(lo) {
		return 0
	}
	return hi.Sub(lo)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func ceilHour(t time.Time) time.Time {
	if f := t.Truncate(time.Hour); f.Before(t) {
		return f.Add(time.Hour)
	}
	return t
}

// label names a reservation in a problem: a plan's name, a block's id.
func label(it *item) string {
	if it.res.Name != "" {
		return it.res.Name
	}
	return it.res.ID
}
