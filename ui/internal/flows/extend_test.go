package flows

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// extendOnScreen opens the blocks screen on an active block (short polls), extends it by
// two days and returns when the dialog says the extension is bought, its payment pending.
func extendOnScreen(t *testing.T, payFail bool) (s *screen, b source.Backend, sim *ec2sim.Server, o model.Offering, bought model.Block) {
	t.Helper()
	b, sim = emulatorBackend(t, ec2sim.Faults{})
	_, o, bought = sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	if payFail {
		sim.SetFaults(ec2sim.Faults{PayFail: 1}) // the block is paid; its extension's payment fails
	}
	s = blocksScreen(t, actionTestOptions(b), 160, 48)
	rowShows(s, bought.ReservationID, "the active block", "active")
	s.Press("e")
	s.WaitLengths()
	s.Press("right", "enter") // 2 days
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	s.Type("extend")
	s.Press("enter")
	text := s.WaitText("EXTENSION BOUGHT, payment pending")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, "Watching the payment", "once AWS takes the payment", "Until then it ends "+o.End.UTC().Format("2006-01-02 15:04"))
	if strings.Contains(box, "EXTENDED") || strings.Contains(box, "PAYMENT FAILED") {
		t.Errorf("the extension's payment is pending, yet the dialog says it is settled:\n%s", box)
	}
	return s, b, sim, o, bought
}

// The extension's payment is followed in the dialog, as the receipt follows a block's:
// once paid it says the block's new end, as AWS lists it.
func TestExtensionPaymentFollowed(t *testing.T) {
	s, b, sim, o, bought := extendOnScreen(t, false)
	newEnd := o.End.Add(48 * time.Hour)
	sim.Advance(10 * time.Minute)
	text := s.WaitText("EXTENDED:")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, bought.ReservationID+" now ends "+newEnd.UTC().Format("2006-01-02 15:04 UTC"), "payment-succeeded",
		"terminated from "+newEnd.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04 UTC"))
	for _, bad := range []string{"pending", "Watching", "FAILED"} {
		if strings.Contains(box, bad) {
			t.Errorf("paid, the dialog still says %q:\n%s", bad, box)
		}
	}
	if !strings.Contains(text, "any key closes") || strings.Contains(text, "esc cancels") {
		t.Errorf("done, the footer does not say that any key closes:\n%s", text)
	}
	// The row follows without an r: the dialog asked for the blocks again.
	s.Press("esc")
	s.WaitFor("the new end in the row", func(text string) bool {
		return strings.Contains(uitest.RowOf(text, bought.ReservationID), newEnd.UTC().Format("Jan 02 15:04"))
	})
	final(s)
	if blk := sourcestest.AwaitBlock(t, b, bought.ReservationID); !blk.End.Equal(newEnd) {
		t.Errorf("the emulator ends the block at %s, want %s", blk.End, newEnd)
	}
}

// An extension whose payment fails (the emulator's payfail fault): the dialog says so
// plainly, that the block keeps its old end, and what to do; the row is warned of.
func TestExtensionPaymentFailsInDialog(t *testing.T) {
	s, b, sim, o, bought := extendOnScreen(t, true)
	sim.Advance(10 * time.Minute)
	text := s.WaitText("EXTENSION PAYMENT FAILED")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, "AWS could not take the payment", "was not extended",
		bought.ReservationID+" keeps its old end, "+o.End.UTC().Format("2006-01-02 15:04 UTC"),
		"terminated from "+o.End.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04 UTC"),
		"payment method", "AWS Billing console", "extend again (e)")
	for _, bad := range []string{"EXTENDED:", "now ends", "Watching", "payment pending"} {
		if strings.Contains(box, bad) {
			t.Errorf("the failed extension's dialog says %q:\n%s", bad, box)
		}
	}
	s.Press("esc")
	rowShows(s, bought.ReservationID, "the warning in the row", "✖ EXT FAILED")
	final(s)
	if blk := sourcestest.AwaitBlock(t, b, bought.ReservationID); !blk.End.Equal(o.End) {
		t.Errorf("the emulator ends the block at %s, want its old end %s", blk.End, o.End)
	}
}

