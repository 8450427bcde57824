package receipt

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/theme"
)

func testReceipt(t *testing.T, src model.Source, state model.BlockState) Model {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC,
		Wall: spend.NewFakeClock(now, 2*model.ConfirmDwell).Now}
	b := model.Block{ReservationID: "cr-0123456789abcdef0", ARN: "arn:aws:sagemaker:us-east-1:123456789012:training-plan/gpb-1",
		Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", State: state, TotalCount: 2,
		Start: now.Add(time.Hour), End: now.Add(24 * time.Hour)}
	pc.Backend = capsOf{caps: map[model.Source]source.Caps{model.SourceTrainingPlan: {NoDryRun: "no dry run"},
		model.SourceCapacityBlock: {DryRun: true, Launch: true}}}
	o := model.Offering{Source: src, InstanceType: "p5.48xlarge", Currency: "USD"}
	r, _ := New(dialog.Env{Context: pc, Poll: time.Second}, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-1", Block: b})
	return r
}

// The footer names what y copies and when l launches, from the block's state.
func TestFooterFollowsTheBlock(t *testing.T) {
	for name, c := range map[string]struct {
		r    Model
		want string
	}{
		"scheduled": {testReceipt(t, model.SourceCapacityBlock, model.StateScheduled), "y copy the reservation id • l launch into the block • esc, enter or q closes"},
		"pending":   {testReceipt(t, model.SourceCapacityBlock, model.StatePaymentPending), "y copy the reservation id • l launch when the block starts • esc, enter or q closes"},
		"failed":    {testReceipt(t, model.SourceCapacityBlock, model.StatePaymentFailed), "y copy the reservation id • esc, enter or q closes"},
		"plan":      {testReceipt(t, model.SourceTrainingPlan, model.StateScheduled), "y copy the plan's ARN • esc, enter or q closes • the reservations screen (2) shows how to use it"},
	} {
		if got := c.r.Footer(); got != c.want {
			t.Errorf("%s: footer %q, want %q", name, got, c.want)
		}
	}
}

// l on the receipt of a scheduled block, or of one still being paid for, opens the launch
// form (which attaches the launch to the block's start); on a plan's it explains instead,
// and on a block whose payment failed it says that nothing can be launched.
func TestLaunchFromTheReceipt(t *testing.T) {
	l := tea.KeyPressMsg{Code: 'l', Text: "l"}
	for _, st := range []model.BlockState{model.StateScheduled, model.StatePaymentPending} {
		d, _, closed := testReceipt(t, model.SourceCapacityBlock, st).Update(l)
		if _, ok := d.(launch.Model); !ok || closed {
			t.Fatalf("l on a %s block's receipt gave %T (closed %v), want the launch form", st, d, closed)
		}
	}
	d, _, _ := testReceipt(t, model.SourceCapacityBlock, model.StatePaymentFailed).Update(l)
	if r, ok := d.(Model); !ok || !strings.Contains(r.note, "payment failed") {
		t.Errorf("l on a payment-failed block's receipt gave %T %+v", d, d)
	}
	d, _, _ = testReceipt(t, model.SourceTrainingPlan, model.StateScheduled).Update(l)
	r, ok := d.(Model)
	if !ok {
		t.Fatalf("l on a plan's receipt gave %T", d)
	}
	if v := ansi.Strip(strings.Join(r.lines(100), " ")); !strings.Contains(v, "A training plan is not launched into") {
		t.Errorf("l on a plan's receipt says nothing:\n%s", v)
	}
}

// capsOf is a backend that answers only what each source can do: the receipt reads a
// source's difference from its capabilities, and calls nothing in these tests.
type capsOf struct {
	source.Backend
	caps map[model.Source]source.Caps
}

func (c capsOf) Caps(s model.Source) source.Caps { return c.caps[s] }
