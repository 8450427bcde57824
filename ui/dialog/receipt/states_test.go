package receipt

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
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
