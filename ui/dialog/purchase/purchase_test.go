package purchase

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

func testDialog(t *testing.T, src model.Source, maxSpend *model.Money) Model {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env := uitest.EnvAt(now)
	env.Identity = program.Identity{Identity: source.Identity{Account: uitest.Account}, Known: true}
	env.Backend, env.MaxSpend = uitest.SourceCaps{}, maxSpend
	o := model.Offering{ID: "cbr-0123456789abcdef0", Source: src, Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: now.Add(24 * time.Hour), End: now.Add(48 * time.Hour), DurationHours: 24,
		Fee: model.MustMoney("6211.123456"), Currency: "USD"}
	d, _ := New(env, o)
	return d
}

// The footer names the keys of the dialog's phase: a block's platform and a plan's lack of
// one, and nothing to type once the fee is above the cap.
func TestFooterFollowsThePhase(t *testing.T) {
	block := testDialog(t, model.SourceCapacityBlock, nil)
	dd, _, _ := block.Update(answered(block, source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil))
	allowed := dd.(Model)
	plan := testDialog(t, model.SourceTrainingPlan, nil)
	low := model.MustMoney("100")
	capped := testDialog(t, model.SourceCapacityBlock, &low)
	for name, c := range map[string]struct {
		d        Model
		has, not string
	}{
		"allowed": {allowed, "type buy then enter to buy • tab platform · tags · confirmation • shift+tab back • → next platform • ← previous platform", "closes"},
		"plan":    {plan, "tab tags · confirmation", "platform"},
		"capped":  {capped, "esc closes: nothing can be bought here", "type buy"},
	} {
		if got := c.d.Footer(); !strings.Contains(got, c.has) || strings.Contains(got, c.not) {
			t.Errorf("%s: footer %q, want %q and no %q", name, got, c.has, c.not)
		}
		if len(c.d.Keys().FullHelp()) == 0 || len(c.d.Keys().FullHelp()[0]) != len(c.d.Keys().ShortHelp()) {
			t.Errorf("%s: the help and the footer name different keys", name)
		}
	}
}

var press = uitest.Key

// body is the dialog's body in a terminal of 160×48 under the root's header and footer.
var body = screen.Rect{W: 160, H: 45}

// answered is the message of d's dry run answering p (or err) now.
func answered(d Model, p source.Permission, err error) tea.Msg {
	return dryRunMsg{dialog: d.id, check: d.spend.CheckID(), prep: source.Prepared{Intent: d.intent(), Permission: p}, err: err}
}

func allowed(d dialog.Dialog, p Model) dialog.Dialog {
	d, _, _ = d.Update(answered(p, source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil))
	return d
}

// typeWord focuses the confirmation and types w in it.
func typeWord(d *Model, w string) {
	d.focus = pfConfirm
	d.spend.Field.SetValue(w)
}

