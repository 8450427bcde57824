package receipt

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// body is the receipt's body in a terminal of 160×48 under the root's header and footer.
var body = screen.Rect{W: 160, H: 45}

const journal = "/home/someone/.local/state/gpublock/journal.jsonl"

// states are the receipt in each of its states, in a body of size.
func states(size screen.Rect) map[string]Model {
	env := uitest.Env(size, true)
	o := uitest.Offering()
	out := map[string]Model{}
	r, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123456789abcdef01234567", Block: uitest.Block(model.StatePaymentPending)})
	out["pending"] = r
	rec, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123456789abcdef01234567", Block: uitest.Block(model.StateScheduled), Recovered: true})
	rec.journal = journal
	out["recovered"] = rec
	failed, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123456789abcdef01234567", Block: uitest.Block(model.StatePaymentFailed), Recovered: true})
	failed.journal = journal
	out["payment failed"] = failed
	return out
}

// Every state, a failed payment's too, fits every size from 20×5 to 400×120 and never
// panics; the footer names the receipt's keys: the copy of the reservation, the launch into
// it.
func TestEveryState(t *testing.T) {
	uitest.EveryState(t, states(body), map[string]string{"pending": "y copy the reservation id", "recovered": "l launch into the block"})
}

// The receipt's line of keys follows the state: a block still being paid for takes a
// launch when it starts; once scheduled, the line no longer speaks of the payment.
func TestKeysFollowTheState(t *testing.T) {
	d := states(body)["pending"]
	if v := ansi.Strip(d.View(body.W, body.H)); !strings.Contains(v, "l launches instances into it when it starts") {
		t.Fatalf("a payment-pending block's receipt does not say that l launches when it starts:\n%s", v)
	}
	dd, _, _ := d.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: uitest.Block(model.StateScheduled), Found: true})
	if v := ansi.Strip(dd.View(body.W, body.H)); strings.Contains(v, "when it starts") || !strings.Contains(v, "l launches instances into it") {
		t.Errorf("the line of keys did not follow the state:\n%s", v)
	}
}

// A receipt says when the journal could not record the outcome, with the file and reason.
func TestSaysTheOutcomeWasNotRecorded(t *testing.T) {
	res := source.PurchaseResult{RequestID: "gpb-1", Block: uitest.Block(model.StatePaymentPending),
		JournalErr: errors.New("journal /home/x/.local/state/gpublock/journal.jsonl: no space left on device"),
		Settled: []source.Settled{{Intent: source.JournalEntry{RequestID: "gpb-0", Region: "us-east-1", Time: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)},
			Outcome: source.NotBought, By: source.IntentSource{Source: model.SourceCapacityBlock}}}}
	r, _ := New(uitest.Env(body, false), uitest.Offering(), "", res)
	v := strings.Join(strings.Fields(ansi.Strip(strings.Join(r.lines(100), "\n"))), " ")
	for _, want := range []string{"could not record", "journal.jsonl", "no space left on device", "Settled an interrupted run", "gpb-0"} {
		if !strings.Contains(v, want) {
			t.Errorf("the receipt lacks %q:\n%s", want, v)
		}
	}
}

// The receipt watching a payment that fails asks for the search again (the capacity is on
// sale again) and looks no more; a payment that succeeds asks for nothing.
func TestPayFailStopsAndRefreshes(t *testing.T) {
	env := uitest.Env(screen.Rect{}, false)
	o := uitest.Offering()
	r, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123", Block: uitest.Block(model.StatePaymentPending)})
	d, cmd, closed := r.Update(dialog.BlockPolledMsg{Dialog: r.id, Block: uitest.Block(model.StatePaymentFailed), Found: true})
	if closed || cmd == nil {
		t.Fatalf("on payment-failed: closed %v, command %v", closed, cmd != nil)
	}
	if msg, ok := cmd().(dialog.RootMsg); !ok || !msg.Refresh {
		t.Errorf("on payment-failed the receipt sent %#v, want a refresh", cmd())
	}
	if !d.(Model).settled {
		t.Error("the receipt still watches a payment-failed block")
	}
	ok, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123", Block: uitest.Block(model.StatePaymentPending)})
	if _, cmd, _ := ok.Update(dialog.BlockPolledMsg{Dialog: ok.id, Block: uitest.Block(model.StateScheduled), Found: true}); cmd != nil {
		t.Errorf("on scheduled the receipt sent %#v", cmd())
	}
}

func testReceipt(t *testing.T, src model.Source, state model.BlockState) Model {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env := uitest.EnvAt(now)
	b := model.Block{ReservationID: "cr-0123456789abcdef0", ARN: "arn:aws:sagemaker:us-east-1:123456789012:training-plan/gpb-1",
		Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", State: state, TotalCount: 2,
		Start: now.Add(time.Hour), End: now.Add(24 * time.Hour)}
	env.Backend = uitest.SourceCaps{}
	o := model.Offering{Source: src, InstanceType: "p5.48xlarge", Currency: "USD"}
	r, _ := New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-1", Block: b})
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
