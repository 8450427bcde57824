package cloudwatchsim_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/cloudwatchsim"
	"github.com/gpublock/gpublock/aws/sdkhttp"
	"github.com/gpublock/gpublock/aws/simcore"
)

var ctx = context.Background()

// cwClient is the real CloudWatch client (Smithy RPC v2 CBOR) pointed at the emulator.
func cwClient(url, region string) *cloudwatch.Client {
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
	return cloudwatch.NewFromConfig(aws.Config{Region: region, Credentials: creds}, func(o *cloudwatch.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
		o.HTTPClient = sdkhttp.PlainBodies(o.HTTPClient)
	})
}

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

func crMetric(name, id string) *cwtypes.Metric {
	return &cwtypes.Metric{Namespace: aws.String("AWS/EC2CapacityReservations"), MetricName: aws.String(name),
		Dimensions: []cwtypes.Dimension{{Name: aws.String("CapacityReservationId"), Value: aws.String(id)}}}
}

func mdq(id, metric, res string, period int32, stat string) cwtypes.MetricDataQuery {
	return cwtypes.MetricDataQuery{Id: aws.String(id), MetricStat: &cwtypes.MetricStat{Metric: crMetric(metric, res), Period: aws.Int32(period), Stat: aws.String(stat)}}
}

// weighted is Σ value × period over a result's data points, in the unit's seconds.
func weighted(r cwtypes.MetricDataResult, period float64) float64 {
	var sum float64
	for _, v := range r.Values {
		sum += v * period
	}
	return sum
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

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
	cw := cwClient(sc.url, "us-east-1")
	get := func(mut func(*cloudwatch.GetMetricDataInput)) error {
		in := &cloudwatch.GetMetricDataInput{StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)),
			MetricDataQueries: []cwtypes.MetricDataQuery{mdq("used", "UsedInstanceCount", sc.id, 3600, "Average")}}
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
			in.MetricDataQueries = append(in.MetricDataQueries, mdq(fmt.Sprintf("q%d", i), "UsedInstanceCount", sc.id, 3600, "Average"))
		}
	}), "ValidationError")

	stats := func(mut func(*cloudwatch.GetMetricStatisticsInput)) error {
		in := &cloudwatch.GetMetricStatisticsInput{Namespace: aws.String("AWS/EC2CapacityReservations"), MetricName: aws.String("UsedInstanceCount"),
			Dimensions: crMetric("", sc.id).Dimensions, StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(time.Hour)),
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
	p := cloudwatch.NewGetMetricDataPaginator(cwClient(sc.url, "us-east-1"), &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(sc.start), EndTime: aws.Time(sc.start.Add(9 * time.Hour)), MaxDatapoints: aws.Int32(7),
		MetricDataQueries: []cwtypes.MetricDataQuery{mdq("a", "UsedInstanceCount", sc.id, 3600, "Average"),
			mdq("none", "UsedInstanceCount", "cr-0000000000000000a", 3600, "Average"), mdq("b", "UsedInstanceCount", sc.id, 300, "Average")},
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
			sums[aws.ToString(r.Id)] += weighted(r, map[string]float64{"a": 3600, "b": 300, "none": 0}[aws.ToString(r.Id)])
		}
	}
	if pages != (9+108+6)/7 || !seen["none"] || !near(sums["a"], sc.want) || !near(sums["b"], sc.want) {
		t.Errorf("%d pages, sums %v, want %v each", pages, sums, sc.want)
	}
}