// e on a block marked CAN'T EXTEND says why at once and opens nothing: no length is asked
// of AWS (the backend here has none to ask), at every size.
func TestExtendPastTheCutoffAsksNothing(t *testing.T) {
	end := testNow.Add(45 * time.Minute)
	b := model.Block{ReservationID: "cr-0000000000000000a", BlockID: "cb-0000000000000000a", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", TotalCount: 1, RunningCount: 1, State: model.StateActive, Start: end.Add(-48 * time.Hour), End: end, Interconnect: "ok",
		Instances: []model.Instance{{ID: "i-0000000000000000a", State: "running", LaunchTime: end.Add(-48 * time.Hour)}}}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := blocksListed(testOptions(nil), source.BlockList{Blocks: []model.Block{b}, Now: testNow}, sz[0], sz[1])
		if !strings.Contains(ansi.Strip(m.View().Content), "CAN'T EXTEND") {
			t.Fatalf("%dx%d: the block is not marked CAN'T EXTEND:\n%s", sz[0], sz[1], ansi.Strip(m.View().Content))
		}
		m = updateOpen(m, uitest.Key("e"))
		if m.Inspect().Dialog != nil {
			t.Fatalf("%dx%d: e opened a dialog on a block past its extension cutoff", sz[0], sz[1])
		}
		view := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
		if !strings.Contains(view, "can no longer be extended") {
			t.Errorf("%dx%d: nothing says why:\n%s", sz[0], sz[1], ansi.Strip(m.View().Content))
		}
	}
}

// autoExtendBlock buys a block on the emulator, and makes the policy that asks for it: 2
// days at the 12h lead, over the block's own tag.
func autoExtendBlock(t *testing.T) (b source.Backend, sim *ec2sim.Server, o model.Offering, bought model.Block, p model.AutoExtendPolicy) {
	t.Helper()
	b, sim = emulatorBackend(t, ec2sim.Faults{})
	_, o, bought = sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	var tag string
	for k, v := range bought.Tags {
		tag = k + "=" + v // the block's own tag stands for the one that asks for the policy
	}
	p, err := model.NewAutoExtendPolicy(2, tag, model.NewWarnRules([]time.Duration{12 * time.Hour}))
	if err != nil || tag == "" {
		t.Fatalf("policy over tag %q: %v", tag, err)
	}
	return b, sim, o, bought, p
}

// autoOptions are the options of a TUI over b that asks for the policy p.
func autoOptions(b source.Backend, p model.AutoExtendPolicy) ui.Options {
	opts := actionTestOptions(b)
	opts.StartOnBlocks, opts.NoNotify, opts.AutoExtend = true, true, p
	return opts
}

// beside is another gpublock on this machine (a restarted TUI, a second one): a backend
// of its own over the emulator and the state directory of b, sending through opts.
func beside(t *testing.T, b source.Backend, opts ...sources.Option) source.Backend {
	t.Helper()
	c := sourcestest.ClientOf(t, b)
	jp, err := c.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	c2, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: c.Endpoint(), Version: "test",
		// The root of b's store: its records are under BACKEND/ACCOUNT/ there.
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Dir(filepath.Dir(filepath.Dir(jp)))})
	if err != nil {
		t.Fatal(err)
	}
	return sources.New(c2, []source.Source{capacityblocks.New(c2), trainingplans.Source(trainingplans.New(c2))}, opts...)
}

// notifier sends to a command that appends each event to a file, read by the func
// returned once the notifier is closed.
func notifier(t *testing.T, b source.Backend) (*notify.Notifier, func() string) {
	t.Helper()
	jp, _ := sourcestest.ClientOf(t, b).JournalPath()
	sent := filepath.Join(t.TempDir(), "sent")
	n, err := notify.New(notify.Config{Command: "cat >> " + sent + "; echo >> " + sent, StatePath: filepath.Join(filepath.Dir(jp), "notified.json")})
	if err != nil {
		t.Fatal(err)
	}
	return n, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		n.Close(ctx)
		raw, _ := os.ReadFile(sent)
		return string(raw)
	}
}

