package blocks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// attachBackend lists blocks with the launches attached to them and records cancels.
type attachBackend struct {
	source.Backend
	blocks   []model.Block
	attached []source.AttachedLaunch
	readErr  error
	mu       sync.Mutex
	cancels  []string
}

func (a *attachBackend) Blocks(context.Context, []string) (source.BlockList, error) {
	return source.BlockList{Blocks: a.blocks, Now: testNow}, nil
}

func (a *attachBackend) AttachedLaunches(context.Context) ([]source.AttachedLaunch, error) {
	return a.attached, a.readErr
}

func (a *attachBackend) CancelAttached(_ context.Context, id string) (source.AttachedLaunch, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancels = append(a.cancels, id)
	return source.AttachedLaunch{ReservationID: id, State: "cancelled", Spec: a.attached[0].Spec}, nil
}

func (a *attachBackend) cancelled() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.cancels...)
}

func pendingLaunch(id string) source.AttachedLaunch {
	return source.AttachedLaunch{ReservationID: id, Region: "us-east-1", State: "pending", AttachedAt: testNow,
		Spec: source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 2, Name: "train"}}
}

// scheduledAttached is a backend of one scheduled block with a pending launch attached,
// and the screen as the backend lists them, through the screen's own listing command.
func scheduledAttached(t *testing.T, readOnly bool, w, h int) (shown, *attachBackend) {
	t.Helper()
	b := block("cr-sched", model.StateScheduled)
	b.Start, b.End = testNow.Add(5*24*time.Hour), testNow.Add(6*24*time.Hour)
	be := &attachBackend{blocks: []model.Block{b}, attached: []source.AttachedLaunch{
		{ReservationID: "cr-sched", State: "cancelled", AttachedAt: testNow.Add(-time.Hour), Spec: source.LaunchSpec{ImageID: "ami-old", Count: 1}},
		pendingLaunch("cr-sched"),
	}}
	pc := uitest.Context(readOnly)
	pc.Backend = be
	s := shown{New(pc, Options{Visible: true})}
	s = update(s, tea.WindowSizeMsg{Width: w, Height: h})
	// The screen's own listing command, as Init and every refresh run it.
	s, _, _ = step(t, s, listCmd(be, context.Background(), s.ListingID(), nil, false))
	if s.Table().Len() != 1 {
		t.Fatalf("the listing shows %d blocks", s.Table().Len())
	}
	return s, be
}

// step runs cmd, one that answers at once (no tick, no batch), and hands its answer to
// the screen; it returns the answer and the command the screen gave back.
func step(t *testing.T, s shown, cmd tea.Cmd) (shown, tea.Msg, tea.Cmd) {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command to run")
	}
	msg := cmd()
	if !Owns(msg) {
		t.Fatalf("the command answered %T", msg)
	}
	var next tea.Cmd
	s.Model, next = s.Model.update(msg)
	return s, msg, next
}

// The detail of a block with a launch attached says it is pending, with its count and
// image, and that it runs at the block's start; the cancelled one before it is not shown.
func TestBlocksDetailShowsAttachedLaunch(t *testing.T) {
	s, _ := scheduledAttached(t, false, 160, 48)
	v := ansi.Strip(s.render())
	for _, want := range []string{"Attached", "launch pending", "x cancels", "2 × p5.48xlarge from ami-0123456789abcdef0", "at the block's start", `Name "train"`} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail does not say %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "ami-old") {
		t.Errorf("the detail shows the cancelled launch, not the pending one:\n%s", v)
	}
	if l, ok := s.Attached("cr-sched"); !ok || !l.Pending() {
		t.Errorf("the screen keeps %+v for cr-sched", l)
	}
	// Read-only: the launch is shown, not the key that would cancel it.
	ro, _ := scheduledAttached(t, true, 160, 48)
	if v := ansi.Strip(ro.render()); !strings.Contains(v, "launch pending") || strings.Contains(v, "x cancels") {
		t.Errorf("read-only detail:\n%s", v)
	}
}

