// Package awsapi is what every capacity source shares over aws-sdk-go-v2: the client (its
// configuration, credential chain, identity and per-region EC2 clients), the retryer and
// the pacing by AWS's request buckets, the call log, the journal file, redaction, and the
// translation of API errors into sentences a person can act on. It speaks to AWS only
// through the real SDK, so the emulator (aws/ec2sim) and AWS share one code path; only the
// endpoint differs.
package awsapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/logging"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/sdkhttp"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

// Config says how to reach AWS (or the emulator) and how hard to push it.
type Config struct {
	// Profile, Region and EndpointURL come from flags; empty means the SDK's own
	// resolution (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_EC2, the shared config files…).
	Profile, Region, EndpointURL string
	// Version goes into the user agent as the app id "gpublock/<version>".
	Version string
	// Credentials, when set, replaces the SDK's credential chain (demo mode and tests).
	Credentials aws.CredentialsProvider
	// PerRegion and Overall bound the search's concurrent calls; 0 means no bound per
	// region (AWS's request buckets pace each region, see RateLimits) and 256 overall.
	PerRegion, Overall int
	// RateLimits replaces the request buckets each region's calls are paced by: AWS's
	// documented ones (apilimit.EC2), or an emulator's own, otherwise. An account whose
	// limits AWS raised sets its own here.
	RateLimits *apilimit.Table
	// Headroom is the share of every bucket left to the account's other tools; 0 means
	// DefaultHeadroom, a negative value none.
	Headroom float64
	// JournalDir is the root of the local store of records (the journal and the records
	// beside it), under which each cloud and account has its own directory; "" means
	// $XDG_STATE_HOME/gpublock or ~/.local/state/gpublock.
	JournalDir string
	// State, when set, is where the records are kept instead: a directory, or an S3
	// bucket and prefix (`state: s3://BUCKET/PREFIX`) that a team's machines share.
	State store.Location
	// Cloud names what the client buys against, in each journal entry: "" or "aws" for
	// AWS, "demo" for the built-in simulator, "emulator" for gpublock sim.
	Cloud string
	// MaxSpend, when set, refuses any purchase whose fee is above it, before any call.
	MaxSpend *model.Money
	// MaxSpendRule and ReadOnlyRule name where the cap and read-only mode came from
	// ("--max-spend", "max_spend in …"), for the refusals; "" says it generically.
	MaxSpendRule, ReadOnlyRule string
	// MarketCacheDir, when set, holds the market cache, which keeps each search call's
	// answer (see Search), in a file of the cloud's; "" is no cache (--no-cache).
	MarketCacheDir string
	// MaxBackoff caps the wait between retries of throttled or failed reads; 0 means the
	// SDK's 20 s. Tests and demos shorten it.
	MaxBackoff time.Duration
	// ReadOnly removes every path that spends money or starts instances: Purchase, Extend
	// and Launch refuse before any call.
	ReadOnly bool
	// HTTPClient, when set, replaces the SDK's HTTP client.
	HTTPClient *http.Client
	// SDKLog, when set, takes the SDK's own warnings (e.g. "falling back to IMDSv1"), which
	// otherwise go to stderr: under the TUI they would be written over its screen.
	SDKLog io.Writer
	// CallLog, when set, gets a line for every attempt of every EC2 and STS call.
	CallLog *CallLog
}

// DefaultRegion is used when neither a flag, the environment nor the profile names a
// region: the Capacity Block region with the most types.
const DefaultRegion = "us-east-1"

// defaultOverall bounds a search's calls in flight: a guard on sockets, above what AWS's
// buckets let through at once (a burst of 10 in each region that sells Capacity Blocks).
const defaultOverall = 256

// ReadAttempts is how many times a read is tried, throttled attempts included, when the
// user has not set AWS_MAX_ATTEMPTS; other failures have OtherAttempts of them. A sweep
// makes many calls; with the SDK's 3 attempts a throttled account would lose a region now
// and then, which a person would read as "no capacity".
const ReadAttempts = 30

// Client is a connection to EC2 in every region, with one SDK client per region.
type Client struct {
	cfg       Config
	awscfg    aws.Config
	region    string
	profile   string
	perRegion int
	overall   int
	retryer   aws.RetryerV2
	pacers    *pacers
	journal   *journal
	// cache is the market cache (nil: none); cacheCloud names the cloud in its cells.
	cache      *marketcache.Cache
	cacheCloud string

	// confirmTries and confirmDelay pace the look-up of a purchase whose reply was lost;
	// AWS may take a moment to show a new reservation.
	confirmTries int
	confirmDelay time.Duration
	// endpointFlag is Config.EndpointURL as given (--endpoint-url), before the loopback
	// AWS_ENDPOINT_URL_EC2 fills it in: other services' own variables come between.
	endpointFlag string

	mu       sync.Mutex
	ec2s     map[string]*ec2.Client
	cws      map[string]*cloudwatch.Client
	identity *source.Identity
	// simID is the emulator's identity that STS answered with its identity (simcore.IDHeader),
	// "" from AWS.
	simID string
	// cwPacers and cwRetryer are CloudWatch's: no buckets, the reads' retry budget.
	cwPacers  *pacers
	cwRetryer aws.RetryerV2
	// servicePacers are other services' pacers (NewServicePacer), by service and endpoint.
	servicePacers map[string]*ServicePacer

	stateMu sync.Mutex
	state   store.Store // StateStore, once made
}

