package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/order"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/extend"
)

func writeOncallConfig(t *testing.T, body string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "gpublock"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpublock", "config.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The on-call keys of the configuration file reach the TUI; flags win over them.
func TestOncallConfigAndFlags(t *testing.T) {
	writeOncallConfig(t, `{"warn_leads": "24h,2h,40m", "notify_url": "https://hooks.example.com/services/T/B/X", "extend_length": "3d"}`)
	a, err := parseTUI([]string{"--demo", "--region", "eu-north-1,us-east-1"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := newTUIOncall(a.AWS, a.oncall, cmdutil.LoadUserConfig, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var opts ui.Options
	oc.apply(&opts)
	if got := model.FormatWarnLeads(opts.WarnRules.Leads); got != "24h,2h,40m" || opts.ExtendDays != 3 || opts.Notify == nil ||
		strings.Join(opts.BlockRegions, ",") != "eu-north-1,us-east-1" {
		t.Errorf("leads %s, extend %d, notify %v, regions %v", got, opts.ExtendDays, opts.Notify != nil, opts.BlockRegions)
	}
	// Not connected yet: nothing is delivered, nothing fails.
	if f := opts.Notify(context.Background(), model.Block{}, model.Warning{Kind: model.WarnExpiring}, time.Now()); f != nil {
		t.Errorf("failures before connecting: %v", f)
	}

	a, _ = parseTUI([]string{"--demo", "--warn-leads", "6h"}, os.Stderr)
	oc, err = newTUIOncall(a.AWS, a.oncall, cmdutil.LoadUserConfig, time.Second)
	if err != nil || oc.settings.Rules.Leads[0] != 6*time.Hour || len(oc.settings.Rules.Leads) != 1 || oc.regions != nil {
		t.Errorf("the flag does not win: %+v, %v", oc, err)
	}
}

// A damaged on-call key is named with its file, and its secret never repeated.
func TestOncallConfigRefusals(t *testing.T) {
	for body, want := range map[string]string{
		`{"warn_leads": "soon"}`:                     "warn_leads",
		`{"notify_url": "hooks.example.com/SECRET"}`: "notify_url",
		`{"extend_length": "15d"}`:                   "extend_length",
		`{"warn_lead": "24h"}`:                       "warn_leads, notify_cmd",
	} {
		writeOncallConfig(t, body)
		_, _, err := cmdutil.LoadUserConfig()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "config.json") || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: %v, want %q named", body, err, want)
		}
	}
}

var spendCLI = cmdtest.NewCLI(launch.NewCmdLaunch, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// An open TUI fires a launch attached to a block once the block has started, as a watching
// `blocks` does, and says so in the status line; its later rounds launch nothing more.
func TestTheTUIFiresALaunchAttachedAtTheStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := spendCLI.BoughtBlock(t, cs)
	spendCLI.AttachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))

	flash := &flashes{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	client := tuiBackend(t, ctx, []string{"--endpoint-url", cs.URL, "--region", "us-east-1"})
	on := &tuiOncall{}
	ticks := make(chan time.Time)
	go func() { on.fireLaunchesOn(ctx, client, ticks, flash.send); close(done) }()
	// The first round and three more: a tick is taken only once the round before it has
	// ended.
	for i := 0; i < 4; i++ {
		select {
		case ticks <- time.Now():
		case <-time.After(time.Minute): // bounds a hang only
			t.Fatalf("round %d did not end in a minute", i+1)
		}
	}
	cancel()
	<-done
	said := flash.all()
	if len(said) != 1 || !strings.Contains(said[0], "started i-") {
		t.Fatalf("the status line said %q; want one line of the launch", said)
	}
	code, out, errs := spendCLI.Run("launch", "--pending", "--endpoint-url", cs.URL, "-o", "json")
	if code != 0 || strings.Count(out, `"i-`) != 2 || !strings.Contains(out, `"State": "launched"`) {
		t.Errorf("launch --pending after the TUI's rounds: exit %d\n%s\n%s", code, out, errs)
	}
}

// A launch attached from the TUI's backend (its launch form) is the CLI's: `launch
// --pending` lists it, a `blocks` round before the start sends nothing, and the first round
// after the start launches it once; later rounds launch nothing more.
func TestALaunchAttachedFromTheTUIIsLaunchedOnceByBlocks(t *testing.T) {
	cs := cmdtest.StartSim(t)
	bj := spendCLI.BoughtBlock(t, cs)
	ctx := context.Background()
	client := tuiBackend(t, ctx, []string{"--endpoint-url", cs.URL, "--region", "us-east-1"})
	be := sources.New(client, cmdutil.SourcesOver(client))
	blk, ok, err := be.Block(ctx, "us-east-1", bj.CapacityReservationId)
	if !ok || err != nil {
		t.Fatalf("block %s: %v, %v", bj.CapacityReservationId, ok, err)
	}
	if _, err := be.AttachLaunch(ctx, blk, source.LaunchSpec{ImageID: cmdtest.AMI, Count: 2}); err != nil {
		t.Fatalf("attach: %v", err)
	}
	if _, err := be.AttachLaunch(ctx, blk, source.LaunchSpec{ImageID: cmdtest.AMI, Count: 1}); err == nil || !strings.Contains(err.Error(), "attached already") {
		t.Fatalf("a second attach: %v", err)
	}
	round := func() string {
		t.Helper()
		code, _, errs := spendCLI.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
		if code != 0 {
			t.Fatalf("blocks: exit %d\n%s", code, errs)
		}
		return errs
	}
	if errs := round(); strings.Contains(errs, "started i-") {
		t.Fatalf("a round before the start launched:\n%s", errs)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, bj.StartDate).Add(time.Minute))
	if errs := round(); strings.Count(errs, "started i-") != 1 {
		t.Fatalf("the first round after the start said:\n%s", errs)
	}
	for range 2 {
		if errs := round(); strings.Contains(errs, "started") {
			t.Fatalf("a later round launched again:\n%s", errs)
		}
	}
	after, _, err := be.Block(ctx, "us-east-1", bj.CapacityReservationId)
	if err != nil || len(after.Instances) != 2 {
		t.Fatalf("instances of the block: %+v, %v; want the 2 of one launch", after.Instances, err)
	}
	ls, err := be.AttachedLaunches(ctx)
	if err != nil || len(ls) != 1 || ls[0].State != "launched" || len(ls[0].Instances) != 2 {
		t.Fatalf("attached: %+v, %v", ls, err)
	}
}