// decisionLines are the journal's auto-extension decisions, as "id outcome: reason".
func decisionLines(t *testing.T, b source.Backend) []string {
	t.Helper()
	entries, _, err := sourcestest.ClientOf(t, b).Journal()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Phase == "decision" && e.Action == autoextend.Action {
			out = append(out, e.Target+" "+e.Outcome+": "+e.Error)
		}
	}
	return out
}

// dueSpy hands the test every answer the backend gives to the blocks screen's look-up of
// what is due.
type dueSpy struct {
	source.Backend
	due chan []source.AutoExtendAsk
}

func (s dueSpy) AutoExtendDue(ctx context.Context, p model.AutoExtendPolicy, blocks []model.Block, now time.Time) ([]source.AutoExtendAsk, error) {
	asks, err := s.Backend.AutoExtendDue(ctx, p, blocks, now)
	select {
	case s.due <- asks:
	default:
	}
	return asks, err
}

func newDueSpy(b source.Backend) dueSpy {
	return dueSpy{Backend: b, due: make(chan []source.AutoExtendAsk, 8)}
}

// next is the next answer the blocks screen got; the time limit only bounds a hang.
func (s dueSpy) next(t *testing.T, what string) []source.AutoExtendAsk {
	t.Helper()
	select {
	case asks := <-s.due:
		return asks
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never looked up what is due", what)
		return nil
	}
}

// notAskedAgain runs a TUI over b with the policy p, and fails t if it finds the block id
// due, at once or listed again at later: what was decided is not asked on screen.
func notAskedAgain(t *testing.T, b source.Backend, sim *ec2sim.Server, p model.AutoExtendPolicy, id string, later time.Time) {
	t.Helper()
	spy := newDueSpy(b)
	s := newScreen(t, ui.New(autoOptions(spy, p)), 200, 40)
	s.WaitText(id)
	if asks := spy.next(t, "the TUI"); len(asks) != 0 {
		t.Errorf("due on screen after the decision: %+v", asks)
	}
	if text := listedAt(s, sim, later); strings.Contains(text, "Extend "+id) {
		t.Errorf("asked on screen again at the same lead:\n%s", text)
	}
	final(s)
}

// policyAsked waits for the policy's extend dialog on id.
func policyAsked(s *screen, id string) string {
	s.T.Helper()
	return s.WaitFor("the policy's extend dialog on "+id, func(text string) bool {
		return strings.Contains(text, "Extend "+id) && strings.Contains(text, "The auto-extension policy asks")
	})
}

// askedBeside runs a TUI beside b, with the policy p and a notifier, at the lead 10 hours
// before o's end, and waits for the policy's ask on id (text); sent reads what was notified.
func askedBeside(t *testing.T, b source.Backend, sim *ec2sim.Server, o model.Offering, p model.AutoExtendPolicy, id string) (s *screen, text string, sent func() string) {
	t.Helper()
	n, sent := notifier(t, b)
	sim.SetTime(o.End.Add(-10 * time.Hour))
	s = newScreen(t, ui.New(autoOptions(beside(t, b, sources.WithNotifier(n)), p)), 200, 48)
	return s, policyAsked(s, id), sent
}

// listedAt lists the blocks again with the emulator's clock at at.
func listedAt(s *screen, sim *ec2sim.Server, at time.Time) string {
	s.T.Helper()
	sim.SetTime(at)
	s.Press("r")
	return s.WaitFor("the listing at "+at.Format("15:04"), func(text string) bool { return strings.Contains(text, "as of "+at.UTC().Format("15:04")) })
}

