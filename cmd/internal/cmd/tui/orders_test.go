package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/order"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

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
	code, out, errs := orderCLI.Run(append([]string{"order", "--list", "-o", "json"}, at...)...)
	var os []model.Order
	if code != 0 || json.Unmarshal([]byte(out), &os) != nil || len(os) != 1 || os[0].State != model.OrderFilled {
		t.Fatalf("order --list: exit %d\n%s\n%s", code, out, errs)
	}
}
