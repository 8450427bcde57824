package ec2sim

import (
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/cloudwatchsim/cwsimtest"
)

// useScenario is a block of 4 bought and used on the emulator's clock: 3 instances from
// 10 minutes after its start, one of them terminated at 2h17m (it shuts down for a
// minute more), another launched at 5h, and the clock at 9h. want is its instance-seconds
// in [start, start+9h).
type useScenario struct {
	sim   *Server
	url   string
	ec2   *ec2.Client
	id    string
	start time.Time
	want  float64
}

func newUseScenario(t *testing.T, opts Options) useScenario {
	t.Helper()
	opts.Speed = 1e-9 // the clock moves only when told, so the hours are exact
	s, u := newTestServer(t, opts)
	return runUseScenario(t, s, u)
}

func runUseScenario(t *testing.T, s *Server, u string) useScenario {
	t.Helper()
	c := ec2Client(u, "us-east-1")
	o, cr := buy(t, c, p5Search(4, 48))
	id, start := aws.ToString(cr.CapacityReservationId), aws.ToTime(o.StartDate)
	subnet := subnetIn(t, c, aws.ToString(o.AvailabilityZone))
	s.SetTime(start.Add(10 * time.Minute))
	first, err := c.RunInstances(ctx, launchInput(id, subnet, 3))
	if err != nil {
		t.Fatal(err)
	}
	s.SetTime(start.Add(2*time.Hour + 17*time.Minute))
	if _, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{aws.ToString(first.Instances[0].InstanceId)}}); err != nil {
		t.Fatal(err)
	}
	s.SetTime(start.Add(5 * time.Hour))
	if _, err := c.RunInstances(ctx, launchInput(id, subnet, 1)); err != nil {
		t.Fatal(err)
	}
	s.SetTime(start.Add(9 * time.Hour))
	h := time.Hour
	want := 2*(9*h-10*time.Minute) + (2*h + 18*time.Minute - 10*time.Minute) + 4*h
	return useScenario{sim: s, url: u, ec2: c, id: id, start: start, want: want.Seconds()}
}

func resultByID(t *testing.T, out *cloudwatch.GetMetricDataOutput, id string) cwtypes.MetricDataResult {
	t.Helper()
	for _, r := range out.MetricDataResults {
		if aws.ToString(r.Id) == id {
			return r
		}
	}
	t.Fatalf("no result %s in %+v", id, out.MetricDataResults)
	return cwtypes.MetricDataResult{}
}

