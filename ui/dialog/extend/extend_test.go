package extend

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func testBlock() model.Block {
	start := testNow.Add(-2 * 24 * time.Hour).Truncate(time.Hour)
	return model.Block{ReservationID: "cr-00000000000000001", BlockID: "cb-00000000000000001", Region: "us-east-1",
		AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1, State: model.StateActive,
		Start: start, End: start.Add(48 * time.Hour)}
}

// confirmDialog is the dialog on a 6-day extension whose dry run allowed it, every length
// listed, as the blocks screen's states have it.
func confirmDialog(t *testing.T) Model {
	t.Helper()
	blk := testBlock()
	d := New(uitest.EnvAt(testNow), nil, blk)
	d.step, d.off = stepConfirm, listLengths(&d, blk)
	d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	return d
}

// The footer names esc and ctrl+c while the step's own keys are in the dialog's lines;
// the help names them all.
func TestKeysFollowTheStep(t *testing.T) {
	d := confirmDialog(t)
	buying := d
	buying.step = stepBuying
	done := d
	done.step = stepDone
	choose := d
	choose.step = stepChoose
	for name, c := range map[string]struct {
		d    Model
		want string
		own  string
	}{
		"confirm": {d, "keys as shown in the dialog • esc cancels • ctrl+c quits", "type extend then enter"},
		"choose":  {choose, "keys as shown in the dialog • esc cancels • ctrl+c quits", "↑/k"},
		"buying":  {buying, "waiting for the extension's answer • ctrl+c twice quits anyway", ""},
		"done":    {done, "any key closes • ctrl+c quits", ""},
	} {
		if got := c.d.Footer(); got != c.want {
			t.Errorf("%s: footer %q, want %q", name, got, c.want)
		}
		var own []string
		for _, b := range c.d.Keys().FullHelp()[0] {
			own = append(own, b.Help().Key)
		}
		if c.own != "" && !containsKey(c.d.Keys().FullHelp()[0], c.own) {
			t.Errorf("%s: the help's own keys %v lack %q", name, own, c.own)
		}
		if c.own == "" && len(own) != 0 {
			t.Errorf("%s: the help offers %v, which do nothing now", name, own)
		}
	}
}

func containsKey(bs []key.Binding, k string) bool {
	for _, b := range bs {
		if b.Help().Key == k {
			return true
		}
	}
	return false
}

// listLengths lists every length of extension of blk in d, at $98,765.43 each, and
// chooses the sixth (6 days), whose offering it returns.
func listLengths(d *Model, blk model.Block) model.ExtensionOffering {
	off := model.ExtensionOffering{ID: "cbeo-0123456789abcdef0", ReservationID: blk.ReservationID, InstanceType: blk.InstanceType,
		Count: blk.TotalCount, Start: blk.End, End: blk.End.Add(6 * 24 * time.Hour), DurationHours: 144, Fee: model.MustMoney("98765.43"), Currency: "USD"}
	var choices []model.ExtensionChoice
	var cmps []pricing.Comparison
	for _, days := range model.ExtensionLengths(blk) {
		o := off
		o.End, o.DurationHours = blk.End.Add(time.Duration(days)*24*time.Hour), days*24
		choices = append(choices, model.ExtensionChoice{Days: days, Offering: o})
		cmps = append(cmps, pricing.Compare(nil, o.AsOffering(blk)))
	}
	d.choices, d.cmps, d.choice = choices, cmps, 5
	return off
}

// body is the dialog's body in a terminal of 160×48 under the root's header and footer.
var body = screen.Rect{W: 160, H: 45}

// listedBlock is the first block the blocks screen lists in the root's tests: active for
// two days, its 48 hours ending tomorrow.
func listedBlock() model.Block {
	start := uitest.Now.Add(-2 * 24 * time.Hour).Truncate(time.Hour)
	return model.Block{ReservationID: fmt.Sprintf("cr-%017x", 1), BlockID: fmt.Sprintf("cb-%017x", 1), Region: "us-east-1",
		AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1, State: model.StateActive,
		Start: start, End: start.Add(48 * time.Hour), Interconnect: "ok", Tags: map[string]string{"project": "llm"},
		Instances: []model.Instance{{ID: fmt.Sprintf("i-%017x", 0), State: "running", LaunchTime: start}}}
}

// at is the dialog on listedBlock at step, every length listed and the 6-day one chosen,
// in a body of size with the account not yet known.
func at(step step, size screen.Rect) Model {
	blk := listedBlock()
	d := New(uitest.Env(size, false), nil, blk)
	off := listLengths(&d, blk)
	d.step = step
	if step >= stepChecking {
		d.off = off
	}
	if step >= stepConfirm {
		d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	}
	if step == stepDone {
		d.res = source.ExtendResult{RequestID: "gpb-0123", Extension: model.Extension{Status: model.ExtensionPaymentPending}}
	}
	return d
}

// confirmAllowed is the dialog at Confirm with a fresh spend machine the dry run allowed.
func confirmAllowed() Model {
	d := at(stepConfirm, body)
	d.spend = spend.New(Action)
	d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	return d
}

var press = uitest.Key

