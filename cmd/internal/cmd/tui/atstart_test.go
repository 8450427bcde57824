package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

var spendCLI = cmdtest.NewCLI(launch.NewCmdLaunch, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// An open TUI fires a launch attached to a block once the block has started, as a watching
// `blocks` does, and says so in the status line; its later rounds launch nothing more.
func TestTheTUIFiresALaunchAttachedAtTheStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := spendCLI.BoughtBlock(t, cs)
	if code, _, errs := spendCLI.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--count", "2", "--yes")...); code != 0 {
		t.Fatalf("attach: exit %d\n%s", code, errs)
	}
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
	flags, _, err := tuiOptions([]string{"--endpoint-url", cs.URL, "--region", "us-east-1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	client, _, err := cmdutil.OpenBackend(ctx, flags, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
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