// The average used count, hourly or every five minutes, times the period adds up to the
// instance-hours launched exactly; the other metrics follow from it, and
// GetMetricStatistics agrees with GetMetricData.
func TestCloudWatchUseAddsUpToTheInstanceHours(t *testing.T) {
	sc := newUseScenario(t, Options{})
	cw := cwsimtest.Client(sc.url, "us-east-1")
	out, err := cw.GetMetricData(ctx, &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(9 * time.Hour)),
		MetricDataQueries: []cwtypes.MetricDataQuery{
			cwsimtest.Query("hourly", "UsedInstanceCount", sc.id, 3600, "Average"),
			cwsimtest.Query("fivemin", "UsedInstanceCount", sc.id, 300, "Average"),
			cwsimtest.Query("count", "UsedInstanceCount", sc.id, 3600, "SampleCount"),
			cwsimtest.Query("total", "TotalInstanceCount", sc.id, 3600, "Average"),
			cwsimtest.Query("avail", "AvailableInstanceCount", sc.id, 3600, "Average"),
			cwsimtest.Query("util", "InstanceUtilization", sc.id, 3600, "Maximum"),
			cwsimtest.Query("peak", "UsedInstanceCount", sc.id, 3600, "Maximum"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	hourly, five := resultByID(t, out, "hourly"), resultByID(t, out, "fivemin")
	if len(hourly.Values) != 9 || len(five.Values) != 9*12 || hourly.StatusCode != cwtypes.StatusCodeComplete {
		t.Fatalf("%d hourly and %d five-minute points (%s), want 9 and 108", len(hourly.Values), len(five.Values), hourly.StatusCode)
	}
	if got := cwsimtest.Weighted(hourly, 3600); !cwsimtest.Near(got, sc.want) {
		t.Errorf("Σ hourly average × 3600 = %v instance-seconds, want %v", got, sc.want)
	}
	if got := cwsimtest.Weighted(five, 300); !cwsimtest.Near(got, sc.want) {
		t.Errorf("Σ five-minute average × 300 = %v instance-seconds, want %v", got, sc.want)
	}
	// Newest first, as ScanBy's default says, each an hour from the start.
	for i, ts := range hourly.Timestamps {
		if want := sc.start.Add(time.Duration(8-i) * time.Hour); !ts.Equal(want) {
			t.Errorf("timestamp %d = %s, want %s", i, ts, want)
		}
	}
	total, avail, util := resultByID(t, out, "total"), resultByID(t, out, "avail"), resultByID(t, out, "util")
	for i, v := range hourly.Values {
		if total.Values[i] != 4 || !cwsimtest.Near(avail.Values[i], 4-v) || resultByID(t, out, "count").Values[i] != 12 {
			t.Errorf("hour %d: used %v, total %v, available %v", i, v, total.Values[i], avail.Values[i])
		}
	}
	// The hour from 2h: three instances, then two after 2h17m+1m; its peak is 3, 75%.
	if i := 6; resultByID(t, out, "peak").Values[i] != 3 || util.Values[i] != 75 || !cwsimtest.Near(hourly.Values[i], (3*18+2*42)/60.0) {
		t.Errorf("hour 2: peak %v, utilization %v%%, average %v", resultByID(t, out, "peak").Values[i], util.Values[i], hourly.Values[i])
	}

	st, err := cw.GetMetricStatistics(ctx, &cloudwatch.GetMetricStatisticsInput{
		Namespace: aws.String("AWS/EC2CapacityReservations"), MetricName: aws.String("UsedInstanceCount"),
		Dimensions: cwsimtest.Metric("", sc.id).Dimensions, StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(9 * time.Hour)),
		Period: aws.Int32(3600), Statistics: []cwtypes.Statistic{cwtypes.StatisticAverage, cwtypes.StatisticSum, cwtypes.StatisticSampleCount},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Datapoints) != 9 || aws.ToString(st.Label) != "UsedInstanceCount" {
		t.Fatalf("GetMetricStatistics: %d points, label %q", len(st.Datapoints), aws.ToString(st.Label))
	}
	var sum float64
	for _, dp := range st.Datapoints {
		i := 8 - int(aws.ToTime(dp.Timestamp).Sub(sc.start)/time.Hour)
		if !cwsimtest.Near(aws.ToFloat64(dp.Average), hourly.Values[i]) || aws.ToFloat64(dp.SampleCount) != 12 || dp.Unit != cwtypes.StandardUnitCount ||
			!cwsimtest.Near(aws.ToFloat64(dp.Sum), 12*hourly.Values[i]) {
			t.Errorf("datapoint %+v disagrees with GetMetricData's %v", dp, hourly.Values[i])
		}
		sum += aws.ToFloat64(dp.Average) * 3600
	}
	if !cwsimtest.Near(sum, sc.want) {
		t.Errorf("GetMetricStatistics: Σ average × 3600 = %v, want %v", sum, sc.want)
	}
}

// No data point comes from before the block started, or for a metric, unit or namespace
// that is not published: CloudWatch answers those with nothing, not an error.
func TestCloudWatchAnswersNothingWhereNothingIsKnown(t *testing.T) {
	sc := newUseScenario(t, Options{})
	cw := cwsimtest.Client(sc.url, "us-east-1")
	other := cwsimtest.Query("other", "UsedInstanceCount", sc.id, 3600, "Average")
	other.MetricStat.Metric.Namespace = aws.String("AWS/EC2")
	unit := cwsimtest.Query("unit", "UsedInstanceCount", sc.id, 3600, "Average")
	unit.MetricStat.Unit = cwtypes.StandardUnitPercent
	out, err := cw.GetMetricData(ctx, &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start.Add(-3 * time.Hour)), EndTime: aws.Time(sc.start.Add(time.Hour)),
		ScanBy: cwtypes.ScanByTimestampAscending,
		MetricDataQueries: []cwtypes.MetricDataQuery{
			cwsimtest.Query("used", "UsedInstanceCount", sc.id, 3600, "Average"), other, unit,
			cwsimtest.Query("nosuch", "UsedInstanceCount", "cr-0000000000000000a", 3600, "Average"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	used := resultByID(t, out, "used")
	if len(used.Timestamps) != 1 || !used.Timestamps[0].Equal(sc.start) || !cwsimtest.Near(used.Values[0], 3*50/60.0) {
		t.Errorf("the hours before the start have data: %v %v", used.Timestamps, used.Values)
	}
	for _, id := range []string{"other", "unit", "nosuch"} {
		if r := resultByID(t, out, id); len(r.Values) != 0 || r.StatusCode != cwtypes.StatusCodeComplete {
			t.Errorf("%s: %v (%s)", id, r.Values, r.StatusCode)
		}
	}
	// A reservation bought and not started has published nothing.
	_, cr := buy(t, sc.ec2, p5Search(1, 24))
	out, err = cw.GetMetricData(ctx, &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(30 * 24 * time.Hour)),
		MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("later", "TotalInstanceCount", aws.ToString(cr.CapacityReservationId), 3600, "Average")},
	})
	if err != nil || len(out.MetricDataResults) != 1 || len(out.MetricDataResults[0].Values) != 0 {
		t.Errorf("a scheduled block's metrics: %+v, %v", out, err)
	}
}

// The block's metrics stop at its end, extensions included: TotalInstanceCount is
// published only while it is active.
func TestCloudWatchFollowsTheBlocksEndAndExtensions(t *testing.T) {
	sc := newUseScenario(t, Options{})
	cw := cwsimtest.Client(sc.url, "us-east-1")
	offs := extensionOfferings(t, sc.ec2, sc.id, 24)
	if _, err := sc.ec2.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: offs[0].CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(sc.id)}); err != nil {
		t.Fatal(err)
	}
	sc.sim.SetTime(sc.start.Add(100 * time.Hour)) // past the 48 hours and the 24 added
	out, err := cw.GetMetricData(ctx, &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(100 * time.Hour)),
		MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("total", "TotalInstanceCount", sc.id, 3600, "Average"), cwsimtest.Query("used", "UsedInstanceCount", sc.id, 3600, "Average")},
	})
	if err != nil {
		t.Fatal(err)
	}
	total, used := resultByID(t, out, "total"), resultByID(t, out, "used")
	if len(total.Values) != 72 || !total.Timestamps[0].Equal(sc.start.Add(71*time.Hour)) {
		t.Fatalf("TotalInstanceCount for %d hours, the last at %v; want the 72 of the extended block", len(total.Values), total.Timestamps[0])
	}
	// The instances left running were terminated 30 minutes before the extended end, and
	// took a minute to shut down.
	h := time.Hour
	end := sc.start.Add(72 * h)
	want := 2*(end.Sub(sc.start.Add(10*time.Minute))-29*time.Minute) + (2*h + 8*time.Minute) + (end.Sub(sc.start.Add(5*h)) - 29*time.Minute)
	if got := cwsimtest.Weighted(used, 3600); !cwsimtest.Near(got, want.Seconds()) {
		t.Errorf("Σ used = %v instance-seconds, want %v", got, want.Seconds())
	}
}