func TestWordTypedWhileTooSmallIsCleared(t *testing.T) {
	d := confirmAllowed()
	d.env.Size = screen.Rect{W: 104, H: 8}
	d.spend.Field.SetValue("extend")
	got, cmd, _ := d.Update(press("enter"))
	if cmd != nil || got.(Model).step == stepBuying || got.(Model).spend.Field.Value() != "" {
		t.Fatalf("too small: step %v, field %q", got.(Model).step, got.(Model).spend.Field.Value())
	}
	got, _, _ = got.Update(dialog.SizeMsg{W: 160, H: 45})
	got, cmd, _ = got.Update(press("enter"))
	if cmd != nil || got.(Model).step == stepBuying {
		t.Fatal("enter extended on a word typed while the dialog was too small")
	}
}

// A fee above the cap is refused when its length is chosen: no dry run, no word asked.
func TestRefusesAFeeAboveTheCap(t *testing.T) {
	d := confirmAllowed()
	capped := model.MustMoney("1000")
	d.env.MaxSpend = &capped
	d.step = stepLoading
	d.spend.Uncap()
	off := d.off
	off.Fee = model.MustMoney("98765.43")
	got, cmd, _ := d.Update(extChoicesMsg{dialog: d.ask, choices: []model.ExtensionChoice{{Days: off.DurationHours / 24, Offering: off}},
		cmps: []pricing.Comparison{pricing.CompareExtension(nil, off.AsOffering(d.b))}})
	if cmd != nil {
		t.Fatal("a call was started when the lengths arrived")
	}
	got, cmd, _ = got.Update(press("enter"))
	ed := got.(Model)
	if cmd != nil {
		t.Error("a dry run (or another call) was started above the cap")
	}
	if !ed.spend.OverCap || ed.step == stepChecking || ed.step == stepConfirm {
		t.Fatalf("step %v, overCap %v", ed.step, ed.spend.OverCap)
	}
	v := strings.Join(strings.Fields(ansi.Strip(ed.View(body.W, body.H))), " ")
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
	if got, _, _ = got.Update(press("enter")); got.(Model).step == stepBuying || got.(Model).step == stepChecking {
		t.Fatal("extended above the cap")
	}
}

// The dialog buys nothing on any other way out: esc, a refused dry run, a wrong word; a
// first ctrl+c while the extension is in flight only warns.
func TestRefusals(t *testing.T) {
	blk := listedBlock()
	d := New(uitest.Env(screen.Rect{}, false), nil, blk)
	if _, cmd, closed := d.Update(press("esc")); !closed || cmd == nil {
		t.Fatal("esc does not close the dialog with a word")
	} else if msg, ok := cmd().(dialog.RootMsg); !ok || msg.Flash != "Nothing was extended." {
		t.Errorf("esc says %+v", msg)
	}

	d.step = stepConfirm
	d.off = model.ExtensionOffering{ID: "cbeo-1", End: blk.End.Add(24 * time.Hour)}
	d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: false, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	var dd dialog.Dialog = d
	for _, k := range []string{"e", "x", "t", "e", "n", "d", "enter"} {
		var cmd tea.Cmd
		dd, cmd, _ = dd.Update(press(k))
		if cmd != nil {
			t.Fatalf("a refused dry run let %q send something", k)
		}
	}
	if got := dd.(Model); got.step != stepConfirm || !strings.Contains(got.spend.Note, "The dry run did not allow the extension. esc closes.") {
		t.Errorf("refused: step %d, %q", got.step, got.spend.Note)
	}
	if v := ansi.Strip(dd.View(100, 40)); !strings.Contains(v, "✗ NOT ALLOWED") || strings.Contains(v, "Type extend") {
		t.Errorf("a refused dry run offers to type extend:\n%s", v)
	}

	d.spend = spend.New(Action)
	d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	dd = d
	for _, k := range []string{"e", "x", "t", "e", "n", "t", "enter"} {
		var cmd tea.Cmd
		dd, cmd, _ = dd.Update(press(k))
		if cmd != nil {
			t.Fatalf("%q sent something before extend was typed", k)
		}
	}
	d.step = stepBuying
	dd, cmd, closed := d.Update(press("ctrl+c"))
	if cmd != nil || closed || !dd.(Model).spend.QuitAsked() {
		t.Error("a first ctrl+c while extending did not only warn")
	}
	if _, cmd, _ = dd.Update(press("ctrl+c")); cmd == nil {
		t.Error("a second ctrl+c does not quit")
	}
}

// The dialog's values start in one column: the block's fields, the length picker and the
// offering's fields.
func TestInLine(t *testing.T) {
	v := ansi.Strip(at(stepConfirm, body).View(body.W, body.H))
	cols := map[string]int{}
	for _, l := range strings.Split(v, "\n") {
		for _, label := range []string{"Account", "Ends now", "Add", "New end", "Upfront fee", "Offering"} {
			i := strings.Index(l, label+" ")
			if i < 0 || cols[label] != 0 {
				continue
			}
			rest := l[i+len(label):]
			cols[label] = ansi.StringWidth(l[:i+len(label)]) + len(rest) - len(strings.TrimLeft(rest, " "))
		}
	}
	want := cols["Account"]
	for label, c := range cols {
		if label == "Add" && c == want+1 {
			continue // the picker's lengths leave a cell for the ‹ of the chosen one
		}
		if c != want || want == 0 {
			t.Errorf("%s's value at %d, Account's at %d:\n%s", label, c, want, v)
		}
	}
	if len(cols) != 6 {
		t.Errorf("found %v of the six labels:\n%s", cols, v)
	}
}

