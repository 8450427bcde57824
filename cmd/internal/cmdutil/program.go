package cmdutil

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
)

// ProgramCaps are the capacity sources of this program, in model.Sources' order, as known
// before any client is opened, so that flags are checked first. A new source is one more
// line here and in SourcesOver.
var ProgramCaps = []source.Caps{capacityblocks.Caps, trainingplans.Caps}

// SourcesOver builds the program's capacity sources over c, in ProgramCaps' order. It makes
// no call.
func SourcesOver(c *awsapi.Client) []source.Source {
	return []source.Source{capacityblocks.New(c), trainingplans.Source(trainingplans.New(c))}
}

// SpendPath is the one spend path over c, settling the intents of every source.
func SpendPath(c *awsapi.Client) *spend.Service { return spend.New(c, SourcesOver(c)...) }

// CapsOf is source s's capabilities; ok is false when s is not in this program.
func CapsOf(s model.Source) (source.Caps, bool) {
	for _, c := range ProgramCaps {
		if c.Source == s {
			return c, true
		}
	}
	return source.Caps{}, false
}

// RegisteredSources lists the program's sources, in model.Sources' order.
func RegisteredSources() []model.Source {
	out := make([]model.Source, len(ProgramCaps))
	for i, c := range ProgramCaps {
		out[i] = c.Source
	}
	return out
}

// OpenSource is source s over c. It makes no call.
func OpenSource(c *awsapi.Client, s model.Source) (source.Source, error) {
	for _, src := range SourcesOver(c) {
		if src.Caps().Source == s {
			return src, nil
		}
	}
	return nil, fmt.Errorf("%s is not available in this build", s.Plural())
}

// OfferingSource is the source whose offering ids have the form of id; ok is false when no
// source claims it, which is not proof that id is any source's.
func OfferingSource(id string) (model.Source, bool) {
	for _, c := range ProgramCaps {
		if c.OfferingPrefix != "" && strings.HasPrefix(id, c.OfferingPrefix) {
			return c.Source, true
		}
	}
	return 0, false
}

// FireAttached is atstart.Fire over c with the program's Capacity Blocks source and spend path.
func FireAttached(ctx context.Context, c *awsapi.Client, n *notify.Notifier, say func(string)) error {
	src, err := OpenSource(c, model.SourceCapacityBlock)
	if err != nil {
		return nil // no Capacity Blocks in this build: nothing can have been attached
	}
	return atstart.Fire(ctx, c, src, SpendPath(c), n, say)
}

// OrderFiller is the fill step of the orders of c's account, as every watcher takes it
// (blocks --watch, gpublock watch, an open TUI): the program's sources, the one spend path,
// the fills and refusals sent through n (nil: nowhere), what the orders ask once bought, and
// one search per order every orders.DefaultSearchEvery (orders.DemoSearchEvery on --demo's
// built-in simulator); say is told what each round did.
func OrderFiller(ctx context.Context, c *awsapi.Client, n *notify.Notifier, say func(string)) (*orders.Filler, error) {
	book, err := orders.Open(ctx, c)
	if err != nil {
		return nil, err
	}
	every := orders.DefaultSearchEvery
	if c.Config().Cloud == awsapi.CloudDemo {
		// The demo's market is in this process and, once an order is open, drops every minute
		// (simcore.DemoPriceDrop): searched every round of a watcher or the TUI, a fill is seen
		// within a round of it.
		every = orders.DemoSearchEvery
	}
	f := &orders.Filler{Client: c, Sources: SourcesOver(c), Spend: SpendPath(c), Book: book, Then: orders.ThenOf(c),
		SearchEvery: every, Say: say}
	if n != nil {
		f.Notify = func(e notify.Event) { n.Send(e) }
	}
	if c.Config().Cloud == awsapi.CloudDemo {
		// The demo's market starts getting cheaper once an order is open, and not before,
		// so that the demo's offerings keep their ids for a purchase until then.
		f.WhenOpen = func(ctx context.Context) { c.StartSimPriceDrop(ctx) }
	}
	return f, nil
}
