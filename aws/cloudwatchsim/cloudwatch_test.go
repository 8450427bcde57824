package cloudwatchsim_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/cloudwatchsim"
	"github.com/gpublock/gpublock/aws/cloudwatchsim/cwsimtest"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/aws/simcore/simcoretest"
)

var ctx = context.Background()

// span is one instance's time in a reservation.
type span struct{ from, to time.Duration }

// block is a Source of one block of 4 for 48 hours in us-east-1, used as aws/ec2sim's
// tests use theirs: 3 instances from 10 minutes after its start, one of them terminated
// at 2h17m (it shuts down for a minute more), another launched at 5h; the others run
// until 30 minutes before the end (and a minute to shut down).
type block struct {
	id    string
	start time.Time
	used  []span
}

func (b block) Region(name string) cloudwatchsim.Region {
	if name != "us-east-1" {
		return block{}
	}
	return b
}

func (b block) Reservations(now time.Time) []cloudwatchsim.Reservation {
	if b.id == "" {
		return nil
	}
	r, _ := b.Reservation(b.id, now)
	return []cloudwatchsim.Reservation{r}
}

func (b block) Reservation(id string, now time.Time) (cloudwatchsim.Reservation, bool) {
	if id != b.id || id == "" {
		return cloudwatchsim.Reservation{}, false
	}
	to := b.start.Add(48 * time.Hour)
	if now.Before(to) {
		to = now
	}
	return cloudwatchsim.Reservation{ID: id, Count: 4, From: b.start, To: to, Publishes: to.After(b.start)}, true
}

func (b block) Use(id string, now time.Time) func(from, to time.Time) float64 {
	return func(from, to time.Time) float64 {
		var in time.Duration
		for _, s := range b.used {
			a, z := b.start.Add(s.from), b.start.Add(s.to)
			if from.After(a) {
				a = from
			}
			if to.Before(z) {
				z = to
			}
			if z.After(a) {
				in += z.Sub(a)
			}
		}
		return float64(in) / float64(to.Sub(from))
	}
}

// useScenario is the block served by CloudWatch alone, the clock at 9h. want is its
// instance-seconds in [start, start+9h).
type useScenario struct {
	url   string
	id    string
	start time.Time
	want  float64
}

func newUseScenario(t *testing.T) useScenario {
	t.Helper()
	h, m := time.Hour, time.Minute
	b := block{id: "cr-0123456789abcdef0", start: time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC),
		used: []span{{10 * m, 48*h - 29*m}, {10 * m, 48*h - 29*m}, {10 * m, 2*h + 18*m}, {5 * h, 48*h - 29*m}}}
	core, err := simcore.New(simcore.Options{Start: b.start.Add(9 * h), Speed: 1e-9}, cloudwatchsim.Protocol(b))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(core)
	t.Cleanup(srv.Close)
	want := 2*(9*h-10*m) + (2*h + 18*m - 10*m) + 4*h
	return useScenario{url: srv.URL, id: b.id, start: b.start, want: want.Seconds()}
}

func wantCWCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != code {
		t.Errorf("want %s, got %v", code, err)
	}
}

