// Package trainingplans is gpublock's source of SageMaker Training Plans, over the real
// aws-sdk-go-v2 SageMaker client: the streaming offering search, plans, purchase
// (CreateTrainingPlan) and extension. It shares the credential chain, retryer, journal,
// spending cap, read-only mode and settling of aws/awsapi and aws/spend, on whose client it is built,
// so that a plan is bought under exactly the rules of a Capacity Block.
//
// Training plans have no dry run: CreateTrainingPlan and ExtendTrainingPlan take no DryRun
// parameter, so permission is learnt only from the purchase itself.
package trainingplans

import (
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
)

// Client reaches SageMaker in every region, one SDK client per region.
type Client struct {
	base     *awsapi.Client
	awscfg   aws.Config
	endpoint string

	perRegion int
	mu        sync.Mutex
	clients   map[string]*sagemaker.Client
	// pageSize, when set, asks ListTrainingPlans for pages this small (tests).
	pageSize int32
	// pacer keeps every call within SageMaker's request buckets, as EC2's are kept.
	pacer *awsapi.ServicePacer
}

// New makes the training-plan source over an EC2 client's configuration. It makes no call.
func New(base *awsapi.Client) *Client {
	endpoint := endpointFor(base)
	return &Client{
		base:      base,
		awscfg:    base.SDKConfig(),
		endpoint:  endpoint,
		perRegion: 4,
		clients:   map[string]*sagemaker.Client{},
		pacer:     base.NewServicePacer(endpoint, "sagemaker", apilimit.SageMaker()),
	}
}

// Base is the client whose journal, cap and read-only mode this source obeys.
func (c *Client) Base() *awsapi.Client { return c.base }

// Endpoint is SageMaker's endpoint override, or "" for AWS's own endpoints.
func (c *Client) Endpoint() string { return c.endpoint }

// endpointFor chooses SageMaker's endpoint: --endpoint-url first; then
// AWS_ENDPOINT_URL_SAGEMAKER; then, when EC2 goes to an emulator on this machine (the
// loopback AWS_ENDPOINT_URL_EC2 or AWS_ENDPOINT_URL), that emulator, which serves
// SageMaker too: a demo must never buy a real plan because one variable was left out.
// Otherwise the SDK's own resolution applies.
func endpointFor(base *awsapi.Client) string {
	if e := base.EndpointFlag(); e != "" {
		return e
	}
	if !strings.EqualFold(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") {
		if v := os.Getenv("AWS_ENDPOINT_URL_SAGEMAKER"); v != "" {
			return v
		}
	}
	if e := base.Endpoint(); e != "" && isLoopback(e) {
		return e
	}
	return ""
}

func isLoopback(v string) bool {
	u, err := url.Parse(v)
	if err != nil {
		return false
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// in returns the SageMaker client of a region, made once.
func (c *Client) in(region string) *sagemaker.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[region]; ok {
		return cl
	}
	cl := sagemaker.NewFromConfig(c.awscfg, func(o *sagemaker.Options) {
		o.Region = region
		o.Retryer = c.pacer.Retryer()
		o.APIOptions = append(slices.Clip(o.APIOptions), c.pacer.Option(region))
		if c.endpoint != "" {
			o.BaseEndpoint = aws.String(c.endpoint)
		}
	})
	c.clients[region] = cl
	return cl
}

// noRetries turns the SDK's retries off for one call: CreateTrainingPlan and
// ExtendTrainingPlan have no idempotency token, and a retried 5xx could buy twice.
func noRetries(o *sagemaker.Options) {
	o.Retryer = aws.NopRetryer{}
	o.RetryMaxAttempts = 1
}