// The auto-extension policy opens the extend dialog on a block it would extend once the
// block reaches the lead, with the policy's length, and asks once per block and lead:
// cancelled, it is not asked again on the next listing.
func TestAutoExtendAsksOnScreen(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	sim.SetTime(o.Start.Add(time.Hour))
	s := newScreen(t, ui.New(autoOptions(b, p)), 200, 40)
	text := s.WaitText(bought.ReservationID)
	if strings.Contains(text, "Extend "+bought.ReservationID) {
		t.Fatalf("asked before the lead:\n%s", text)
	}
	sim.SetTime(o.End.Add(-10 * time.Hour))
	s.Press("r")
	// The lengths stream in; the policy's is chosen once it is listed.
	s.WaitFor("the extend dialog, the policy's 2 days chosen", func(text string) bool {
		return strings.Contains(text, "Extend "+bought.ReservationID) && strings.Contains(text, "› 2d")
	})
	s.Press("esc")
	text = listedAt(s, sim, o.End.Add(-9*time.Hour))
	if strings.Contains(text, "Extend "+bought.ReservationID) {
		t.Errorf("asked again at the same lead:\n%s", text)
	}
	final(s)
}

// A person's decline of the policy's ask is recorded as blocks --watch records its own: a
// journal line, a notification, and a record that a restarted TUI (a new process over the
// same state directory) reads, so that it does not ask again at the same lead.
func TestAutoExtendDeclineOnScreenIsRecorded(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	id := bought.ReservationID
	s, text, sent := askedBeside(t, b, sim, o, p, id)
	uitest.MustContain(t, text, "esc declines (recorded)")
	s.Press("esc")
	s.WaitText("The decline is recorded")
	final(s)
	if got := decisionLines(t, b); len(got) != 1 || got[0] != id+" declined: declined on screen by the person" {
		t.Errorf("journal decisions %q, want the one decline on screen", got)
	}
	if got := sent(); strings.Count(got, `"kind":"auto-extend-declined"`) != 1 || !strings.Contains(got, "AUTO-EXTEND DECLINED "+id+": declined on screen by the person") {
		t.Errorf("notified:\n%s\nwant the decline once", got)
	}

	// Restarted, at the same lead: the TUI looks up what was decided, and asks nothing.
	sim.SetTime(o.End.Add(-9 * time.Hour))
	notAskedAgain(t, beside(t, b), sim, p, id, o.End.Add(-8*time.Hour))
}

// A person who extends in the policy's dialog: the decision is recorded as taken before
// the extension is bought, the spend path journals the extension, the outcome is
// notified, and no other gpublock here can decide the ask again.
func TestAutoExtendTakenOnScreenIsRecorded(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	id := bought.ReservationID
	s, _, sent := askedBeside(t, b, sim, o, p, id)
	s.WaitText("› 2d")
	s.WaitLengths()
	s.Press("enter")
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	s.Type("extend")
	s.Press("enter")
	s.WaitText("EXTENSION BOUGHT")
	final(s)
	if got := decisionLines(t, b); len(got) != 1 || got[0] != id+" extend: " {
		t.Errorf("journal decisions %q, want the one taken", got)
	}
	entries, _, _ := sourcestest.ClientOf(t, b).Journal()
	bought2 := 0
	for _, e := range entries {
		if e.Action == "PurchaseCapacityBlockExtension" && e.Phase == "outcome" && e.Outcome == "bought" && e.Target == id {
			bought2++
		}
	}
	if bought2 != 1 {
		t.Errorf("%d extensions bought in the journal, want 1", bought2)
	}
	recs, err := autoextend.Records(sourcestest.ClientOf(t, b))
	key := model.AutoExtendKey(bought, 12*time.Hour)
	if r := recs[key]; err != nil || r.Step != source.AutoExtendExtended || r.RequestID == "" || r.Hours != 48 {
		t.Errorf("the record of %s: %+v, %v", key, r, err)
	}
	if got := sent(); strings.Count(got, `"kind":"auto-extended"`) != 1 || !strings.Contains(got, "AUTO-EXTENDED "+id) {
		t.Errorf("notified:\n%s\nwant the extension once", got)
	}
	ask := source.AutoExtendAsk{AutoExtendDecision: model.AutoExtendDecision{Verdict: model.AutoExtendNow, Key: key, Lead: 12 * time.Hour}, Block: bought, Days: 2}
	err = beside(t, b).DecideAutoExtend(context.Background(), ask, source.AutoExtendOutcome{Step: source.AutoExtendTaken})
	if !errors.Is(err, source.ErrAutoExtendDecided) {
		t.Errorf("another gpublock decides the ask again: %v", err)
	}
}