// New loads the SDK configuration (the whole credential chain unless cfg.Credentials is
// set) and returns a client. It makes no call: credentials are resolved on first use.
func New(ctx context.Context, cfg Config) (*Client, error) {
	opts := []func(*config.LoadOptions) error{}
	if cfg.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(cfg.Profile))
	}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(cfg.Credentials))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, config.WithHTTPClient(cfg.HTTPClient))
	}
	if cfg.SDKLog != nil {
		opts = append(opts, config.WithLogger(logging.NewStandardLogger(cfg.SDKLog)))
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	opts = append(opts, config.WithAppID("gpublock/"+version))
	awscfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, &ConfigError{Profile: cfg.Profile, Err: err}
	}
	if awscfg.Region == "" {
		awscfg.Region = DefaultRegion
	}
	awscfg.HTTPClient = sdkhttp.PlainBodies(awscfg.HTTPClient)
	if cfg.CallLog != nil {
		// After loading, so the credential chain's own calls (SSO, AssumeRole) stay out of
		// it: the log is about gpublock's calls.
		awscfg.APIOptions = append(slices.Clip(awscfg.APIOptions), cfg.CallLog.APIOption())
	}
	c := &Client{
		cfg:          cfg,
		awscfg:       awscfg,
		region:       awscfg.Region,
		profile:      cfg.Profile,
		perRegion:    cfg.PerRegion,
		overall:      cfg.Overall,
		ec2s:         map[string]*ec2.Client{},
		confirmTries: 4,
		confirmDelay: 2 * time.Second,
	}
	if c.profile == "" {
		c.profile = profileFromEnv()
	}
	c.endpointFlag = c.cfg.EndpointURL
	if c.cfg.EndpointURL == "" {
		c.cfg.EndpointURL = loopbackEndpointFromEnv()
	}
	if c.overall <= 0 {
		c.overall = defaultOverall
	}
	c.pacers = newPacers(c)
	c.retryer = newReadRetryer(awscfg, cfg.MaxBackoff, c.pacers)
	cloud := cfg.Cloud
	if cloud == "" {
		cloud = CloudAWS
	}
	c.journal = &journal{cloud: cloud}
	c.journal.store = c.journal.storeOf(c)
	c.journal.label = c.Cloud
	// A cell is the cloud's, and an emulator's at its endpoint, so no demo or emulator
	// answer ever shows as AWS's; the demo's own endpoint changes every run, its market not.
	c.cacheCloud = cloud
	if cloud != CloudDemo && c.cfg.EndpointURL != "" {
		c.cacheCloud += " " + c.cfg.EndpointURL
	}
	if cfg.MarketCacheDir != "" {
		c.cache = marketcache.In(cfg.MarketCacheDir, cloud)
		if err := c.cache.Check(); err != nil {
			slog.Warn(err.Error())
			c.cache = nil
		}
	}
	return c, nil
}

// newReadRetryer builds the one retryer every read shares, so the adaptive mode's
// client-side rate (AWS_RETRY_MODE=adaptive) learns across calls. Its retry quota is
// off: a sweep under throttling would otherwise drain it and fail calls that a pause
// would have saved.
func newReadRetryer(awscfg aws.Config, maxBackoff time.Duration, ps *pacers) aws.RetryerV2 {
	attempts := awscfg.RetryMaxAttempts
	if attempts == 0 {
		attempts = ReadAttempts
	}
	std := func(o *retry.StandardOptions) {
		o.MaxAttempts = attempts
		o.RateLimiter = ratelimit.None
		if maxBackoff > 0 {
			o.MaxBackoff = maxBackoff
		}
	}
	var base aws.RetryerV2
	if awscfg.RetryMode == aws.RetryModeAdaptive {
		base = retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
			o.StandardOptions = append(o.StandardOptions, std)
		})
	} else {
		base = retry.NewStandard(std)
	}
	return reportingRetryer{RetryerV2: base, pacers: ps}
}

// Region is the home region: the one of the profile or flag, where identity is asked.
func (c *Client) Region() string { return c.region }

// Profile is the shared-config profile in use, or "" for the default chain.
func (c *Client) Profile() string { return c.profile }