// The dry run's answer is a field of the dialog, in the column of the values above it, as
// in the purchase and launch dialogs; its refusal and failure too.
func TestDryRunInLine(t *testing.T) {
	d := at(stepConfirm, body)
	for _, c := range []struct {
		name   string
		perm   source.Permission
		err    error
		answer string
	}{
		{"allowed", source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil, "✓ allowed (ec2:PurchaseCapacityBlockExtension)"},
		{"refused", source.Permission{Action: "ec2:PurchaseCapacityBlockExtension"}, nil, "✗ NOT ALLOWED: this identity lacks ec2:PurchaseCapacityBlockExtension."},
		{"failed", source.Permission{}, errors.New("the network is down"), "✗ failed: the network is down"},
	} {
		dd := d
		dd.spend = spend.New(Action)
		dd.spend.Answer(dd.spend.CheckID(), c.perm, c.err)
		v := ansi.Strip(dd.View(body.W, body.H))
		_, a := uitest.ValueAt(v, "Account", "unknown")
		if _, dr := uitest.ValueAt(v, "Dry run", c.answer); a < 0 || a != dr {
			t.Errorf("%s: account value at %d, dry run answer at %d:\n%s", c.name, a, dr, v)
		}
		if strings.Contains(v, "Dry run:") {
			t.Errorf("%s: the old \"Dry run:\" line is still drawn:\n%s", c.name, v)
		}
	}
}

// Every step, and each answer of the extension, fits every size from 20×5 to 400×120 and
// never panics.
func TestEveryStateFitsEverySize(t *testing.T) {
	states := map[string]Model{}
	for name, step := range map[string]step{"choose": stepChoose, "loading": stepLoading, "none": stepNone, "checking": stepChecking, "confirm": stepConfirm, "done": stepDone} {
		states[name] = at(step, body)
	}
	done := at(stepDone, body)
	for _, st := range []model.ExtensionStatus{model.ExtensionPaymentPending, model.ExtensionPaymentSucceeded, model.ExtensionPaymentFailed} {
		dd := done
		dd.res = source.ExtendResult{RequestID: "gpb-0123", Extension: model.Extension{Status: model.ExtensionPaymentPending}, Recovered: true}
		dd.status, dd.after, dd.found, dd.pollErr = st, done.b, true, errors.New("the region did not answer in time")
		states["done "+string(st)] = dd
	}
	uitest.EveryStateFits(t, states)
}

// The dialog shows model's facts, each on its labelled row, in order, in the words the
// commands print, and ends in what cannot be undone.
func TestShowsTheFactsInOrder(t *testing.T) {
	d := confirmAllowed()
	d.env = uitest.Env(screen.Rect{W: 300, H: 77}, true)
	f := model.ExtensionFacts(d.b, d.off, uitest.Account, d.cmp.BreakEven(), d.env.Location)
	uitest.ShowsFacts(t, "the extend dialog", d.lines(290), f)
}

// The dialog looks again while the payment is pending, and stops, asking for the blocks
// again, once it has settled; a later look answers no one.
func TestExtendDialogStopsWatching(t *testing.T) {
	blk := testBlock()
	d := New(uitest.EnvAt(testNow), nil, blk)
	d.step = stepBuying
	d.off = model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Start: blk.End, End: blk.End.Add(24 * time.Hour)}
	pending := model.Extension{OfferingID: d.off.ID, Status: model.ExtensionPaymentPending}
	dd, cmd, _ := d.Update(extendedMsg{dialog: d.id, res: source.ExtendResult{RequestID: "gpb-1", Extension: pending}})
	if cmd == nil || dd.(Model).status != model.ExtensionPaymentPending {
		t.Fatal("a pending extension is not watched")
	}
	listed := blk
	listed.Extensions = []model.Extension{{OfferingID: "cbe-other", Status: model.ExtensionPaymentFailed}, pending}
	if dd, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true}); cmd == nil || extensionSettled(dd.(Model).status) {
		t.Fatal("still pending (another extension failed), the dialog stops looking")
	}
	listed.Extensions[1].Status = model.ExtensionPaymentFailed
	dd, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true})
	if cmd == nil || dd.(Model).status != model.ExtensionPaymentFailed {
		t.Fatalf("failed: status %s, command %v", dd.(Model).status, cmd != nil)
	}
	if _, ok := cmd().(screen.RefreshBlocksMsg); !ok {
		t.Errorf("settled, the dialog sent %#v, want the blocks listed again", cmd())
	}
	if _, cmd, _ = dd.Update(dialog.BlockPolledMsg{Dialog: d.id, Block: listed, Found: true}); cmd != nil {
		t.Error("settled, the dialog still looks")
	}
}