// A launched or failed one says what it started, or why not.
func TestBlocksDetailAttachedStates(t *testing.T) {
	b := block("cr-1", model.StateActive)
	for _, tc := range []struct {
		l    source.AttachedLaunch
		want string
	}{
		{source.AttachedLaunch{ReservationID: "cr-1", State: "launched", Instances: []string{"i-aaa", "i-bbb"}}, "launch launched i-aaa, i-bbb"},
		{source.AttachedLaunch{ReservationID: "cr-1", State: "failed", Reason: "InsufficientInstanceCapacity"}, "launch failed: InsufficientInstanceCapacity"},
		{source.AttachedLaunch{ReservationID: "cr-1", State: "cancelled"}, "launch cancelled"},
	} {
		m := New(uitest.Context(false), Options{Visible: true})
		m.SetArea(screen.Area{Top: 1, Width: 160, Height: 44})
		m, _ = m.update(ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: []model.Block{b}, Now: testNow}, Attached: []source.AttachedLaunch{tc.l}})
		if v := ansi.Strip(m.render()); !strings.Contains(v, tc.want) || strings.Contains(v, "x cancels") {
			t.Errorf("%s: the detail does not say %q (and no x):\n%s", tc.l.State, tc.want, v)
		}
	}
}

// x asks first; n keeps the launch and calls nothing; y cancels it through the backend,
// says so and lists again, after which x is not offered.
func TestBlocksCancelAttachedAsks(t *testing.T) {
	s, be := scheduledAttached(t, false, 160, 48)
	s, cmd := keyTo(s, "x")
	if cmd != nil || !s.Asking() || !s.Typing() {
		t.Fatalf("x did not ask first (asking %v, cmd %v)", s.Asking(), cmd != nil)
	}
	if got := s.Flash().Apply(""); !strings.Contains(got, "Cancel the launch attached to cr-sched") || !strings.Contains(got, "y cancels") {
		t.Errorf("x asks %q", got)
	}
	s, cmd = keyTo(s, "n")
	if cmd != nil {
		t.Errorf("n asked for %T", cmd())
	}
	if s.Asking() || len(be.cancelled()) != 0 {
		t.Errorf("n: asking %v, cancelled %v", s.Asking(), be.cancelled())
	}
	if got := s.Flash().Apply(""); !strings.Contains(got, "Kept") {
		t.Errorf("n says %q", got)
	}
	if s.pc.NotifyOff {
		t.Error("n as an answer switched the notifications")
	}

	s, _ = keyTo(s, "x")
	s, cmd = keyTo(s, "y")
	if cmd == nil {
		t.Fatal("y cancelled nothing")
	}
	be.attached = []source.AttachedLaunch{{ReservationID: "cr-sched", State: "cancelled", Spec: pendingLaunch("").Spec}}
	s, _, next := step(t, s, cmd)
	if got := be.cancelled(); len(got) != 1 || got[0] != "cr-sched" {
		t.Errorf("the backend was asked to cancel %v", got)
	}
	if got := s.Flash().Apply(""); !strings.Contains(got, "Cancelled the launch attached to cr-sched") {
		t.Errorf("after y the line says %q", got)
	}
	if next == nil {
		t.Fatal("the blocks were not listed again after the cancel")
	}
	s, msg, _ := step(t, s, next)
	if _, ok := msg.(ListedMsg); !ok {
		t.Fatalf("after the cancel the screen asked for %T, not a listing", msg)
	}
	if v := ansi.Strip(s.render()); !strings.Contains(v, "launch cancelled") {
		t.Errorf("after the cancel the detail shows:\n%s", v)
	}
	if _, ok := s.pendingSelected(); ok {
		t.Error("the cancelled launch is still pending")
	}
}

// The cancel's outcome is said on the status line.
func TestBlocksCancelAttachedSaysOutcome(t *testing.T) {
	s, _ := scheduledAttached(t, false, 160, 48)
	s, _ = keyTo(s, "x")
	s, cmd := keyTo(s, "y")
	msg := cmd()
	s.Model, _ = s.Model.update(msg)
	if got := s.Flash().Apply(""); !strings.Contains(got, "Cancelled the launch attached to cr-sched") {
		t.Errorf("after y the line says %q", got)
	}
	s.Model, _ = s.Model.update(cancelledMsg{id: "cr-sched", err: errors.New("refused")})
	if got := s.Flash().Apply(""); !strings.Contains(got, "Could not cancel the launch attached to cr-sched: refused") {
		t.Errorf("a refusal says %q", got)
	}
}