// CloudWatch refuses what AWS refuses, in AWS's codes.
func TestCloudWatchRefusesWhatAWSRefuses(t *testing.T) {
	sc := newUseScenario(t)
	cw := cwsimtest.Client(sc.url, "us-east-1")
	get := func(mut func(*cloudwatch.GetMetricDataInput)) error {
		in := &cloudwatch.GetMetricDataInput{StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)),
			MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("used", "UsedInstanceCount", sc.id, 3600, "Average")}}
		mut(in)
		_, err := cw.GetMetricData(ctx, in)
		return err
	}
	wantCWCode(t, get(func(in *cloudwatch.GetMetricDataInput) { in.MetricDataQueries[0].MetricStat.Period = aws.Int32(90) }), "ValidationError")
	wantCWCode(t, get(func(in *cloudwatch.GetMetricDataInput) { in.StartTime, in.EndTime = in.EndTime, in.StartTime }), "ValidationError")
	err := get(func(in *cloudwatch.GetMetricDataInput) { in.EndTime = in.StartTime })
	if wantCWCode(t, err, "ValidationError"); err == nil || !strings.Contains(err.Error(), "StartTime must not equal parameter EndTime") {
		t.Errorf("equal times: %v", err)
	}
	wantCWCode(t, get(func(in *cloudwatch.GetMetricDataInput) { in.MetricDataQueries[0].Id = aws.String("Used") }), "ValidationError")
	wantCWCode(t, get(func(in *cloudwatch.GetMetricDataInput) {
		in.MetricDataQueries = append(in.MetricDataQueries, in.MetricDataQueries[0])
	}), "ValidationError")
	wantCWCode(t, get(func(in *cloudwatch.GetMetricDataInput) {
		for i := 1; i <= 500; i++ {
			in.MetricDataQueries = append(in.MetricDataQueries, cwsimtest.Query(fmt.Sprintf("q%d", i), "UsedInstanceCount", sc.id, 3600, "Average"))
		}
	}), "ValidationError")

	stats := func(mut func(*cloudwatch.GetMetricStatisticsInput)) error {
		in := &cloudwatch.GetMetricStatisticsInput{Namespace: aws.String("AWS/EC2CapacityReservations"), MetricName: aws.String("UsedInstanceCount"),
			Dimensions: cwsimtest.Metric("", sc.id).Dimensions, StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)),
			Period: aws.Int32(3600), Statistics: []cwtypes.Statistic{cwtypes.StatisticAverage}}
		mut(in)
		_, err := cw.GetMetricStatistics(ctx, in)
		return err
	}
	var bad *cwtypes.InvalidParameterValueException
	if err := stats(func(in *cloudwatch.GetMetricStatisticsInput) { in.Period = aws.Int32(90) }); !errors.As(err, &bad) || bad.ErrorCode() != "InvalidParameterValue" {
		t.Errorf("period 90: %v", err)
	}
	wantCWCode(t, stats(func(in *cloudwatch.GetMetricStatisticsInput) { in.StartTime, in.EndTime = in.EndTime, in.StartTime }), "InvalidParameterValue")
	wantCWCode(t, stats(func(in *cloudwatch.GetMetricStatisticsInput) {
		in.Period = aws.Int32(60)
		in.EndTime = aws.Time(sc.start.Add(25 * time.Hour))
	}), "InvalidParameterCombination")
	wantCWCode(t, stats(func(in *cloudwatch.GetMetricStatisticsInput) { in.Statistics = nil }), "InvalidParameterCombination")
	// An unknown namespace is no error: CloudWatch has no data for it.
	if st, err := cw.GetMetricStatistics(ctx, &cloudwatch.GetMetricStatisticsInput{Namespace: aws.String("Nobody/Publishes"), MetricName: aws.String("UsedInstanceCount"),
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)), Period: aws.Int32(3600), Statistics: []cwtypes.Statistic{cwtypes.StatisticSum}}); err != nil || len(st.Datapoints) != 0 {
		t.Errorf("unknown namespace: %+v, %v", st, err)
	}
}

// Many data points come in pages, in the SDK's paginator, and add up as one answer.
func TestCloudWatchPagesAddUp(t *testing.T) {
	sc := newUseScenario(t)
	p := cloudwatch.NewGetMetricDataPaginator(cwsimtest.Client(sc.url, "us-east-1"), &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(9 * time.Hour)), MaxDatapoints: aws.Int32(7),
		MetricDataQueries: []cwtypes.MetricDataQuery{cwsimtest.Query("a", "UsedInstanceCount", sc.id, 3600, "Average"),
			cwsimtest.Query("none", "UsedInstanceCount", "cr-0000000000000000a", 3600, "Average"), cwsimtest.Query("b", "UsedInstanceCount", sc.id, 300, "Average")},
	})
	sums, pages := map[string]float64{}, 0
	seen := map[string]bool{}
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range out.MetricDataResults {
			seen[aws.ToString(r.Id)] = true
			sums[aws.ToString(r.Id)] += cwsimtest.Weighted(r, map[string]float64{"a": 3600, "b": 300, "none": 0}[aws.ToString(r.Id)])
		}
	}
	if pages != (9+108+6)/7 || !seen["none"] || !cwsimtest.Near(sums["a"], sc.want) || !cwsimtest.Near(sums["b"], sc.want) {
		t.Errorf("%d pages, sums %v, want %v each", pages, sums, sc.want)
	}
}

