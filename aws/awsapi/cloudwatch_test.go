package awsapi

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

// CloudWatch's client goes where EC2's does (the emulator), is made once a region, is in
// the call log, and retries a throttled read with the shared retryer.
func TestCloudWatchClient(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	var log bytes.Buffer
	c := newTestClient(t, url, func(cfg *Config) { cfg.CallLog = NewCallLog(&log) })
	cw := c.CloudWatch("us-west-2")
	if c.CloudWatch("us-west-2") != cw || c.CloudWatch("us-east-1") == cw {
		t.Error("one client a region")
	}
	if _, err := cw.ListMetrics(context.Background(), &cloudwatch.ListMetricsInput{Namespace: aws.String("AWS/EC2CapacityReservations")}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "ListMetrics") || !strings.Contains(log.String(), "us-west-2") {
		t.Errorf("call log %q", log.String())
	}
	sim.SetFaults(ec2sim.Faults{Throttle: 0.5})
	for range 5 {
		if _, err := cw.GetMetricStatistics(context.Background(), &cloudwatch.GetMetricStatisticsInput{Namespace: aws.String("AWS/EC2CapacityReservations"),
			MetricName: aws.String("UsedInstanceCount"), Period: aws.Int32(3600), Statistics: []cwtypes.Statistic{cwtypes.StatisticAverage},
			StartTime: aws.Time(simtest.Start.Add(-time.Hour)), EndTime: aws.Time(simtest.Start)}); err != nil {
			t.Fatalf("a throttled read was not retried: %v", err)
		}
	}
	if n := strings.Count(log.String(), "GetMetricStatistics"); n <= 5 {
		t.Errorf("%d attempts logged for 5 reads half of which are throttled", n)
	}
	// A region whose CloudWatch is down is given up after a few tries, not a throttle's patience.
	sim.SetFaults(ec2sim.Faults{Down: []string{"monitoring:us-west-2"}})
	log.Reset()
	if _, err := cw.ListMetrics(context.Background(), &cloudwatch.ListMetricsInput{}); err == nil || !strings.Contains(err.Error(), "ServiceUnavailable") {
		t.Fatalf("a region down: %v", err)
	}
	if n := strings.Count(log.String(), "ListMetrics"); n != AnsweredAttempts {
		t.Errorf("%d attempts at a region that is down (it answered a moment ago), want %d", n, AnsweredAttempts)
	}
}

// Without --endpoint-url, a loopback AWS_ENDPOINT_URL_EC2 (an emulator on this machine)
// serves CloudWatch too; AWS_ENDPOINT_URL_CLOUDWATCH is left to the SDK.
func TestCloudWatchEndpoint(t *testing.T) {
	c := newTestClient(t, "", nil)
	if e := c.cloudWatchEndpoint(); e != "" {
		t.Errorf("no override: %q", e)
	}
	t.Setenv("AWS_ENDPOINT_URL_EC2", "http://127.0.0.1:4566")
	c, err := New(context.Background(), Config{Region: "us-east-1", JournalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if e := c.cloudWatchEndpoint(); e != "http://127.0.0.1:4566" {
		t.Errorf("the emulator of EC2: %q", e)
	}
	t.Setenv("AWS_ENDPOINT_URL_CLOUDWATCH", "https://monitoring.example")
	if e := c.cloudWatchEndpoint(); e != "" {
		t.Errorf("AWS_ENDPOINT_URL_CLOUDWATCH is the SDK's to apply: %q", e)
	}
}
