package ui

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/ui/program"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog/extend"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

func allowedPurchase(d dialog, p purchase.Model) dialog {
	d, _, _ = d.Update(p.Answered(source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil))
	return d
}

// buy typed and entered before the dry run answered is discarded, and said: once the dry
// run allows, the next enter must not buy on that word.
func TestPurchaseWordTypedBeforeTheDryRunIsCleared(t *testing.T) {
	m := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	p, _ := purchase.New(env, fixedOffering())
	var d dialog = p
	for _, r := range "buy" {
		d, _, _ = d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if got, note := d.(purchase.Model).Machine().Field.Value(), d.(purchase.Model).Machine().Note; got != "" || !strings.Contains(note, "3 keys typed before the confirmation was readable were discarded") {
		t.Fatalf("typed %q while checking; note %q", got, note)
	}
	d, cmd, closed := d.Update(keyMsg("enter"))
	if closed || cmd != nil || d.(purchase.Model).Machine().Busy() {
		t.Fatalf("enter while checking went ahead")
	}
	if got := d.(purchase.Model).Machine().Field.Value(); got != "" || !strings.Contains(d.(purchase.Model).Machine().Note, "4 keys") {
		t.Errorf("after the refusal the field holds %q; notice %q", got, d.(purchase.Model).Machine().Note)
	}
	d = allowedPurchase(d, p)
	d, _, _ = d.Update(keyMsg("enter"))
	if d.(purchase.Model).Machine().Busy() {
		t.Fatal("enter bought on a word typed before the dry run answered")
	}
}

// buy typed while the dialog was too small to be read whole is spent the same way.
func TestPurchaseWordTypedWhileTooSmallIsCleared(t *testing.T) {
	m := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	env.Size = uiscreen.Rect{W: 104, H: 8}
	p, _ := purchase.New(env, fixedOffering())
	d := allowedPurchase(p, p)
	if d.(purchase.Model).Fits() {
		t.Fatal("the dialog fits 104×8; the test wants one that does not")
	}
	pd := d.(purchase.Model)
	pd.TypeWord("buy")
	d, _, _ = dialog(pd).Update(keyMsg("enter"))
	if d.(purchase.Model).Machine().Busy() || d.(purchase.Model).Machine().Field.Value() != "" {
		t.Fatalf("too small: buying %v, field %q", d.(purchase.Model).Machine().Busy(), d.(purchase.Model).Machine().Field.Value())
	}
	d, _, _ = d.Update(dialogSizeMsg{W: 160, H: 45})
	if !d.(purchase.Model).Fits() {
		t.Fatal("the dialog does not fit 160×45")
	}
	d, _, _ = d.Update(keyMsg("enter"))
	if d.(purchase.Model).Machine().Busy() {
		t.Fatal("enter bought on a word typed while the dialog was too small")
	}
}

func extendConfirmDialog(t *testing.T) (Model, extend.Model) {
	t.Helper()
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m := blocksStates(base)["extend confirm"]
	d := m.dialog.(extend.Model)
	*d.Spend() = spend.New(extend.Action)
	d.Spend().Answer(d.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	return m, d
}

func TestExtendWordTypedWhileTooSmallIsCleared(t *testing.T) {
	_, d := extendConfirmDialog(t)
	d.Env().Size = uiscreen.Rect{W: 104, H: 8}
	d.Spend().Field.SetValue("extend")
	got, cmd, _ := d.Update(keyMsg("enter"))
	if cmd != nil || got.(extend.Model).Step() == extend.Buying || got.(extend.Model).Machine().Field.Value() != "" {
		t.Fatalf("too small: step %v, field %q", got.(extend.Model).Step(), got.(extend.Model).Machine().Field.Value())
	}
	got, _, _ = got.Update(dialogSizeMsg{W: 160, H: 45})
	got, cmd, _ = got.Update(keyMsg("enter"))
	if cmd != nil || got.(extend.Model).Step() == extend.Buying {
		t.Fatal("enter extended on a word typed while the dialog was too small")
	}
}

// A fee above the cap is refused when its length is chosen: no dry run, no word asked.
func TestExtendDialogRefusesAFeeAboveTheCap(t *testing.T) {
	m, d := extendConfirmDialog(t)
	capped := model.MustMoney("1000")
	d.Env().MaxSpend = &capped
	d.SetStep(extend.Loading)
	d.Spend().Uncap()
	off := d.Offering()
	off.Fee = model.MustMoney("98765.43")
	got, cmd, _ := d.Update(d.Listed([]model.ExtensionChoice{{Days: off.DurationHours / 24, Offering: off}},
		[]pricing.Comparison{pricing.CompareExtension(nil, off.AsOffering(d.Block()))}))
	if cmd != nil {
		t.Fatal("a call was started when the lengths arrived")
	}
	got, cmd, _ = got.Update(keyMsg("enter"))
	ed := got.(extend.Model)
	if cmd != nil {
		t.Error("a dry run (or another call) was started above the cap")
	}
	if !ed.Machine().OverCap || ed.Step() == extend.Checking || ed.Step() == extend.Confirm {
		t.Fatalf("step %v, overCap %v", ed.Step(), ed.Machine().OverCap)
	}
	m.dialog = ed
	v := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	for _, want := range []string{"REFUSED", "spending cap of $1,000.00", "$98,765.43", "Nothing was sent to AWS"} {
		if !strings.Contains(v, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Type extend") {
		t.Errorf("the word is asked for above the cap:\n%s", v)
	}
	for _, r := range "extend" {
		got, _, _ = got.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	// enter on the refusal is refused again, never buys
	if got, _, _ = got.Update(keyMsg("enter")); got.(extend.Model).Step() == extend.Buying || got.(extend.Model).Step() == extend.Checking {
		t.Fatal("extended above the cap")
	}
}

// The TUI's purchase goes through the one spend path: after a crash between a purchase's
// commit and its outcome line, buying the same block again buys nothing and says which
// reservation the interrupted run bought.
func TestPurchaseDialogAfterACrashBuysNothingNew(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	o, bought := boughtBlock(t, c)
	p, err := c.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if !strings.Contains(l, `"phase":"outcome"`) { // killed after the commit
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(p, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := update(New(actionTestOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	d, _ := purchase.New(env, o)
	allowed := allowedPurchase(d, d).(purchase.Model)
	allowed.TypeWord("buy")
	sending, cmd, _ := allowed.Update(keyMsg("enter"))
	if cmd == nil || !sending.(purchase.Model).Busy() {
		t.Fatalf("buy and enter sent nothing: %T", sending)
	}
	msg := cmd()
	got, _, _ := sending.Update(msg)
	pd, ok := got.(purchase.Model)
	if !ok || pd.Machine().Failure == nil || !pd.Machine().Failure.AlreadyBought {
		t.Fatalf("after the crash: %T %+v", got, msg)
	}
	v := strings.Join(strings.Fields(ansi.Strip(pd.View(160, 45))), " ")
	for _, want := range []string{"ALREADY BOUGHT", bought.ReservationID, "Nothing new was bought"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Nothing was charged") {
		t.Errorf("the dialog says nothing was charged for a block that was bought:\n%s", v)
	}
	if n := len(reservations(t, c, "us-east-1")); n != 1 {
		t.Errorf("%d reservations, want 1", n)
	}
}

// A receipt says when the journal could not record the outcome, with the file and reason.
func TestReceiptSaysTheOutcomeWasNotRecorded(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	res := source.PurchaseResult{RequestID: "gpb-1", Block: fixedBlock(model.StatePaymentPending),
		JournalErr: errors.New("journal /home/x/.local/state/gpublock/journal.jsonl: no space left on device"),
		Settled: []source.Settled{{Intent: source.JournalEntry{RequestID: "gpb-0", Region: "us-east-1", Time: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)},
			Outcome: source.NotBought, By: source.IntentSource{Source: model.SourceCapacityBlock}}}}
	r, _ := receipt.New(env, fixedOffering(), "", res)
	v := strings.Join(strings.Fields(ansi.Strip(strings.Join(r.Lines(100), "\n"))), " ")
	for _, want := range []string{"could not record", "journal.jsonl", "no space left on device", "Settled an interrupted run", "gpb-0"} {
		if !strings.Contains(v, want) {
			t.Errorf("the receipt lacks %q:\n%s", want, v)
		}
	}
}

// launch typed while the form was too small to be read whole is spent: nothing is launched
// or armed on it, even once the terminal is large enough.
func TestLaunchWordTypedWhileTooSmallIsCleared(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Size = uiscreen.Rect{W: 104, H: 8}
	for _, state := range []model.BlockState{model.StateActive, model.StateScheduled} {
		l, _ := launch.New(env, fixedBlock(state))
		l.Spend().Answer(l.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:RunInstances"}, nil)
		if l.Fits() {
			t.Fatal("the form fits 104×8; the test wants one that does not")
		}
		l.TypeWord("launch")
		got, cmd, closed := l.Update(keyMsg("enter"))
		ld := got.(launch.Model)
		if cmd != nil || closed || ld.Busy() || ld.Armed() || ld.Word() != "" || !strings.Contains(ld.Spend().Note, "cleared") {
			t.Fatalf("%s, too small: cmd %v, closed %v, busy %v, armed %v, word %q, note %q", state, cmd != nil, closed, ld.Busy(), ld.Armed(), ld.Word(), ld.Spend().Note)
		}
		got, _, _ = got.Update(dialogSizeMsg{W: 160, H: 45})
		if !got.(launch.Model).Fits() {
			t.Fatal("the form does not fit 160×45")
		}
		if got, cmd, _ = got.Update(keyMsg("enter")); cmd != nil && got.(launch.Model).Busy() || got.(launch.Model).Armed() {
			t.Fatalf("%s: enter went ahead on a word typed while the form was too small", state)
		}
	}
}
