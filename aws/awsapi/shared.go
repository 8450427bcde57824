package awsapi

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go/middleware"
	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/source"
)

// What a capacity source's package builds on besides EC2's clients, so that every source
// shares one credential chain, retryer, journal, spending cap, read-only mode and settling
// after a lost reply.

// SDKConfig is the loaded SDK configuration: credential chain, region, app id, logger and
// call log, for another service's clients.
func (c *Client) SDKConfig() aws.Config { return c.awscfg.Copy() }

// ReadRetryer is the retryer every read shares (throttles reported, patient backoff).
func (c *Client) ReadRetryer() aws.RetryerV2 { return c.retryer }

// EndpointFlag is the --endpoint-url given (Config.EndpointURL), "" when none was.
func (c *Client) EndpointFlag() string { return c.endpointFlag }

// MarkSent is the middleware that marks m when the call reaches the network, for any SDK
// client's APIOptions: it runs after signing, just before the HTTP round trip.
func MarkSent(m *source.SentMark) func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("gpublock.SentMark",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
				m.Mark()
				return next.HandleDeserialize(ctx, in)
			}), middleware.After)
	}
}

// SetConfirmPace sets how often, and how far apart, a lost reply is looked up (tests and
// demos shorten it).
func (c *Client) SetConfirmPace(tries int, delay time.Duration) {
	c.confirmTries, c.confirmDelay = max(1, tries), delay
}

// Config is the configuration the client was made with, as resolved (its EndpointURL
// includes a loopback AWS_ENDPOINT_URL_EC2).
func (c *Client) Config() Config { return c.cfg }

// Concurrency bounds a search's calls in flight: per region (0 for none) and overall.
func (c *Client) Concurrency() (perRegion, overall int) { return c.perRegion, c.overall }

// MarketCache is the market cache (nil: none) and the backend its cells are of.
func (c *Client) MarketCache() (*marketcache.Cache, string) { return c.cache, c.cacheCloud }
