package launch

import (
	"context"
	"fmt"
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

// groupRecorder is a backend that records, per reservation, what the form checks,
// launches and attaches; refuseInto refuses the launch or attachment into one reservation.
type groupRecorder struct {
	source.Backend
	mu                          sync.Mutex
	checked, launched, attached []string // "cr-…:count:subnet"
	refuseInto                  string
}

func (r *groupRecorder) Subnets(context.Context, string, string) ([]source.Subnet, error) {
	return []source.Subnet{{ID: "subnet-1", AvailabilityZone: "us-east-1a", Default: true}}, nil
}

func (r *groupRecorder) note(to *[]string, b model.Block, spec source.LaunchSpec) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b.ReservationID == r.refuseInto && to != &r.checked {
		return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: "InsufficientInstanceCapacity."}}
	}
	*to = append(*to, fmt.Sprintf("%s:%d:%s", b.ReservationID, spec.Count, spec.SubnetID))
	return nil
}

func (r *groupRecorder) CheckLaunch(_ context.Context, b model.Block, spec source.LaunchSpec) (source.Permission, error) {
	return source.Permission{Allowed: true, Action: "ec2:RunInstances"}, r.note(&r.checked, b, spec)
}

func (r *groupRecorder) Launch(_ context.Context, b model.Block, spec source.LaunchSpec) (source.LaunchResult, error) {
	if err := r.note(&r.launched, b, spec); err != nil {
		return source.LaunchResult{}, err
	}
	var res source.LaunchResult
	for i := range spec.Count {
		res.Instances = append(res.Instances, model.Instance{ID: fmt.Sprintf("i-%s-%d", b.AvailabilityZone, i), ReservationID: b.ReservationID, State: "running"})
	}
	return res, nil
}

// AttachLaunches attaches all or none, as the backend's does.
func (r *groupRecorder) AttachLaunches(_ context.Context, shares []model.LaunchShare, spec source.LaunchSpec) ([]source.AttachedLaunch, error) {
	for _, sh := range shares {
		if sh.Block.ReservationID == r.refuseInto {
			return nil, &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: sh.Block.ReservationID + " has a launch attached already."}}
		}
	}
	var out []source.AttachedLaunch
	for _, sh := range shares {
		one := withCount(spec, sh.Count)
		_ = r.note(&r.attached, sh.Block, one)
		out = append(out, source.AttachedLaunch{ReservationID: sh.Block.ReservationID, Region: sh.Block.Region, Spec: one, State: "pending"})
	}
	return out, nil
}

// twoSegments are the two reservations one purchase of a segmented offering made, side
// by side in two zones, in state, each with 2 free.
func twoSegments(state model.BlockState) []model.Block {
	a := uitest.Block(state)
	a.Tags = map[string]string{model.PurchaseTag: "gpb-1"}
	b := a
	b.ReservationID, b.AvailabilityZone = "cr-0123456789abcdef1", "us-east-1b"
	return model.Group([]model.Block{b, a}, a)
}

// groupForm is the launch form on the first of two segments, its backend r.
func groupForm(state model.BlockState, r *groupRecorder) Model {
	env := uitest.Env(body, true)
	env.Backend = r
	g := twoSegments(state)
	d, cmd := NewInGroup(env, g[0], g)
	return run(d, cmd)
}

// keys presses each key in turn, running what each asks.
func keys(d Model, ks ...string) Model {
	for _, k := range ks {
		m, cmd, _ := d.Update(press(k))
		d = run(m.(Model), cmd)
	}
	return d
}

func flat(v string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(v), "┆", " ")), " ")
}

// On a block its purchase made with another, the form names the group and launches into
// the block alone until asked; chosen, across all, the count becomes the group's free
// count, each zone's default subnet is used, every share is checked (its dry run) and,
// after one typed confirmation, launched, each its share as `launch --group` spreads it.
func TestLaunchAcrossThePurchasesReservations(t *testing.T) {
	r := &groupRecorder{}
	d := groupForm(model.StateActive, r)
	v := flat(d.View(body.W, body.H))
	for _, want := range []string{"1 of 2 reservations bought together: cr-0123456789abcdef0 (us-east-1a), cr-0123456789abcdef1 (us-east-1b)",
		"Into cr-0123456789abcdef0 only", "all 2 reservations of its purchase"} {
		if !strings.Contains(v, want) {
			t.Errorf("the form does not say %q:\n%s", want, v)
		}
	}
	if len(r.checked) != 1 || r.checked[0] != "cr-0123456789abcdef0:2:subnet-1" {
		t.Fatalf("on opening, checked %v; want the block alone", r.checked)
	}

	d = keys(d, "shift+tab", "down")
	if !d.across || d.fields[lfCount].Value() != "4" {
		t.Fatalf("↑/↓ on Into: across %v, count %q; want across, 4", d.across, d.fields[lfCount].Value())
	}
	v = flat(d.View(body.W, body.H))
	for _, want := range []string{"all 2 reservations of its purchase", "2 into cr-0123456789abcdef0 (us-east-1a), 2 into cr-0123456789abcdef1 (us-east-1b)",
		"each reservation in its own zone's default subnet"} {
		if !strings.Contains(v, want) {
			t.Errorf("across, the form does not say %q:\n%s", want, v)
		}
	}
	d = keys(d, "tab")
	if want := []string{"cr-0123456789abcdef0:2:", "cr-0123456789abcdef1:2:"}; fmt.Sprint(r.checked[1:]) != fmt.Sprint(want) {
		t.Fatalf("across, checked %v; want %v", r.checked[1:], want)
	}
	if !strings.Contains(flat(d.View(body.W, body.H)), "✓ allowed") {
		t.Fatalf("the dry run across the group does not allow:\n%s", flat(d.View(body.W, body.H)))
	}
	d = keys(d, "l", "a", "u", "n", "c", "h", "enter")
	if want := []string{"cr-0123456789abcdef0:2:", "cr-0123456789abcdef1:2:"}; fmt.Sprint(r.launched) != fmt.Sprint(want) {
		t.Fatalf("launched %v; want %v", r.launched, want)
	}
	v = flat(d.View(body.W, body.H))
	if !strings.Contains(v, "LAUNCHED 4 instances across 2 reservations") || !strings.Contains(v, "i-us-east-1b-1") {
		t.Errorf("the result does not say the launch across the group:\n%s", v)
	}
	if d = keys(d, "enter"); len(r.launched) != 2 {
		t.Errorf("enter after the launch launched again: %v", r.launched)
	}
}