// ListMetrics lists the four metrics of a block that published, under its one dimension.
func TestCloudWatchListsTheBlocksMetrics(t *testing.T) {
	sc := newUseScenario(t)
	out, err := cwsimtest.Client(sc.url, "us-east-1").ListMetrics(ctx, &cloudwatch.ListMetricsInput{Namespace: aws.String("AWS/EC2CapacityReservations"),
		Dimensions: []cwtypes.DimensionFilter{{Name: aws.String("CapacityReservationId"), Value: aws.String(sc.id)}}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range out.Metrics {
		names = append(names, aws.ToString(m.MetricName))
		if len(m.Dimensions) != 1 || aws.ToString(m.Dimensions[0].Value) != sc.id {
			t.Errorf("dimensions %+v", m.Dimensions)
		}
	}
	if strings.Join(names, ",") != "AvailableInstanceCount,InstanceUtilization,TotalInstanceCount,UsedInstanceCount" {
		t.Errorf("metrics %v", names)
	}
}

// Older clients speak the query protocol (XML answers) and awsJson1_0; both answer as
// the CBOR client does, errors included.
func TestCloudWatchQueryAndJSONProtocols(t *testing.T) {
	sc := newUseScenario(t)
	iso := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	form := url.Values{"Action": {"GetMetricData"}, "Version": {"2010-08-01"},
		"StartTime": {iso(sc.start)}, "EndTime": {iso(sc.start.Add(9 * time.Hour))}, "ScanBy": {"TimestampAscending"},
		"MetricDataQueries.member.1.Id":                                          {"used"},
		"MetricDataQueries.member.1.MetricStat.Metric.Namespace":                 {"AWS/EC2CapacityReservations"},
		"MetricDataQueries.member.1.MetricStat.Metric.MetricName":                {"UsedInstanceCount"},
		"MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name":  {"CapacityReservationId"},
		"MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Value": {sc.id},
		"MetricDataQueries.member.1.MetricStat.Period":                           {"3600"},
		"MetricDataQueries.member.1.MetricStat.Stat":                             {"Average"},
	}
	status, _, body := simcoretest.Post(t, sc.url, "monitoring", form.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
	if status != 200 || !strings.Contains(string(body), `<GetMetricDataResponse xmlns="http://monitoring.amazonaws.com/doc/2010-08-01/"><GetMetricDataResult><MetricDataResults><member><Id>used</Id>`) ||
		!strings.Contains(string(body), "<Timestamps><member>"+iso(sc.start)+"</member>") || !strings.Contains(string(body), "<StatusCode>Complete</StatusCode>") {
		t.Errorf("query answer %d: %s", status, body)
	}
	form.Set("MetricDataQueries.member.1.MetricStat.Period", "61")
	status, _, body = simcoretest.Post(t, sc.url, "monitoring", form.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if status != 400 || !strings.Contains(string(body), "<Type>Sender</Type><Code>ValidationError</Code>") {
		t.Errorf("query error %d: %s", status, body)
	}

	in := map[string]any{"StartTime": sc.start.Unix(), "EndTime": sc.start.Add(9 * time.Hour).Unix(),
		"MetricDataQueries": []any{map[string]any{"Id": "used", "MetricStat": map[string]any{"Period": 3600, "Stat": "Sum",
			"Metric": map[string]any{"Namespace": "AWS/EC2CapacityReservations", "MetricName": "UsedInstanceCount",
				"Dimensions": []any{map[string]any{"Name": "CapacityReservationId", "Value": sc.id}}}}}}}
	b, _ := json.Marshal(in)
	jsonHeader := map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "GraniteServiceVersion20100801.GetMetricData"}
	status, _, body = simcoretest.Post(t, sc.url, "monitoring", string(b), jsonHeader)
	var out struct {
		MetricDataResults []struct {
			Timestamps []float64
			Values     []float64
		}
	}
	if err := json.Unmarshal(body, &out); status != 200 || err != nil || len(out.MetricDataResults) != 1 {
		t.Fatalf("JSON answer %d: %s (%v)", status, body, err)
	}
	var sum float64
	for _, v := range out.MetricDataResults[0].Values {
		sum += v * 300 // a sum of five-minute averages
	}
	if !cwsimtest.Near(sum, sc.want) || out.MetricDataResults[0].Timestamps[0] != float64(sc.start.Add(8*time.Hour).Unix()) {
		t.Errorf("JSON: %v instance-seconds (want %v), timestamps %v", sum, sc.want, out.MetricDataResults[0].Timestamps)
	}
	in["EndTime"] = sc.start.Add(-time.Hour).Unix()
	b, _ = json.Marshal(in)
	status, hdr, body := simcoretest.Post(t, sc.url, "monitoring", string(b), jsonHeader)
	if status != 400 || hdr.Get("X-Amzn-Query-Error") != "ValidationError;Sender" || !strings.Contains(string(body), `"__type":"ValidationError"`) {
		t.Errorf("JSON error %d %v: %s", status, hdr, body)
	}
}

// The AWS CLI (botocore, which speaks CBOR to CloudWatch) reads the same use.
func TestCloudWatchThroughTheAWSCLI(t *testing.T) {
	sc := newUseScenario(t)
	queries, _ := json.Marshal([]any{map[string]any{"Id": "used", "MetricStat": map[string]any{"Period": 3600, "Stat": "Average",
		"Metric": map[string]any{"Namespace": "AWS/EC2CapacityReservations", "MetricName": "UsedInstanceCount",
			"Dimensions": []any{map[string]any{"Name": "CapacityReservationId", "Value": sc.id}}}}}})
	outb, err := simcoretest.AWSCLI(t, sc.url, "cloudwatch", "get-metric-data", "--metric-data-queries", string(queries),
		"--start-time", sc.start.Format(time.RFC3339), "--end-time", sc.start.Add(9*time.Hour).Format(time.RFC3339))
	if err != nil {
		t.Fatalf("aws cloudwatch get-metric-data: %v\n%s", err, outb)
	}
	var out struct {
		MetricDataResults []struct {
			Values     []float64
			StatusCode string
		}
	}
	if err := json.Unmarshal([]byte(outb), &out); err != nil || len(out.MetricDataResults) != 1 || out.MetricDataResults[0].StatusCode != "Complete" {
		t.Fatalf("CLI answer %s (%v)", outb, err)
	}
	var sum float64
	for _, v := range out.MetricDataResults[0].Values {
		sum += v * 3600
	}
	if !cwsimtest.Near(sum, sc.want) {
		t.Errorf("through the CLI: %v instance-seconds, want %v", sum, sc.want)
	}

	outb, err = simcoretest.AWSCLI(t, sc.url, "cloudwatch", "get-metric-statistics",
		"--namespace", "AWS/EC2CapacityReservations", "--metric-name", "UsedInstanceCount", "--period", "90", "--statistics", "Average",
		"--start-time", sc.start.Format(time.RFC3339), "--end-time", sc.start.Add(time.Hour).Format(time.RFC3339))
	if err == nil || !strings.Contains(outb, "InvalidParameterValue") {
		t.Errorf("the CLI's bad period: %v\n%s", err, outb)
	}
}
