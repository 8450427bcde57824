// Package capacityblocks is the EC2 Capacity Blocks source over aws/awsapi: the streaming
// offering search, the account's blocks, purchase, extension and launch, the settling of
// their journalled intents, and the searches that suggest what else to ask for. It speaks
// to EC2 only through the real SDK, so the emulator (aws/ec2sim) and AWS share one code
// path; only the endpoint differs.
package capacityblocks

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Client is the EC2 Capacity Block source over an API client. Its listing is a
// BlockScanner's, so that the regions found empty are asked again only now and then.
type Client struct {
	api  *awsapi.Client
	scan *BlockScanner
	// pacer paces the client's EC2 calls, for the search to wait on before it takes a slot.
	pacer *awsapi.ServicePacer
	// pageSize, when set, asks for pages of this many offerings (MaxResults); AWS's own
	// page size is used otherwise. Tests set it to prove that every page is followed.
	pageSize int32
	// oneTypePerCall makes a search ask for each instance type in calls of its own, as
	// before InstanceTypePreferences: the benchmarks' plan to compare with.
	oneTypePerCall bool
	// capPerType is set once an answer of several types has held more than answerCap: AWS's
	// cap is then per type (taken to be one rule for every call), and no answer of exactly
	// answerCap is read as cut any more.
	capPerType atomic.Bool
}

// New is the Capacity Block source over api. It makes no call.
func New(api *awsapi.Client) *Client {
	c := &Client{api: api, pacer: api.EC2Pacer()}
	c.scan = c.NewBlockScanner()
	return c
}

// Caps are what sets the Capacity Blocks apart, known without a client.
var Caps = source.Caps{Source: model.SourceCapacityBlock, Noun: "Capacity Block", DryRun: true, Launch: true, AllZones: true,
	PurchaseAction: "ec2:PurchaseCapacityBlock", ExtendAction: "ec2:PurchaseCapacityBlockExtension"}

func (*Client) Caps() source.Caps { return Caps }

// Explain names the client's profile in its hints, as the command line's own messages do.
func (c *Client) Explain(err error) source.Explanation { return c.api.ExplainError(err) }

func (c *Client) SpendCall(ctx context.Context, in source.Intent) (source.SpendCall, error) {
	switch in.Kind {
	case source.SpendExtend:
		return c.extendCall(in)
	case source.SpendLaunch:
		return c.launchCall(ctx, in)
	}
	return c.purchaseCall(in)
}

// List is the scanner's: the fees paid are the journal's, since EC2 does not list them.
func (c *Client) List(ctx context.Context, regions []string) (source.Listing, error) {
	scan, err := c.scan.Scan(ctx, regions)
	c.api.FillAccount(ctx, scan.Blocks)
	return source.Listing{Blocks: scan.Blocks, Listed: scan.Listed, Quiet: scan.Quiet, Fees: c.FeesPaid(scan.Blocks)}, err
}

// Forget makes the next List ask every region again.
func (c *Client) Forget() { c.scan.Forget() }

// Owns tells an EC2 Capacity Reservation's id: cr- and 17 hex digits.
func (*Client) Owns(id string) bool {
	rest, ok := strings.CutPrefix(id, "cr-")
	if !ok || len(rest) != 17 {
		return false
	}
	for _, c := range rest {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// Intents are the blocks' journal actions, settled by request tag and extension history.
func (c *Client) Intents() source.IntentSource {
	return source.IntentSource{Source: model.SourceCapacityBlock, Purchase: actionPurchase, Extend: actionExtend,
		Noun: Caps.Noun, Settle: c.settleIntent, AskAgain: c.askAgain}
}

const (
	actionPurchase = "PurchaseCapacityBlock"
	actionExtend   = "PurchaseCapacityBlockExtension"
)