// ReadOnly reports whether purchases, extensions and launches are refused.
func (c *Client) ReadOnly() bool { return c.cfg.ReadOnly }

// Endpoint is the endpoint override, or "" for AWS's own endpoints.
func (c *Client) Endpoint() string { return c.cfg.EndpointURL }

// EC2 is the EC2 client of a region, made once.
func (c *Client) EC2(region string) *ec2.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.ec2s[region]; ok {
		return cl
	}
	cl := ec2.NewFromConfig(c.awscfg, func(o *ec2.Options) {
		o.Region = region
		o.Retryer = c.retryer
		o.APIOptions = append(slices.Clip(o.APIOptions), c.paceOption(region))
		if c.cfg.EndpointURL != "" {
			o.BaseEndpoint = aws.String(c.cfg.EndpointURL)
		}
	})
	c.ec2s[region] = cl
	return cl
}

func (c *Client) sts() *sts.Client {
	return sts.NewFromConfig(c.awscfg, func(o *sts.Options) {
		o.Region = c.region
		// The emulator serves STS on the EC2 URL; an --endpoint-url points both there.
		if c.cfg.EndpointURL != "" {
			o.BaseEndpoint = aws.String(c.cfg.EndpointURL)
		}
	})
}

// Identity asks STS GetCallerIdentity, once; later calls return the same answer.
func (c *Client) Identity(ctx context.Context) (source.Identity, error) {
	c.mu.Lock()
	if c.identity != nil {
		id := *c.identity
		c.mu.Unlock()
		return id, nil
	}
	c.mu.Unlock()
	out, err := c.sts().GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return source.Identity{}, err
	}
	var simID string
	if raw, ok := awsmiddleware.GetRawResponse(out.ResultMetadata).(*smithyhttp.Response); ok {
		simID = raw.Header.Get(simcore.IDHeader)
	}
	id := source.Identity{
		Account: aws.ToString(out.Account),
		ARN:     aws.ToString(out.Arn),
		UserID:  aws.ToString(out.UserId),
	}
	if id.Account == "" {
		// The SDK turns a body it cannot read into an empty answer; that is not an identity.
		return source.Identity{}, fmt.Errorf("GetCallerIdentity returned no account (is %q an STS endpoint?)", c.stsEndpoint())
	}
	c.mu.Lock()
	c.identity, c.simID = &id, simID
	c.mu.Unlock()
	return id, nil
}

// FillAccount names the account of the blocks whose listing did not, as the caller's
// identity: every reservation listed is the account's own. Nothing is asked when every
// block has its account, nor filled when the identity cannot be learnt.
func (c *Client) FillAccount(ctx context.Context, blocks []model.Block) {
	for i := range blocks {
		if blocks[i].Account != "" {
			continue
		}
		id, err := c.Identity(ctx)
		if err != nil {
			return
		}
		for j := i; j < len(blocks); j++ {
			if blocks[j].Account == "" {
				blocks[j].Account = id.Account
			}
		}
		return
	}
}

// ConfiguredEndpoint is the EC2 endpoint the environment sets (AWS_ENDPOINT_URL_EC2, else
// AWS_ENDPOINT_URL), wherever it points, or "". The caller asks it whether it is the
// emulator (IsEmulator): an address alone cannot tell.
func ConfiguredEndpoint() string {
	if strings.EqualFold(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") {
		return ""
	}
	for _, k := range []string{"AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// loopbackEndpointFromEnv returns AWS_ENDPOINT_URL_EC2 (or AWS_ENDPOINT_URL) when it points
// at this machine: that is an emulator such as `gpublock sim`, which also serves STS and its
// clock, so it is used like --endpoint-url. A remote endpoint (a VPC endpoint of EC2) is
// left to the SDK, which applies it to EC2 only.
func loopbackEndpointFromEnv() string {
	if strings.EqualFold(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") {
		return ""
	}
	for _, k := range []string{"AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL"} {
		v := os.Getenv(k)
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil {
			return ""
		}
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return v
		}
		return ""
	}
	return ""
}

func (c *Client) stsEndpoint() string {
	if c.cfg.EndpointURL != "" {
		return c.cfg.EndpointURL
	}
	return "sts." + c.region + ".amazonaws.com"
}

// CheckCredentials resolves credentials without calling any service, so a caller can
// tell "no credentials anywhere" from a slow network. ctx bounds the time (IMDS probes).
func (c *Client) CheckCredentials(ctx context.Context) error {
	if c.awscfg.Credentials == nil {
		return &CredentialsError{Profile: c.profile, Err: fmt.Errorf("no credential provider configured")}
	}
	if _, err := c.awscfg.Credentials.Retrieve(ctx); err != nil {
		return &CredentialsError{Profile: c.profile, Err: err}
	}
	return nil
}
