package tui

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog"
)

// tuiOncall is what the TUI gets of the on-call flags and keys: the warnings' leads, the
// blocks' regions, the extension length to preselect, and a notifier, opened once the
// backend is (its memory of what was sent lives beside the backend's journal).
type tuiOncall struct {
	settings  cmdutil.OncallSettings
	auto      model.AutoExtendPolicy // the file's auto_extend: the person approves on screen
	backoff   time.Duration          // before a failed notification is sent again
	regions   []string
	several   bool // several accounts are listed: a warning names its block's account
	notifier  atomic.Pointer[notify.Notifier]
	client    atomic.Pointer[awsapi.Client] // whose attached launches keep a block from being idle
	once      sync.Once
	saidState atomic.Bool
}

func newTUIOncall(f *cmdutil.AWSFlags, o cmdutil.OncallFlags, load config.Loader, backoff time.Duration) (*tuiOncall, error) {
	cfg, _, err := load()
	if err != nil {
		return nil, err
	}
	s, err := o.Resolve(cfg.Oncall)
	if err != nil {
		return nil, err
	}
	var noFlags cmdutil.AutoExtendFlags
	auto, err := noFlags.Resolve(cfg.AutoExtend, s.Rules, true)
	if err != nil {
		return nil, err
	}
	regions, _ := f.RegionList(nil) // validated with the other flags
	return &tuiOncall{settings: s, auto: auto.Policy, regions: regions, backoff: backoff, several: f.SeveralAccounts()}, nil
}

// apply sets the options the TUI reads.
func (t *tuiOncall) apply(opts *ui.Options) {
	opts.WarnRules, opts.BlockRegions, opts.ExtendDays, opts.AutoExtend = t.settings.Rules, t.regions, t.settings.ExtendLength, t.auto
	if t.settings.Notify.Command == "" && t.settings.Notify.URL == "" {
		return
	}
	opts.Notify = func(ctx context.Context, b model.Block, w model.Warning, now time.Time) []string {
		n := t.notifier.Load()
		if n == nil {
			return nil // not connected yet: there are no blocks to warn of either
		}
		if c := t.client.Load(); w.Kind == model.WarnIdle && c != nil && atstart.Waiting(c, b) {
			return nil // its attached launch fills it at the next round: not idle
		}
		e := notify.EventOf(b, w, now)
		if t.several {
			e = e.NamingAccount()
		}
		_, failures := n.Now(ctx, e)
		for i, f := range failures {
			failures[i] = strings.TrimSpace(f)
		}
		// A record that cannot be kept is said on screen once, as blocks says it on stderr.
		if err := n.StateError(); err != nil && t.saidState.CompareAndSwap(false, true) {
			failures = append(failures, "the record of warnings sent cannot be kept ("+source.Redact(err.Error())+"): the next run sends them again")
		}
		return failures
	}
}

// connected opens the notifier on the client's state directory.
func (t *tuiOncall) connected(c *awsapi.Client) {
	t.once.Do(func() {
		t.client.Store(c)
		nc := t.settings.Notify
		nc.State, nc.Backoff = cmdutil.NotifyState(c), t.backoff
		if n, err := notify.New(nc); err == nil { // checked when the flags were read
			t.notifier.Store(n)
		}
	})
}

// close lets the deliveries in flight finish, for a while.
func (t *tuiOncall) close() {
	if n := t.notifier.Load(); n != nil {
		ctx, cancel := context.WithTimeout(context.Background(), cmdutil.NotifyGrace)
		defer cancel()
		n.Close(ctx)
	}
}

// fireLaunches fires, at once and then every refresh until ctx ends, the launches attached
// to blocks that have started: the step every watcher takes (cmdutil.FireAttached), so that an open
// TUI launches them as `blocks --watch` would. Each outcome is said in the status line, and
// the blocks are listed again to show it.
func (t *tuiOncall) fireLaunches(ctx context.Context, c *awsapi.Client, every time.Duration, send func(tea.Msg)) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	t.fireLaunchesOn(ctx, c, tick.C, send)
}

// fireLaunchesOn is fireLaunches with a round at once and one at each tick: a tick is taken
// only between rounds, so whoever sends one knows the round before it has ended.
func (t *tuiOncall) fireLaunchesOn(ctx context.Context, c *awsapi.Client, tick <-chan time.Time, send func(tea.Msg)) {
	for {
		cmdutil.FireAttached(ctx, c, t.notifier.Load(), func(s string) { send(dialog.RootMsg{Flash: s, Refresh: true}) })
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
	}
}

// fillOrders runs, at once and then every refresh until ctx ends, the fill step of the
// account's orders (cmdutil.OrderFiller), so that an open TUI fills them as a watcher does;
// what a round did is said in the status line, and the blocks listed again.
func (t *tuiOncall) fillOrders(ctx context.Context, c *awsapi.Client, every time.Duration, send func(tea.Msg)) {
	say := func(s string) { send(dialog.RootMsg{Flash: s, Refresh: true}) }
	tick := time.NewTicker(every)
	defer tick.Stop()
	var f *orders.Filler
	for {
		if f == nil {
			f, _ = cmdutil.OrderFiller(ctx, c, t.notifier.Load(), say) // asked again next round
		}
		if f != nil {
			if err := f.FillAll(ctx); err != nil && ctx.Err() == nil {
				say("Orders: " + c.ExplainError(err).String())
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