// buy typed and entered before the dry run answered is discarded, and said: once the dry
// run allows, the next enter must not buy on that word.
func TestWordTypedBeforeTheDryRunIsCleared(t *testing.T) {
	p, _ := New(uitest.Env(body, true), uitest.Offering())
	var d dialog.Dialog = p
	for _, r := range "buy" {
		d, _, _ = d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if got, note := d.(Model).spend.Field.Value(), d.(Model).spend.Note; got != "" || !strings.Contains(note, "3 keys typed before the confirmation was readable were discarded") {
		t.Fatalf("typed %q while checking; note %q", got, note)
	}
	d, cmd, closed := d.Update(press("enter"))
	if closed || cmd != nil || d.(Model).spend.Busy() {
		t.Fatalf("enter while checking went ahead")
	}
	if got := d.(Model).spend.Field.Value(); got != "" || !strings.Contains(d.(Model).spend.Note, "4 keys") {
		t.Errorf("after the refusal the field holds %q; notice %q", got, d.(Model).spend.Note)
	}
	d = allowed(d, p)
	d, _, _ = d.Update(press("enter"))
	if d.(Model).spend.Busy() {
		t.Fatal("enter bought on a word typed before the dry run answered")
	}
}

// buy typed while the dialog was too small to be read whole is spent the same way.
func TestWordTypedWhileTooSmallIsCleared(t *testing.T) {
	p, _ := New(uitest.Env(screen.Rect{W: 104, H: 8}, true), uitest.Offering())
	d := allowed(p, p)
	if d.(Model).fits() {
		t.Fatal("the dialog fits 104×8; the test wants one that does not")
	}
	pd := d.(Model)
	typeWord(&pd, "buy")
	d, _, _ = dialog.Dialog(pd).Update(press("enter"))
	if d.(Model).spend.Busy() || d.(Model).spend.Field.Value() != "" {
		t.Fatalf("too small: buying %v, field %q", d.(Model).spend.Busy(), d.(Model).spend.Field.Value())
	}
	d, _, _ = d.Update(dialog.SizeMsg{W: 160, H: 45})
	if !d.(Model).fits() {
		t.Fatal("the dialog does not fit 160×45")
	}
	d, _, _ = d.Update(press("enter"))
	if d.(Model).spend.Busy() {
		t.Fatal("enter bought on a word typed while the dialog was too small")
	}
}

// A confirmation cut by a small terminal (60×16) cannot be confirmed: nobody buys what
// they could not see.
func TestTooSmallCannotConfirm(t *testing.T) {
	p, _ := New(uitest.Env(screen.Rect{W: 60, H: 13}, true), uitest.Offering())
	p.spend.Answer(p.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	p.spend.Field.SetValue("buy")
	d, cmd, closed := p.Update(press("enter"))
	if closed || cmd != nil || d.(Model).spend.Busy() {
		t.Fatalf("enter on a cut confirmation: closed=%v cmd=%v buying=%v", closed, cmd != nil, d.(Model).spend.Busy())
	}
	if got := d.(Model).spend.Note; got == "" {
		t.Error("no reason given")
	}
}

// At 80×24 the whole confirmation shows, so a purchase can be confirmed there.
func TestFitsEightyByTwentyFour(t *testing.T) {
	p, _ := New(uitest.Env(screen.Rect{W: 80, H: 21}, true), uitest.Offering())
	p.spend.Answer(p.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	if why := p.spend.Blocker(p.why()); why != "" {
		t.Fatalf("at 80×24: %s", why)
	}
}

// buy and enter before the dry run has answered, or after it refused: nothing is sent and
// the dialog says why.
func TestNotBeforeTheDryRunAllows(t *testing.T) {
	p, _ := New(uitest.Env(body, true), uitest.Offering())
	p.spend.Field.SetValue("buy")
	d, cmd, closed := p.Update(press("enter"))
	if closed || cmd != nil || d.(Model).spend.Busy() || !strings.Contains(d.(Model).spend.Note, "dry run") {
		t.Fatalf("enter while checking: closed=%v cmd=%v dialog=%+v", closed, cmd != nil, d)
	}
	// Refused: the confirmation is not offered; enter closes without buying.
	d, _, _ = d.Update(answered(p, source.Permission{Action: "ec2:PurchaseCapacityBlock"}, nil))
	if v := ansi.Strip(d.View(160, 45)); !strings.Contains(v, "NOT ALLOWED: this identity lacks ec2:PurchaseCapacityBlock") || strings.Contains(v, "Type buy") {
		t.Errorf("refused dry run:\n%s", v)
	}
	d, cmd, closed = d.Update(press("enter"))
	if !closed || d.(Model).spend.Busy() {
		t.Fatalf("enter after a refusal: closed=%v buying=%v", closed, d.(Model).spend.Busy())
	}
	// The word typed too early was cleared by the first refusal.
	if msg, ok := cmd().(dialog.RootMsg); !ok || !strings.Contains(msg.Flash, "nothing was bought") {
		t.Errorf("the cancel says %+v", msg)
	}
}

// states are the dialog in each of its states, in a body of size.
func states(size screen.Rect) map[string]Model {
	env := uitest.Env(size, true)
	o := uitest.Offering()
	out := map[string]Model{}
	p, _ := New(env, o)
	out["checking"] = p
	ok := p
	ok.spend.Answer(ok.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	ok.spend.Field.SetValue("bu")
	out["allowed"] = ok
	denied := p
	denied.spend.Answer(denied.spend.CheckID(), source.Permission{Action: "ec2:PurchaseCapacityBlock"}, nil)
	out["denied"] = denied
	capEnv := env
	low := model.MustMoney("100")
	capEnv.MaxSpend = &low
	over, _ := New(capEnv, o)
	out["over cap"] = over
	unknown := ok
	unknown.spend.Settle(&source.ActionError{Outcome: source.Unknown, Explanation: source.Explanation{Summary: "The purchase may or may not have gone through.", Hint: "Do not buy again."}})
	out["unknown"] = unknown
	sold := ok
	sold.spend.Settle(&source.ActionError{Explanation: source.Explanation{Summary: "sold", Code: "InvalidCapacityBlockOfferingIdExpired"}})
	out["sold"] = sold
	buying := ok
	buying.spend.Field.SetValue("buy")
	buying.spend.Confirm("")
	out["buying"] = buying
	return out
}

// Every state fits every size from 20×5 to 400×120 and never panics; the footer names the
// keys of the state: the word to type, or the wait for AWS.
func TestEveryState(t *testing.T) {
	uitest.EveryState(t, states(body), map[string]string{"allowed": "type buy then enter", "buying": "waiting for AWS's answer"})
}

// The dry run's answer lines up with the values above it.
func TestDryRunInLine(t *testing.T) {
	v := ansi.Strip(states(body)["allowed"].View(body.W, body.H))
	_, a := uitest.ValueAt(v, "Account", "123456789012")
	if _, d := uitest.ValueAt(v, "Dry run", "✓"); a < 0 || a != d {
		t.Errorf("account value at %d, dry run answer at %d:\n%s", a, d, v)
	}
}

// The dialog shows model's facts, each on its labelled row, in order, in the words the
// commands print, and ends in what cannot be undone.
func TestShowsTheFactsInOrder(t *testing.T) {
	env := uitest.Env(screen.Rect{W: 300, H: 77}, true)
	o := uitest.Offering()
	d, _ := New(env, o)
	f := model.PurchaseFacts(o, uitest.Account, d.cmp.BreakEven(), env.Location)
	uitest.ShowsFacts(t, "the purchase dialog", d.lines(290), f)
}

// An interrupted run's purchase found at the call itself (the preparation missed it) is
// said as bought, never as nothing charged.
func TestAlreadyBoughtAtTheCall(t *testing.T) {
	d := states(body)["buying"]
	d.spend.Settle(&source.ActionError{Err: source.ErrAlreadyBought, Outcome: source.Bought, Explanation: source.Explanation{
		Summary: "Already bought: the purchase interrupted at 2026-12-01 08:00 UTC went through as reservation cr-0123456789abcdef0 (fee $6,211.12). Nothing new was bought."}})
	v := strings.Join(strings.Fields(ansi.Strip(d.View(body.W, body.H))), " ")
	for _, want := range []string{"ALREADY BOUGHT", "cr-0123456789abcdef0", "Nothing new was bought"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Nothing was charged") {
		t.Errorf("the dialog says nothing was charged for a block that was bought:\n%s", v)
	}
}

// Every field of the dialog, a block's or a plan's, starts its value in one column: the
// facts', the tags' and the dry run's labels are as wide as each other.
func TestValuesInOneColumn(t *testing.T) {
	for _, src := range []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan} {
		d := testDialog(t, src, nil)
		cols := map[string]int{}
		for _, l := range d.lines(100) {
			l = ansi.Strip(l)
			for _, label := range []string{"Account", "Upfront fee", "Offering", "Tags", "Dry run"} {
				if rest, ok := strings.CutPrefix(l, "  "+label); ok && strings.HasPrefix(rest, " ") {
					cols[label] = len(l) - len(strings.TrimLeft(rest, " "))
				}
			}
		}
		if len(cols) != 5 {
			t.Fatalf("%v: found the labels %v, want 5", src, cols)
		}
		for label, c := range cols {
			if c != cols["Account"] {
				t.Errorf("%v: %s's value starts at %d, Account's at %d", src, label, c, cols["Account"])
			}
		}
	}
}

// blocksBackend answers what the AWS backend answers of Capacity Blocks without a call:
// their capabilities and the platforms a block may be bought for.
type blocksBackend struct{ source.Backend }

func (blocksBackend) Caps(model.Source) source.Caps {
	return source.Caps{DryRun: true, Launch: true, PurchaseAction: "ec2:PurchaseCapacityBlock", ExtendAction: "ec2:PurchaseCapacityBlockExtension"}
}

func (blocksBackend) Platforms() []string {
	return []string{"Linux/UNIX", "Red Hat Enterprise Linux", "SUSE Linux", "Windows", "Ubuntu Pro"}
}

// The purchase dialog, LIVE and SIMULATED, on a fixed offering and clock, after the dry run
// allowed it: the goldens show the whole confirmation as a person reads it, without colour,
// where only words and borders tell the modes apart.
func TestPurchaseDialogGolden(t *testing.T) {
	for _, mode := range []struct {
		name      string
		simulated bool
		must      []string
		mustNot   string
	}{
		{"LIVE", false, []string{"╔═ LIVE — REAL MONEY", "LIVE — REAL MONEY  this buys a real Capacity Block on account 123456789012"}, "SIMULATED"},
		{"SIMULATED", true, []string{"╭┄ SIMULATED — nothing real", "SIMULATED  the emulator: nothing real is bought"}, "REAL MONEY"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			env := uitest.Env(screen.Rect{W: 110, H: 37}, true) // the body of a 110×40 terminal
			env.Simulated = mode.simulated
			env.Backend = blocksBackend{}
			d, _ := New(env, uitest.Offering())
			dd := allowed(d, d)
			view := ansi.Strip(dd.View(110, 37))
			for _, s := range mode.must {
				if !strings.Contains(view, s) {
					t.Errorf("lacks %q:\n%s", s, view)
				}
			}
			if strings.Contains(view, mode.mustNot) {
				t.Errorf("a %s dialog says %q:\n%s", mode.name, mode.mustNot, view)
			}
			for _, s := range []string{"$6,211.12 USD", "exactly $6211.123456", "2026-12-03 11:30 UTC · 2026-12-03 03:30 PST", model.Irrevocable[:50]} {
				if !strings.Contains(view, s) {
					t.Errorf("lacks %q:\n%s", s, view)
				}
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}
