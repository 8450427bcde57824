package spend

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

var buy = Action{Word: "buy", Noun: "purchase", Done: "bought", Ask: "buy"}

func typeWord(m *Machine, w string) {
	for _, r := range w {
		m.Type(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var allowed = source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// newTimed is a machine on a clock the test moves by hand.
func newTimed() (Machine, *FakeClock) {
	c := NewFakeClock(t0, 0)
	m := New(buy)
	m.Clock = c.Now
	return m, c
}

// The word goes ahead only once the dry run allowed it and nothing else stands in the way;
// a word typed too early is refused and spent.
func TestTheWordGoesAheadOnlyWhenAllowed(t *testing.T) {
	m, clk := newTimed()
	check := m.Check()
	typeWord(&m, "buy")
	if m.Typed() != "" || !strings.Contains(m.Note, "3 keys typed before the confirmation was readable were discarded; type buy once the dry run has answered") {
		t.Fatalf("typed %q while the dry run is out; note %q", m.Typed(), m.Note)
	}
	if v := m.Confirm(""); v != NotYet || m.Typed() != "" || !strings.Contains(m.Note, "4 keys") {
		t.Fatalf("enter while checking: verdict %v, word %q, note %q", v, m.Typed(), m.Note)
	}
	if m.Answer(check+1, allowed, nil) || m.Phase() != Checking {
		t.Fatal("the answer of another dry run was taken")
	}
	if !m.Answer(check, allowed, nil) || !m.Allowed() {
		t.Fatalf("the answer was not taken: phase %v", m.Phase())
	}
	clk.Advance(model.ConfirmDwell)
	if v := m.Confirm(""); v != Empty || !strings.Contains(m.Note, "Type buy, then enter; esc cancels") {
		t.Fatalf("the early word was not spent: verdict %v, note %q", v, m.Note)
	}
	typeWord(&m, "b")
	if v := m.Confirm(""); v != Wrong || m.Typed() != "" || m.Note != `"b" is not buy: type buy, or esc to cancel.` || m.Phase() != Ready {
		t.Errorf("another word: verdict %v, word %q, note %q, phase %v", v, m.Typed(), m.Note, m.Phase())
	}
	m.Field.SetValue("buy")
	if v := m.Confirm("The terminal is too small."); v != NotYet || m.Typed() != "" || !strings.HasPrefix(m.Note, "The terminal is too small.") {
		t.Errorf("a dialog's own reason: verdict %v, word %q, note %q", v, m.Typed(), m.Note)
	}
	m.Field.SetValue(" buy ")
	if v := m.Confirm(""); v != Go || !m.Busy() || m.Note != "" {
		t.Fatalf("the word, allowed: verdict %v, busy %v, note %q", v, m.Busy(), m.Note)
	}
}

// A refused or failed dry run, or a fee above the cap, offers no word at all.
func TestNothingCanBeTypedWhenRefused(t *testing.T) {
	for name, setup := range map[string]func(m *Machine){
		"refused": func(m *Machine) { m.Answer(m.Check(), source.Permission{Action: "ec2:PurchaseCapacityBlock"}, nil) },
		"failed":  func(m *Machine) { m.Answer(m.Check(), source.Permission{}, errors.New("the network is down.")) },
		"cap":     func(m *Machine) { m.Cap() },
	} {
		m := New(buy)
		setup(&m)
		typeWord(&m, "buy")
		if m.CanType() || m.Typed() != "" || m.Phase() != Refused {
			t.Errorf("%s: can type %v, typed %q, phase %v", name, m.CanType(), m.Typed(), m.Phase())
		}
		if m.Blocker("") == "" {
			t.Errorf("%s: nothing blocks the purchase", name)
		}
	}
	m := New(buy)
	m.Answer(m.Check(), source.Permission{Action: "ec2:PurchaseCapacityBlock"}, nil)
	if tone, s := m.DryRunAnswer(""); tone != ToneRefused || !strings.Contains(s, "NOT ALLOWED: this identity lacks ec2:PurchaseCapacityBlock") || !strings.Contains(s, "Nothing can be bought") {
		t.Errorf("refused answer: %v %q", tone, s)
	}
	m = New(buy)
	m.SkipDryRun("sagemaker:CreateTrainingPlan")
	if tone, s := m.DryRunAnswer("no dry run here"); tone != ToneWarning || s != "no dry run here" || !m.Allowed() {
		t.Errorf("no dry run: %v %q allowed %v", tone, s, m.Allowed())
	}
}

// In flight, the call cannot be called back: other keys only say so, and only a second
// ctrl+c quits.
func TestInFlightOnlyASecondCtrlCQuits(t *testing.T) {
	m := New(buy)
	m.Answer(m.Check(), allowed, nil)
	m.Send()
	if cmd := m.InFlight(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd != nil || !strings.Contains(m.Note, "cannot be stopped") {
		t.Errorf("esc in flight: cmd %v, note %q", cmd != nil, m.Note)
	}
	if cmd := m.InFlight(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd != nil || !m.QuitAsked() || !strings.Contains(m.Note, "ctrl+c again quits") {
		t.Errorf("a first ctrl+c: cmd %v, note %q", cmd != nil, m.Note)
	}
	if cmd := m.InFlight(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd == nil {
		t.Fatal("a second ctrl+c does not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("a second ctrl+c sends %T", cmd())
	}
}

// The outcome reads from the answer: done, unknown, already done, sold, failed.
func TestOutcomes(t *testing.T) {
	for want, err := range map[Outcome]error{
		Succeeded: nil,
		Unknown:   &source.ActionError{Outcome: source.Unknown, Explanation: source.Explanation{Summary: "lost"}},
		Already:   &source.ActionError{Err: source.ErrAlreadyBought, Explanation: source.Explanation{Summary: "already"}},
		Sold:      &source.ActionError{Explanation: source.Explanation{Summary: "sold", Code: "InvalidCapacityBlockOfferingIdExpired"}},
		Failed:    errors.New("refused"),
	} {
		m := New(buy)
		m.Send()
		m.Settle(err)
		if m.Phase() != Done || m.Busy() || m.Outcome() != want {
			t.Errorf("%v: phase %v, outcome %v", err, m.Phase(), m.Outcome())
		}
		if err != nil && (m.Failure == nil || m.Failure.Error() == "") {
			t.Errorf("%v: no failure to show", err)
		}
	}
}

// The footer names the keys of the phase, and nothing the phase does not take.
func TestFooterFollowsThePhase(t *testing.T) {
	m := New(buy)
	m.Answer(m.Check(), allowed, nil)
	if f := m.Footer(); f != "type buy then enter to buy • esc or q cancels" {
		t.Errorf("ready: %q", f)
	}
	m.Send()
	if f := m.Footer(); f != "waiting for AWS's answer • ctrl+c twice quits anyway" {
		t.Errorf("sending: %q", f)
	}
	m.Settle(errors.New("no"))
	if f := m.Footer(); f != "esc, enter or q closes" {
		t.Errorf("done: %q", f)
	}
	c := New(buy)
	c.Cap()
	if f := c.Footer(); f != "esc closes: nothing can be bought here" {
		t.Errorf("over the cap: %q", f)
	}
	if n := len(c.Keys().FullHelp()[0]); n != 1 {
		t.Errorf("over the cap, help names %d keys", n)
	}
}

// The word counts only from keys pressed a dwell after the facts were drawn: a burst that
// lands with the dry run's answer (enter, buy, enter at once) is discarded and said, and an
// enter in it neither confirms nor closes.
func TestKeysBeforeTheDwellAreDiscarded(t *testing.T) {
	m, clk := newTimed()
	m.Answer(m.Check(), allowed, nil)
	typeWord(&m, "buy")
	if v := m.Confirm(""); v != NotYet || m.Busy() || m.Typed() != "" {
		t.Fatalf("a burst with the answer: verdict %v, busy %v, word %q", v, m.Busy(), m.Typed())
	}
	if want := "4 keys typed before the confirmation was readable were discarded; type buy now."; m.Note != want {
		t.Errorf("note %q, want %q", m.Note, want)
	}
	clk.Advance(model.ConfirmDwell - time.Millisecond)
	typeWord(&m, "b")
	if m.Typed() != "" || m.Readable() || !strings.Contains(m.Note, "5 keys") {
		t.Fatalf("a key 1 ms before the dwell counted: word %q, note %q", m.Typed(), m.Note)
	}
	clk.Advance(time.Millisecond)
	if !m.Readable() {
		t.Fatal("not readable once the dwell has passed")
	}
	typeWord(&m, "buy")
	if m.Typed() != "buy" || m.Note != "" {
		t.Fatalf("after the dwell: word %q, note %q", m.Typed(), m.Note)
	}
	// Another answer (a platform changed) is new facts: the dwell starts again.
	m.Answer(m.Check(), allowed, nil)
	typeWord(&m, "buy")
	if m.Typed() != "" || !strings.HasPrefix(m.Note, "3 keys") {
		t.Fatalf("a new answer kept no dwell: word %q, note %q", m.Typed(), m.Note)
	}
	clk.Advance(model.ConfirmDwell)
	typeWord(&m, "buy")
	if v := m.Confirm(""); v != Go || !m.Busy() {
		t.Fatalf("the word typed after the dwell: verdict %v", v)
	}
}

// A source without a dry run starts the dwell when its sentence is shown.
func TestTheDwellStartsWhenNoDryRunIsSaid(t *testing.T) {
	m, clk := newTimed()
	m.SkipDryRun("sagemaker:CreateTrainingPlan")
	typeWord(&m, "buy")
	if m.Typed() != "" || !strings.HasPrefix(m.Note, "3 keys") {
		t.Fatalf("typed at once: %q, note %q", m.Typed(), m.Note)
	}
	clk.Advance(model.ConfirmDwell)
	typeWord(&m, "buy")
	if v := m.Confirm(""); v != Go {
		t.Fatalf("after the dwell: verdict %v, note %q", v, m.Note)
	}
}

// A paste never types into the field and never confirms, even after the dwell.
func TestAPasteNeverConfirms(t *testing.T) {
	m, clk := newTimed()
	m.Answer(m.Check(), allowed, nil)
	clk.Advance(time.Hour)
	m.Paste()
	if m.Typed() != "" || !strings.Contains(m.Note, "A paste never confirms") {
		t.Fatalf("after a paste: word %q, note %q", m.Typed(), m.Note)
	}
	if v := m.Confirm(""); v == Go {
		t.Fatal("an enter after a paste confirmed")
	}
}

// The test clock: a reading moves it Step; Advance moves it by hand.
func TestFakeClock(t *testing.T) {
	c := NewFakeClock(t0, time.Second)
	if a, b := c.Now(), c.Now(); !a.Equal(t0) || b.Sub(a) != time.Second {
		t.Errorf("readings %v %v", a, b)
	}
	c.Advance(time.Minute)
	if got := c.Now(); got.Sub(t0) != time.Minute+2*time.Second {
		t.Errorf("after Advance: %v", got)
	}
}