// The use of a block stays in the state file: a week later, after a restart, the metrics
// of its hours answer as before, though DescribeInstances no longer shows its instances.
func TestCloudWatchHistorySurvivesTheStateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	s1, err := New(Options{Seed: 42, Start: testStart, StateFile: file, Speed: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	ts1 := httptest.NewServer(s1)
	sc := runUseScenario(t, s1, ts1.URL)
	ts1.Close()

	later := sc.start.Add(9*time.Hour + 7*24*time.Hour)
	s2, err := New(Options{Seed: 42, Start: later, StateFile: file, Speed: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(s2)
	defer ts2.Close()
	if n := len(instanceStates(t, ec2Client(ts2.URL, "us-east-1"), sc.id)); n != 0 {
		t.Fatalf("DescribeInstances still shows %d instances a week later", n)
	}
	out, err := cwsimtest.Client(ts2.URL, "us-east-1").GetMetricData(ctx, &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(9 * time.Hour)),
		MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("used", "UsedInstanceCount", sc.id, 3600, "Average")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := cwsimtest.Weighted(resultByID(t, out, "used"), 3600); !cwsimtest.Near(got, sc.want) {
		t.Errorf("after the restart: %v instance-seconds, want %v", got, sc.want)
	}
}

// down=monitoring:REGION takes CloudWatch of one region down and leaves EC2 there up; the
// deny fault refuses an operation in CloudWatch's words.
func TestCloudWatchFaults(t *testing.T) {
	sc := newUseScenario(t, Options{})
	sc.sim.SetFaults(Faults{Down: []string{"monitoring:us-east-1"}})
	in := &cloudwatch.GetMetricDataInput{StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)),
		MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("used", "UsedInstanceCount", sc.id, 3600, "Average")}}
	_, err := cwsimtest.Client(sc.url, "us-east-1").GetMetricData(ctx, in)
	wantCode(t, err, "ServiceUnavailable")
	if _, err := sc.ec2.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{}); err != nil {
		t.Errorf("EC2 went down with CloudWatch: %v", err)
	}
	if _, err := cwsimtest.Client(sc.url, "us-east-2").GetMetricData(ctx, in); err != nil {
		t.Errorf("CloudWatch of another region: %v", err)
	}
	sc.sim.SetFaults(Faults{Deny: []string{"GetMetricData"}})
	_, err = cwsimtest.Client(sc.url, "us-east-1").GetMetricData(ctx, in)
	wantCode(t, err, "AccessDenied")
}
