package tui

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/ui/dialog"
)

var spendCLI = cmdtest.CLI{
	New: func(f *cmdutil.Factory) *cobra.Command { return launch.NewCmdLaunch(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command {
		return []*cobra.Command{purchase.NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
	},
}

// An open TUI fires a launch attached to a block once the block has started, as a watching
// `blocks` does, and says so in the status line; its later rounds launch nothing more.
func TestTheTUIFiresALaunchAttachedAtTheStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cmdtest.BoughtBlock(t, spendCLI.Run, cs)
	if code, _, errs := spendCLI.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--count", "2", "--yes")...); code != 0 {
		t.Fatalf("attach: exit %d\n%s", code, errs)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))

	var mu sync.Mutex
	var said []string
	send := func(msg tea.Msg) {
		if m, ok := msg.(dialog.RootMsg); ok && m.Refresh {
			mu.Lock()
			said = append(said, m.Flash)
			mu.Unlock()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	// The client as the TUI opens it: the journal and the attached launches are this machine's.
	flags, _, err := tuiOptions([]string{"--endpoint-url", cs.URL, "--region", "us-east-1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	client, _, err := cmdutil.OpenBackend(ctx, flags, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	on := &tuiOncall{}
	go func() { on.fireLaunches(ctx, client, 10*time.Millisecond, send); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(said)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // more rounds
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || !strings.Contains(said[0], "started i-") {
		t.Fatalf("the status line said %q; want one line of the launch", said)
	}
	code, out, errs := spendCLI.Run("launch", "--pending", "--endpoint-url", cs.URL, "-o", "json")
	if code != 0 || strings.Count(out, `"i-`) != 2 || !strings.Contains(out, `"State": "launched"`) {
		t.Errorf("launch --pending after the TUI's rounds: exit %d\n%s\n%s", code, out, errs)
	}
}
