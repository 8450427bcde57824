package launch

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

var press = uitest.Key

// body is the dialog's body in a terminal of 160×48 under the root's header and footer.
var body = screen.Rect{W: 160, H: 45}

// states are the form in each of its states, in a body of size.
func states(size screen.Rect) map[string]Model {
	env := uitest.Env(size, true)
	out := map[string]Model{}
	l, _ := New(env, uitest.Block(model.StateActive))
	l.subnetsIn, l.subnets = true, []source.Subnet{{ID: "subnet-0123456789abcdef0", AvailabilityZone: "us-east-1a", Default: true}}
	out["form"] = l
	checked := l
	checked.spend.Answer(checked.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:RunInstances"}, nil)
	out["checked"] = checked
	bad := l
	bad.spend.Answer(bad.spend.CheckID(), source.Permission{}, errors.New("Subnet subnet-1 is in us-east-1b, but the block is in us-east-1a."))
	out["wrong zone"] = bad
	ls, _ := New(env, uitest.Block(model.StateScheduled))
	ls.spend.Settle(nil)
	ls.attached = &source.AttachedLaunch{ReservationID: ls.block.ReservationID, Region: ls.block.Region,
		Spec: source.LaunchSpec{ImageID: DemoAMI, Count: 2}, State: "pending"}
	out["attached"] = ls
	done := checked
	res := source.LaunchResult{SubnetID: "subnet-0123456789abcdef0", Instances: []model.Instance{{ID: "i-0123456789abcdef0", State: "pending"}, {ID: "i-0123456789abcdef1", State: "running"}}}
	done.result, done.instances = &res, res.Instances
	out["done"] = done
	failed := checked
	failed.spend.Settle(&source.ActionError{Explanation: source.Explanation{Summary: "RunInstances failed."}})
	out["failed"] = failed
	return out
}

// Every state fits every size from 20×5 to 400×120 and never panics; the footer names the
// form's keys: the word to type, or the copy of what it launched.
func TestEveryState(t *testing.T) {
	uitest.EveryState(t, states(body), map[string]string{"form": "type launch then enter", "done": "y copy the instance ids"})
}

// launch typed while the form was too small to be read whole is spent: nothing is launched
// or attached on it, even once the terminal is large enough.
func TestWordTypedWhileTooSmallIsCleared(t *testing.T) {
	env := uitest.Env(screen.Rect{W: 104, H: 8}, false)
	for _, state := range []model.BlockState{model.StateActive, model.StateScheduled} {
		l, _ := New(env, uitest.Block(state))
		l.spend.Answer(l.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:RunInstances"}, nil)
		if l.fits() {
			t.Fatal("the form fits 104×8; the test wants one that does not")
		}
		typeWord(&l, "launch")
		got, cmd, closed := l.Update(press("enter"))
		ld := got.(Model)
		if cmd != nil || closed || ld.Busy() || ld.attached != nil || ld.spend.Typed() != "" || !strings.Contains(ld.spend.Note, "cleared") {
			t.Fatalf("%s, too small: cmd %v, closed %v, busy %v, attached %v, word %q, note %q", state, cmd != nil, closed, ld.Busy(), ld.attached != nil, ld.spend.Typed(), ld.spend.Note)
		}
		got, _, _ = got.Update(dialog.SizeMsg{W: 160, H: 45})
		if !got.(Model).fits() {
			t.Fatal("the form does not fit 160×45")
		}
		if got, cmd, _ = got.Update(press("enter")); cmd != nil || got.(Model).Busy() || got.(Model).attached != nil {
			t.Fatalf("%s: enter went ahead on a word typed while the form was too small", state)
		}
	}
}

// The form's values start in one column: the block's fields and the form's.
func TestInLine(t *testing.T) {
	v := ansi.Strip(states(body)["form"].View(body.W, body.H))
	col := func(label string) int {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, label+" "); i >= 0 {
				rest := l[i+len(label):]
				return ansi.StringWidth(l[:i+len(label)]) + len(rest) - len(strings.TrimLeft(rest, " "))
			}
		}
		return -1
	}
	if b, a, c := col("Capacity"), col("AMI"), col("Count"); b < 0 || b != a || a != c {
		t.Errorf("Capacity's value at %d, AMI's at %d, Count's at %d:\n%s", b, a, c, v)
	}
}

// The dry-run answer is a field like the purchase dialog's: it starts in the column of the
// values above it, and a long answer wraps under itself (in a terminal of 80×40).
func TestDryRunInLine(t *testing.T) {
	size := screen.Rect{W: 80, H: 37}
	s := states(size)
	for _, c := range []struct{ state, answer, rest string }{
		{"checked", "✓ allowed (ec2:RunInstances)", ""},
		{"wrong zone", "✗ Subnet subnet-1", "us-east-1a."},
	} {
		view := ansi.Strip(s[c.state].View(size.W, size.H))
		lines := strings.Split(view, "\n")
		_, block := uitest.ValueAt(view, "Block", "cr-")
		row, dry := uitest.ValueAt(view, "Dry run", c.answer)
		if block < 0 || dry != block {
			t.Errorf("%s: the block's value at %d, the dry run's answer at %d:\n%s", c.state, block, dry, strings.Join(lines, "\n"))
			continue
		}
		if c.rest == "" {
			continue
		}
		// The wrapped rest of the answer hangs under its start.
		var found bool
		for _, l := range lines[row+1:] {
			if i := strings.Index(l, c.rest); i >= 0 {
				found = true
				inner := strings.TrimPrefix(l, "┆")
				lead := ansi.StringWidth(inner) - ansi.StringWidth(strings.TrimLeft(inner, " ")) + 1
				if lead != dry {
					t.Errorf("%s: the answer's second line starts at %d, its first at %d:\n%s", c.state, lead, dry, strings.Join(lines, "\n"))
				}
				break
			}
		}
		if !found {
			t.Errorf("%s: the answer did not wrap at 80 columns:\n%s", c.state, strings.Join(lines, "\n"))
		}
	}
}

// The form shows model's facts, each on its labelled row, in order, in the words the
// commands print.
func TestShowsTheFactsInOrder(t *testing.T) {
	env := uitest.Env(screen.Rect{W: 300, H: 77}, true)
	b := uitest.Block(model.StateActive)
	d, _ := New(env, b)
	f := model.LaunchFacts(b, uitest.Account, "", env.Location)
	uitest.ShowsFacts(t, "the launch dialog", d.lines(290), f)
}
