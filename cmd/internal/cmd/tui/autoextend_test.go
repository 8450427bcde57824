package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/extend"
)

// A person's decline in the TUI, recorded through the TUI's backend, is the decision of
// `blocks --watch --auto-extend` on this machine too: the watch neither extends the block
// nor declines it again at that lead.
func TestADeclineOnScreenIsTheWatchsToo(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := spendCLI.BoughtBlock(t, cs)
	spendCLI.Activate(t, cs, b)
	if code, _, errs := spendCLI.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "1")...); code != 0 {
		t.Fatalf("launch: exit %d\n%s", code, errs)
	}
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

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &cmdtest.CancelAfter{N: 2, Cancel: cancel}
	var errs strings.Builder
	code := spendCLI.RunContext(wctx, out, &errs, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s",
		"--warn-leads", "3d", "--auto-extend", "1d")
	if code != 0 || strings.Contains(errs.String(), "AUTO-EXTEND") {
		t.Fatalf("the watch: exit %d, stderr %q", code, errs.String())
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