// A person's decline in the TUI, recorded through the TUI's backend, is the decision of
// `blocks --watch --auto-extend` on this machine too: the watch neither extends the block
// nor declines it again at that lead.
func TestADeclineOnScreenIsTheWatchsToo(t *testing.T) {
	cs := cmdtest.StartSim(t)
	spendCLI.RunningBlock(t, cs)
	ctx := context.Background()
	client := tuiBackend(t, ctx, []string{"--endpoint-url", cs.URL, "--region", "us-east-1"})
	be := sources.New(client, cmdutil.SourcesOver(client))
	p, err := model.NewAutoExtendPolicy(1, "", model.NewWarnRules([]time.Duration{72 * time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	list, err := be.Blocks(ctx, []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	asks, err := be.AutoExtendDue(ctx, p, list.Blocks, list.Now)
	if err != nil || len(asks) != 1 || asks[0].Verdict != model.AutoExtendNow {
		t.Fatalf("due on screen: %+v, %v", asks, err)
	}
	if err := be.DecideAutoExtend(ctx, asks[0], source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: extend.DeclinedOnScreen}); err != nil {
		t.Fatalf("the decline on screen: %v", err)
	}

	code, _, errs := spendCLI.Watch(ctx, 2, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s",
		"--warn-leads", "3d", "--auto-extend", "1d")
	if code != 0 || strings.Contains(errs, "AUTO-EXTEND") {
		t.Fatalf("the watch: exit %d, stderr %q", code, errs)
	}
	if n := spendCLI.ListedBlock(t, cs.URL).Extensions; n != 0 {
		t.Errorf("%d extensions after the decline on screen, want none", n)
	}
	decisions := 0
	for _, e := range cmdtest.JournalLines(t) {
		if e.Phase == "decision" {
			decisions++
		}
	}
	if decisions != 1 {
		t.Errorf("%d decisions in the journal, want the one on screen", decisions)
	}
}

var orderCLI = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return order.NewCmdOrder(f, nil) }}

// An open TUI fills an open order as a watcher does, once, and says so in the status line.
func TestTheTUIFillsAnOrder(t *testing.T) {
	cs := cmdtest.StartSim(t)
	at := []string{"--endpoint-url", cs.URL, "--region", "us-east-1"}
	if code, _, errs := orderCLI.Run(append([]string{"order", "--type", "p5.48xlarge", "--count", "2", "--duration", "2d-4d",
		"--max-per-accelerator-hour", "100", "--yes"}, at...)...); code != 0 {
		t.Fatalf("order: exit %d\n%s", code, errs)
	}
	flash := &flashes{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	client := tuiBackend(t, ctx, at)
	on := &tuiOncall{}
	go func() { on.fillOrders(ctx, client, 10*time.Millisecond, flash.send); close(done) }()
	// The deadline only bounds a hang.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if len(flash.all()) > 0 {
			break
		}
	}
	time.Sleep(100 * time.Millisecond) // more rounds
	cancel()
	<-done
	said := flash.all()
	if len(said) != 1 || !strings.Contains(said[0], "FILLED") {
		t.Fatalf("the status line said %q; want the fill, once", said)
	}
	if os := orderCLI.Orders(t, at...); len(os) != 1 || os[0].State != model.OrderFilled {
		t.Fatalf("order --list: %+v, want the order filled", os)
	}
}

// flashes keeps what the TUI's on-call rounds say on the status line (the messages that
// refresh the screens), as the program would show them.
type flashes struct {
	mu   sync.Mutex
	said []string
}

func (f *flashes) send(msg tea.Msg) {
	if m, ok := msg.(dialog.RootMsg); ok && m.Refresh {
		f.mu.Lock()
		f.said = append(f.said, m.Flash)
		f.mu.Unlock()
	}
}

// all is what was said so far.
func (f *flashes) all() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.said...)
}

// tuiBackend is the client as the TUI opens it with args: the journal and the attached
// launches are this machine's.
func tuiBackend(t *testing.T, ctx context.Context, args []string) *awsapi.Client {
	t.Helper()
	flags, _, err := tuiOptions(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	client, _, err := cmdutil.OpenBackend(ctx, flags, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return client
}
