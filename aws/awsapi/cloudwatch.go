package awsapi

import (
	"os"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"

	"github.com/gpublock/gpublock/aws/apilimit"
)

// CloudWatch is the CloudWatch client of a region, made once: it reads the use of the
// reservations (AWS/EC2CapacityReservations). It shares the client's credential chain,
// call log and reads' retry policy: patient with throttling, a few tries for any other
// failure. It is not paced by buckets: a report makes one GetMetricData call a region
// (and its pages), far below CloudWatch's per-operation request quotas, so a throttled
// call waits the SDK's backoff.
func (c *Client) CloudWatch(region string) *cloudwatch.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.cws[region]; ok {
		return cl
	}
	if c.cwPacers == nil {
		c.cwPacers = newPacers(c)
		c.cwPacers.resolve = func() *apilimit.Table { return nil }
		c.cwRetryer = c.retryer
		if rr, ok := c.retryer.(reportingRetryer); ok {
			c.cwRetryer = reportingRetryer{RetryerV2: rr.RetryerV2, pacers: c.cwPacers}
		}
	}
	endpoint := c.cloudWatchEndpoint()
	cl := cloudwatch.NewFromConfig(c.awscfg, func(o *cloudwatch.Options) {
		o.Region = region
		o.Retryer = c.cwRetryer
		o.APIOptions = append(slices.Clip(o.APIOptions), paceStack(c.cwPacers, region))
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	if c.cws == nil {
		c.cws = map[string]*cloudwatch.Client{}
	}
	c.cws[region] = cl
	return cl
}

// cloudWatchEndpoint is CloudWatch's endpoint override: --endpoint-url first; then none
// when AWS_ENDPOINT_URL_CLOUDWATCH is set (the SDK applies it); then the emulator on this
// machine that EC2 goes to (a loopback AWS_ENDPOINT_URL_EC2 or AWS_ENDPOINT_URL), which
// serves CloudWatch too. Otherwise AWS's own endpoint.
func (c *Client) cloudWatchEndpoint() string {
	if c.endpointFlag != "" {
		return c.endpointFlag
	}
	if !strings.EqualFold(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") && os.Getenv("AWS_ENDPOINT_URL_CLOUDWATCH") != "" {
		return ""
	}
	return c.cfg.EndpointURL
}
