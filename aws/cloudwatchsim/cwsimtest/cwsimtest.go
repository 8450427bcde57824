// Package cwsimtest is what the tests of the emulator's CloudWatch share, in
// aws/cloudwatchsim and in aws/ec2sim (whose state the metrics are read from): the real
// client pointed at it, the queries of a Capacity Reservation's metrics, and the sums their
// answers are checked by. Only tests import it.
package cwsimtest

import (
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/gpublock/gpublock/aws/sdkhttp"
)

// Client is the real CloudWatch client (Smithy RPC v2 CBOR) pointed at the emulator at
// url, without retries.
func Client(url, region string) *cloudwatch.Client {
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
	return cloudwatch.NewFromConfig(aws.Config{Region: region, Credentials: creds}, func(o *cloudwatch.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
		o.HTTPClient = sdkhttp.PlainBodies(o.HTTPClient)
	})
}

// Metric is the metric name of Capacity Reservation id.
func Metric(name, id string) *cwtypes.Metric {
	return &cwtypes.Metric{Namespace: aws.String("AWS/EC2CapacityReservations"), MetricName: aws.String(name),
		Dimensions: []cwtypes.Dimension{{Name: aws.String("CapacityReservationId"), Value: aws.String(id)}}}
}

// Query is GetMetricData's query id of stat of metric of reservation res at period.
func Query(id, metric, res string, period int32, stat string) cwtypes.MetricDataQuery {
	return cwtypes.MetricDataQuery{Id: aws.String(id), MetricStat: &cwtypes.MetricStat{Metric: Metric(metric, res), Period: aws.Int32(period), Stat: aws.String(stat)}}
}

// Weighted is Σ value × period over a result's data points, in the unit's seconds.
func Weighted(r cwtypes.MetricDataResult, period float64) float64 {
	var sum float64
	for _, v := range r.Values {
		sum += v * period
	}
	return sum
}

// Near reports whether a equals b but for floating-point rounding.
func Near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