// The footer names x only where it applies: a block with a pending launch, not read-only;
// help lists it unless read-only.
func TestBlocksCancelAttachedHelp(t *testing.T) {
	names := func(ks []key.Binding) bool {
		for _, k := range ks {
			if k.Help().Key == "x" && k.Enabled() {
				return true
			}
		}
		return false
	}
	inHelp := func(m Model) bool {
		for _, g := range m.KeyGroups() {
			if names(g.Keys) {
				return true
			}
		}
		return false
	}
	s, _ := scheduledAttached(t, false, 160, 48)
	if names(s.shortHelp()) {
		t.Error("the table's footer names x")
	}
	d, _ := keyTo(s, "enter")
	if !names(d.shortHelp()) {
		t.Error("the detail's footer does not name x on a block with a pending launch")
	}
	if !inHelp(s.Model) {
		t.Error("help does not list x")
	}
	plain := listed(t, false, block("cr-1", model.StateScheduled))
	plain, _ = press(plain, "d")
	if names(plain.shortHelp()) {
		t.Error("the detail's footer names x on a block without an attached launch")
	}
	if _, cmd := press(plain, "x"); cmd != nil {
		t.Error("x on a block without an attached launch asked for something")
	}
	ro, be := scheduledAttached(t, true, 160, 48)
	rod, _ := keyTo(ro, "enter")
	if names(rod.shortHelp()) || inHelp(ro.Model) {
		t.Error("read-only: x is offered")
	}
	ro, _ = keyTo(ro, "x")
	ro, cmd := keyTo(ro, "y")
	if ro.Asking() || len(be.cancelled()) != 0 || (cmd != nil && msgIsCancel(cmd)) {
		t.Error("read-only: x cancelled")
	}
}

func msgIsCancel(cmd tea.Cmd) bool { _, ok := cmd().(cancelledMsg); return ok }

// A failure to read the attached launches is said once, and the blocks stand.
func TestBlocksAttachedReadFailureSaidOnce(t *testing.T) {
	s, be := scheduledAttached(t, false, 160, 48)
	be.readErr = errors.New("attached launches file: permission denied")
	s, _, _ = step(t, s, listCmd(be, context.Background(), s.ListingID(), nil, false))
	if got := s.Flash().Apply(""); !strings.Contains(got, "permission denied") {
		t.Errorf("the failure is not said: %q", got)
	}
	if s.Table().Len() != 1 {
		t.Errorf("the blocks went away: %d", s.Table().Len())
	}
	if _, ok := s.Attached("cr-sched"); !ok {
		t.Error("the attached launch read before went away")
	}
	s, _, _ = step(t, s, listCmd(be, context.Background(), s.ListingID(), nil, false))
	if got := s.Flash().Apply("before"); strings.Contains(got, "permission denied") {
		t.Errorf("the same failure is said again: %q", got)
	}
}

// The detail with an attached launch, and its question, fit every size.
func TestBlocksAttachedFits(t *testing.T) {
	for _, sz := range uitest.Sizes() {
		s, _ := scheduledAttached(t, false, sz[0], sz[1])
		body := max(sz[1]-2, 1) // between the header and the status line; an empty view is a line
		uitest.CheckFits(t, "blocks with an attached launch", s.render(), sz[0], body)
		s, _ = keyTo(s, "enter")
		uitest.CheckFits(t, "its detail", s.render(), sz[0], body)
		s, _ = keyTo(s, "x")
		uitest.CheckFits(t, "its detail asking", s.render(), sz[0], body)
	}
}

// keyTo hands the screen a key, as the root would.
func keyTo(s shown, k string) (shown, tea.Cmd) {
	var cmd tea.Cmd
	s.Model, cmd = s.Model.update(uitest.Key(k))
	return s, cmd
}