// ListMetrics lists the four metrics of a block that published, under its one dimension.
func TestCloudWatchListsTheBlocksMetrics(t *testing.T) {
	sc := newUseScenario(t)
	out, err := cwClient(sc.url, "us-east-1").ListMetrics(ctx, &cloudwatch.ListMetricsInput{Namespace: aws.String("AWS/EC2CapacityReservations"),
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

// signedPost sends a request signed (in scope only; the emulator checks no signature) for
// CloudWatch in us-east-1.
func signedPost(t *testing.T, u string, body string, header map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/us-east-1/monitoring/aws4_request, SignedHeaders=host, Signature=0")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
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
	status, _, body := signedPost(t, sc.url, form.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
	if status != 200 || !strings.Contains(string(body), `<GetMetricDataResponse xmlns="http://monitoring.amazonaws.com/doc/2010-08-01/"><GetMetricDataResult><MetricDataResults><member><Id>used</Id>`) ||
		!strings.Contains(string(body), "<Timestamps><member>"+iso(sc.start)+"</member>") || !strings.Contains(string(body), "<StatusCode>Complete</StatusCode>") {
		t.Errorf("query answer %d: %s", status, body)
	}
	form.Set("MetricDataQueries.member.1.MetricStat.Period", "61")
	status, _, body = signedPost(t, sc.url, form.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if status != 400 || !strings.Contains(string(body), "<Type>Sender</Type><Code>ValidationError</Code>") {
		t.Errorf("query error %d: %s", status, body)
	}

	in := map[string]any{"StartTime": sc.start.Unix(), "EndTime": sc.start.Add(9 * time.Hour).Unix(),
		"MetricDataQueries": []any{map[string]any{"Id": "used", "MetricStat": map[string]any{"Period": 3600, "Stat": "Sum",
			"Metric": map[string]any{"Namespace": "AWS/EC2CapacityReservations", "MetricName": "UsedInstanceCount",
				"Dimensions": []any{map[string]any{"Name": "CapacityReservationId", "Value": sc.id}}}}}}}
	b, _ := json.Marshal(in)
	jsonHeader := map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "GraniteServiceVersion20100801.GetMetricData"}
	status, _, body = signedPost(t, sc.url, string(b), jsonHeader)
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
	if !near(sum, sc.want) || out.MetricDataResults[0].Timestamps[0] != float64(sc.start.Add(8*time.Hour).Unix()) {
		t.Errorf("JSON: %v instance-seconds (want %v), timestamps %v", sum, sc.want, out.MetricDataResults[0].Timestamps)
	}
	in["EndTime"] = sc.start.Add(-time.Hour).Unix()
	b, _ = json.Marshal(in)
	status, hdr, body := signedPost(t, sc.url, string(b), jsonHeader)
	if status != 400 || hdr.Get("X-Amzn-Query-Error") != "ValidationError;Sender" || !strings.Contains(string(body), `"__type":"ValidationError"`) {
		t.Errorf("JSON error %d %v: %s", status, hdr, body)
	}
}

// The AWS CLI (botocore, which speaks CBOR to CloudWatch) reads the same use.
func TestCloudWatchThroughTheAWSCLI(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI is not installed")
	}
	sc := newUseScenario(t)
	queries, _ := json.Marshal([]any{map[string]any{"Id": "used", "MetricStat": map[string]any{"Period": 3600, "Stat": "Average",
		"Metric": map[string]any{"Namespace": "AWS/EC2CapacityReservations", "MetricName": "UsedInstanceCount",
			"Dimensions": []any{map[string]any{"Name": "CapacityReservationId", "Value": sc.id}}}}}})
	cmd := exec.Command("aws", "cloudwatch", "get-metric-data", "--endpoint-url", sc.url, "--region", "us-east-1", "--output", "json",
		"--metric-data-queries", string(queries),
		"--start-time", sc.start.Format(time.RFC3339), "--end-time", sc.start.Add(9*time.Hour).Format(time.RFC3339))
	home := t.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=secret", "AWS_MAX_ATTEMPTS=1",
		"AWS_CONFIG_FILE="+filepath.Join(home, "config"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(home, "credentials"))
	outb, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("aws cloudwatch get-metric-data: %v\n%s", err, outb)
	}
	var out struct {
		MetricDataResults []struct {
			Values     []float64
			StatusCode string
		}
	}
	if err := json.Unmarshal(outb, &out); err != nil || len(out.MetricDataResults) != 1 || out.MetricDataResults[0].StatusCode != "Complete" {
		t.Fatalf("CLI answer %s (%v)", outb, err)
	}
	var sum float64
	for _, v := range out.MetricDataResults[0].Values {
		sum += v * 3600
	}
	if !near(sum, sc.want) {
		t.Errorf("through the CLI: %v instance-seconds, want %v", sum, sc.want)
	}

	bad := exec.Command("aws", "cloudwatch", "get-metric-statistics", "--endpoint-url", sc.url, "--region", "us-east-1",
		"--namespace", "AWS/EC2CapacityReservations", "--metric-name", "UsedInstanceCount", "--period", "90", "--statistics", "Average",
		"--start-time", sc.start.Format(time.RFC3339), "--end-time", sc.start.Add(time.Hour).Format(time.RFC3339))
	bad.Env = cmd.Env
	outb, err = bad.CombinedOutput()
	if err == nil || !strings.Contains(string(outb), "InvalidParameterValue") {
		t.Errorf("the CLI's bad period: %v\n%s", err, outb)
	}
}