// More than the group holds is refused before any call, in the words of `launch --group`.
func TestLaunchAcrossRefusesMoreThanTheGroupHolds(t *testing.T) {
	r := &groupRecorder{}
	d := groupForm(model.StateActive, r)
	d = keys(d, "shift+tab", "down", "shift+tab", "backspace", "5", "tab", "tab")
	v := flat(d.View(body.W, body.H))
	if !strings.Contains(v, "the 2 reservations of this purchase have 4 instances free, not 5") {
		t.Errorf("5 across 4 free is not refused:\n%s", v)
	}
	d = keys(d, "l", "a", "u", "n", "c", "h", "enter")
	if len(r.launched) != 0 || len(r.checked) != 1 {
		t.Errorf("over the group's free count: checked %v, launched %v", r.checked, r.launched)
	}
}

// A launch that fails into the second reservation stops there, and the form says what was
// launched into the first before it.
func TestLaunchAcrossSaysWhatWasLaunchedBeforeAFailure(t *testing.T) {
	r := &groupRecorder{refuseInto: "cr-0123456789abcdef1"}
	d := groupForm(model.StateActive, r)
	d = keys(d, "shift+tab", "down", "tab", "l", "a", "u", "n", "c", "h", "enter")
	v := flat(d.View(body.W, body.H))
	for _, want := range []string{"LAUNCHED before this failure: 2 instances", "i-us-east-1a-0", "NOT LAUNCHED into cr-0123456789abcdef1: InsufficientInstanceCapacity."} {
		if !strings.Contains(v, want) {
			t.Errorf("the form does not say %q:\n%s", want, v)
		}
	}
}

// On a group that has not started, the launch is attached to each reservation's start with
// its share, after one confirmation.
func TestLaunchAcrossAttachesToEachReservation(t *testing.T) {
	r := &groupRecorder{}
	d := groupForm(model.StateScheduled, r)
	d = keys(d, "shift+tab", "down", "tab", "l", "a", "u", "n", "c", "h", "enter")
	if want := []string{"cr-0123456789abcdef0:2:", "cr-0123456789abcdef1:2:"}; fmt.Sprint(r.attached) != fmt.Sprint(want) || len(r.launched) != 0 {
		t.Fatalf("attached %v, launched %v; want %v and no launch", r.attached, r.launched, want)
	}
	if v := flat(d.View(body.W, body.H)); !strings.Contains(v, "ATTACHED across 2 reservations: 2 into cr-0123456789abcdef0, 2 into cr-0123456789abcdef1") {
		t.Errorf("the form does not say what it attached:\n%s", v)
	}
}

// A block its purchase made alone has no choice of reservations.
func TestLaunchOfALoneBlockOffersNoGroup(t *testing.T) {
	d, _ := NewInGroup(uitest.Env(body, true), uitest.Block(model.StateActive), []model.Block{uitest.Block(model.StateActive)})
	if v := flat(d.View(body.W, body.H)); strings.Contains(v, "Into") || strings.Contains(v, "Purchase") {
		t.Errorf("a lone block offers a group:\n%s", v)
	}
	if d.offered(lfAcross) {
		t.Error("a lone block's form takes the focus on Into")
	}
}

// Across a group that has not started, a refusal of one reservation attaches none.
func TestLaunchAcrossAttachesAllOrNone(t *testing.T) {
	r := &groupRecorder{refuseInto: "cr-0123456789abcdef1"}
	d := groupForm(model.StateScheduled, r)
	d = keys(d, "shift+tab", "down", "tab", "l", "a", "u", "n", "c", "h", "enter")
	if len(r.attached) != 0 || d.attached != nil {
		t.Fatalf("attached %v after a refusal of one", r.attached)
	}
	if v := flat(d.View(body.W, body.H)); !strings.Contains(v, "NOT ATTACHED: cr-0123456789abcdef1 has a launch attached already. Nothing will be launched.") {
		t.Errorf("the refusal is not said:\n%s", v)
	}
}

// The form on a group, alone or across, launched and failed, fits every size and never
// panics.
func TestGroupStatesFitEverySize(t *testing.T) {
	alone := groupForm(model.StateActive, &groupRecorder{})
	across := keys(alone, "shift+tab", "down")
	launched := keys(across, "tab", "l", "a", "u", "n", "c", "h", "enter")
	failed := keys(groupForm(model.StateActive, &groupRecorder{refuseInto: "cr-0123456789abcdef1"}), "shift+tab", "down", "tab", "l", "a", "u", "n", "c", "h", "enter")
	attached := keys(groupForm(model.StateScheduled, &groupRecorder{}), "shift+tab", "down", "tab", "l", "a", "u", "n", "c", "h", "enter")
	uitest.EveryStateFits(t, map[string]Model{"alone": alone, "across": across, "launched": launched, "failed": failed, "attached": attached})
}