// What blocks --watch decided (here, a decline of its approval command) is not asked on
// screen.
func TestAutoExtendDecidedByAWatchIsNotAsked(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	now := o.End.Add(-10 * time.Hour)
	sim.SetTime(now)
	rec := autoextend.New(sourcestest.ClientOf(t, beside(t, b)), nil, nil)
	err := rec.Turn(func(tn *autoextend.Turn) {
		d := p.Decide(sourcestest.AwaitBlock(t, b, bought.ReservationID), now, tn.Decided())
		ask := source.AutoExtendAsk{AutoExtendDecision: d, Block: bought, Days: p.Days}
		if err := tn.Record(ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: "the approval command refused (exit 3)"}, now); err != nil {
			t.Errorf("record: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	notAskedAgain(t, b, sim, p, bought.ReservationID, now.Add(time.Hour))
}

// The policy's ask never replaces a dialog open: it waits for it to close, then opens.
func TestAutoExtendAskWaitsForTheDialogOpen(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	sim.SetTime(o.End.Add(-13 * time.Hour))
	spy := newDueSpy(b)
	taken := make(chan string, 1)
	s := uitest.NewScreen(t, askWatch{ui.New(autoOptions(spy, p)), taken}, 200, 48)
	s.WaitText(bought.ReservationID)
	s.Press("?")
	s.WaitText("cancel attached launch")
	sim.SetTime(o.End.Add(-10 * time.Hour))
	s.TM.Send(uiscreen.RefreshBlocksMsg{}) // the help takes r; the screen's own refresh is not a key
	if asks := spy.next(t, "the listing behind the help"); len(asks) != 1 {
		t.Fatalf("due: %+v, want the block", asks)
	}
	select {
	case view := <-taken:
		if !strings.Contains(view, "cancel attached launch") || strings.Contains(view, "Extend "+bought.ReservationID) {
			t.Fatalf("the ask replaced the help:\n%s", view)
		}
	case <-time.After(30 * time.Second): // bounds a hang only
		t.Fatal("the ask never reached the root")
	}
	s.Press("esc")
	policyAsked(s, bought.ReservationID)
	s.Final()
}

// askWatch is the program with a window on the policy's asks: after the root has taken one
// in, it sends what the root then draws.
type askWatch struct {
	ui.Model
	taken chan<- string
}

func (w askWatch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	mm, cmd := w.Model.Update(msg)
	w.Model = mm.(ui.Model)
	if o, ok := msg.(uiscreen.OpenExtend); ok && o.Ask != nil {
		select {
		case w.taken <- ansi.Strip(w.Model.View().Content):
		default:
		}
	}
	return w, cmd
}

// A block the policy cannot extend (past AWS's cutoff) is not asked about: its decline is
// recorded, as blocks --watch records it, and said.
func TestAutoExtendPolicyDeclineIsRecorded(t *testing.T) {
	b, sim, o, bought, p := autoExtendBlock(t)
	sim.SetTime(o.End.Add(-50 * time.Minute))
	s := newScreen(t, ui.New(autoOptions(b, p)), 200, 40)
	text := s.WaitText("AUTO-EXTEND DECLINED " + bought.ReservationID)
	if strings.Contains(text, "Extend "+bought.ReservationID) {
		t.Errorf("asked about a block that cannot be extended:\n%s", text)
	}
	final(s)
	if got := decisionLines(t, b); len(got) != 1 || !strings.HasPrefix(got[0], bought.ReservationID+" declined: ") {
		t.Errorf("journal decisions %q, want the policy's decline", got)
	}
}
