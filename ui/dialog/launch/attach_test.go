package launch

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// recorder is a backend that records what the form asks of it.
type recorder struct {
	source.Backend
	mu       sync.Mutex
	attached []source.LaunchSpec
	launched int
	refuse   error
}

func (r *recorder) Subnets(context.Context, string, string) ([]source.Subnet, error) {
	return []source.Subnet{{ID: "subnet-1", AvailabilityZone: "us-east-1a", Default: true}}, nil
}

func (r *recorder) AttachLaunch(_ context.Context, b model.Block, spec source.LaunchSpec) (source.AttachedLaunch, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse != nil {
		return source.AttachedLaunch{}, r.refuse
	}
	r.attached = append(r.attached, spec)
	return source.AttachedLaunch{ReservationID: b.ReservationID, Region: b.Region, Spec: spec, State: "pending"}, nil
}

func (r *recorder) Launch(context.Context, model.Block, source.LaunchSpec) (source.LaunchResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.launched++
	return source.LaunchResult{}, nil
}

func (r *recorder) CheckLaunch(context.Context, model.Block, source.LaunchSpec) (source.Permission, error) {
	return source.Permission{Allowed: true, Action: "ec2:RunInstances"}, nil
}

// run runs cmd and its batches, handing each answer to the form, until none is left.
func run(d Model, cmd tea.Cmd) Model {
	uitest.Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		if msg == nil {
			return nil, false
		}
		m, next, _ := d.Update(msg)
		d = m.(Model)
		return next, false
	})
	return d
}

// On a block that has not started, the typed confirmation attaches the launch through the
// backend and launches nothing; the form says it is attached, when it runs, and how to list
// and cancel it; on a block still being paid for, before and after, that a failed payment
// cancels it. enter again attaches nothing more.
func TestNotStartedBlockAttaches(t *testing.T) {
	const payment = "Its payment is still being collected: a block whose payment fails never starts, and the launch is then cancelled."
	flat := func(v string) string {
		return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(v), "┆", " ")), " ")
	}
	for _, state := range []model.BlockState{model.StateScheduled, model.StatePaymentPending} {
		r := &recorder{}
		d := testForm(t, state)
		d.env.Backend = r
		d.env.AMI = "ami-0123456789abcdef0"
		d.fields[lfAMI].SetValue("ami-0123456789abcdef0")
		if got := strings.Contains(flat(d.View(160, 45)), payment); got != (state == model.StatePaymentPending) {
			t.Errorf("%s: the form says that a failed payment cancels the launch: %v", state, got)
		}
		// Without the word nothing is attached.
		m, cmd, _ := d.Update(press("enter"))
		if d = run(m.(Model), cmd); len(r.attached) != 0 {
			t.Fatalf("%s: attached without the word", state)
		}
		typeWord(&d, "launch")
		m, cmd, _ = d.Update(press("enter"))
		d = run(m.(Model), cmd)
		if len(r.attached) != 1 || r.attached[0].ImageID != "ami-0123456789abcdef0" || r.attached[0].Count != 2 || r.launched != 0 {
			t.Fatalf("%s: attached %+v, launched %d; want one attachment and no launch", state, r.attached, r.launched)
		}
		v := ansi.Strip(d.View(160, 45))
		for _, want := range []string{"ATTACHED to cr-0123456789abcdef0", "2 instances", "gpublock blocks", "gpublock launch --pending", "gpublock launch --cancel cr-0123456789abcdef0"} {
			if !strings.Contains(flat(v), want) {
				t.Errorf("%s: the form does not say %q:\n%s", state, want, v)
			}
		}
		if got := strings.Contains(flat(v), payment); got != (state == model.StatePaymentPending) {
			t.Errorf("%s: attached, the form says that a failed payment cancels the launch: %v", state, got)
		}
		for _, k := range []string{"enter", "l"} {
			m, cmd, _ = d.Update(press(k))
			d = run(m.(Model), cmd)
		}
		if len(r.attached) != 1 || r.launched != 0 {
			t.Errorf("%s: after more keys attached %d, launched %d", state, len(r.attached), r.launched)
		}
	}
}

// esc before the word cancels the form: nothing is attached.
func TestEscAttachesNothing(t *testing.T) {
	r := &recorder{}
	d := testForm(t, model.StateScheduled)
	d.env.Backend = r
	_, cmd, closed := d.Update(press("esc"))
	if !closed || cmd == nil {
		t.Fatal("esc does not close the form")
	}
	if msg, ok := cmd().(dialog.RootMsg); !ok || msg.Flash != "Cancelled: nothing was launched." {
		t.Errorf("esc said %+v", msg)
	}
	if len(r.attached) != 0 {
		t.Errorf("esc attached %d", len(r.attached))
	}
}

// A refusal is said, and nothing is attached or launched.
func TestAttachRefused(t *testing.T) {
	r := &recorder{refuse: &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: "cr-0123456789abcdef0 has a launch attached already."}}}
	d := testForm(t, model.StateScheduled)
	d.env.Backend = r
	d.fields[lfAMI].SetValue("ami-0123456789abcdef0")
	typeWord(&d, "launch")
	m, cmd, _ := d.Update(press("enter"))
	d = run(m.(Model), cmd)
	v := strings.Join(strings.Fields(ansi.Strip(d.View(160, 45))), " ")
	if !strings.Contains(v, "NOT ATTACHED: cr-0123456789abcdef0 has a launch attached already.") || d.attached != nil || r.launched != 0 {
		t.Errorf("refused: attached %v, launched %d:\n%s", d.attached, r.launched, v)
	}
}
