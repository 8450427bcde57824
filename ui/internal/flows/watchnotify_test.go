package flows

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// The watch against the emulator, through the whole program: its rounds, its bell and its
// desktop notifications. The screen's own rounds are ui/screen/search's watch tests.

// watchStates are the watch's states for the sizes test. Each is built from a search of its
// own: a round's rows replace the table's in the arrays its copies share. The watch runs
// every millisecond, so that its round starts from the tick its own timer sends.
func watchStates(t *testing.T) map[string]ui.Model {
	opts := testOptions(nil)
	opts.WatchEvery = time.Millisecond
	base := ui.New(opts)
	watching := func() (ui.Model, tea.Cmd) {
		mm, cmd := withResults(base, uitest.SyntheticOfferings(500)).Update(uitest.Key("w"))
		return mm.(ui.Model), cmd
	}
	// running is the watch's round under way, and the id its search's messages carry.
	running := func() (ui.Model, int) {
		m, timer := watching()
		return startedSearchBy(m, watchTick(t, timer))
	}
	m, id := running()
	offs := uitest.SyntheticOfferings(520)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	news := update(m, searchEventsMsg{ID: id, Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	on, _ := watching()
	round, _ := running()
	return map[string]ui.Model{
		"watching":          on,
		"watch round":       round,
		"watch news":        news,
		"watch news detail": update(news, uitest.Key("G"), uitest.Key("d")),
	}
}

// watchTick is the tick among the messages cmd sends.
func watchTick(t *testing.T, cmd tea.Cmd) (tick watchTickMsg) {
	t.Helper()
	found := false
	uitest.Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		tick, found = msg.(watchTickMsg)
		return nil, found
	})
	if !found {
		t.Fatal("w set no timer for the watch's round")
	}
	return tick
}

var (
	watchRoundRE = regexp.MustCompile(`Watch round (\d+) at`)
	watchingRE   = regexp.MustCompile(`watching · (next \d\d:\d\d UTC|searching…)`)
)

// waitRound waits for the status line to tell of a round after round n, and returns its
// number and the screen.
func waitRound(s *screen, n int) (int, string) {
	s.T.Helper()
	var got int
	text := s.WaitFor("watch round "+strconv.Itoa(n+1), func(text string) bool {
		m := watchRoundRE.FindStringSubmatch(text)
		if m == nil {
			return false
		}
		got, _ = strconv.Atoi(m[1])
		return got > n
	})
	return got, text
}

// Against the emulator: a watch over every region selling p5.48xlarge, one of them down.
// When it comes back, the next round finds its offerings, and only those ring, once, with
// the words of the notification; the rounds after find nothing new and ring nothing. Nothing
// is bought.
func TestWatchRingsOnceForNewOfferings(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-west-2"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitText("123456789012")
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	before := s.FoundCount()
	s.WaitText("1 region failed")
	s.Press("w")
	text := s.WaitText("watching")
	s.Press("x") // no key: it clears the answer to w, so the status line tells the rounds
	if !watchingRE.MatchString(text) {
		t.Errorf("the header does not say when the watch runs next:\n%s", text)
	}
	n, text := waitRound(s, 0)
	if !strings.Contains(text, "nothing new") {
		t.Errorf("a round of the same answer found news:\n%s", text)
	}
	sim.SetFaults(ec2sim.Faults{})
	s.WaitRaw("the notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })
	s.Press("x")
	// The round that rang, or one after it; then two more, which ring nothing.
	n, _ = waitRound(s, n)
	n, _ = waitRound(s, n)
	rounds, last := waitRound(s, n)
	m := final(s)

	if got := bytes.Count(s.Raw, []byte(osc9)); got != 1 {
		t.Errorf("%d desktop notifications, want 1", got)
	}
	if got := bytes.Count(s.Raw, []byte{'\a', '\x1b', ']', '9'}); got != 1 {
		t.Errorf("%d bells before a notification, want 1", got)
	}
	var west []model.Offering
	for i := 0; i < m.Inspect().Search.Table().Len(); i++ {
		if o := m.Inspect().Search.Table().Row(i); o.Region == "us-west-2" {
			west = append(west, o)
		}
	}
	if len(west) == 0 || m.Inspect().Search.Table().Len() != before+len(west) {
		t.Fatalf("after the region came back: %d rows, %d of them us-west-2's; before it %d", m.Inspect().Search.Table().Len(), len(west), before)
	}
	low := west[0].Fee
	for _, o := range west {
		if o.Fee.Cmp(low) < 0 {
			low = o.Fee
		}
	}
	want := "gpublock: " + strconv.Itoa(len(west)) + " new p5.48xlarge offerings in us-west-2 (from " + low.Dollars() + ")"
	if !bytes.Contains(s.Raw, []byte(osc9+want)) {
		i := bytes.Index(s.Raw, []byte(osc9))
		t.Errorf("the notification is not %q: %q", want, s.Raw[i:min(len(s.Raw), i+120)])
	}
	// The screen says the watch is on, and which round it ran last.
	if on := watchingRE.MatchString(last); !on || rounds < 3 {
		t.Errorf("watch on=%v after %d rounds:\n%s", on, rounds, last)
	}
	list, err := b.Blocks(context.Background(), model.RegionsSelling("p5.48xlarge"))
	if err != nil || len(list.Blocks) != 0 {
		t.Errorf("the watch left %d blocks (err %v); it must buy nothing", len(list.Blocks), err)
	}
}

// With notifications off (n, on the search screen too) a round's news is shown, silently.
func TestWatchNotificationsOff(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-east-1"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitText("SIMULATED")
	s.Press("enter")
	s.WaitText("failed in every region")
	s.Press("n", "w")
	s.WaitText("notifications are off")
	sim.SetFaults(ec2sim.Faults{})
	text := s.WaitText("new p5.48xlarge offering")
	m := final(s)
	if m.Inspect().Search.Table().Len() == 0 || !strings.Contains(text, "Offerings · ") {
		t.Errorf("the round's offerings are not in the table:\n%s", text)
	}
	if bytes.Contains(s.Raw, []byte(osc9)) || bytes.Count(s.Raw, []byte{'\a'}) > bytes.Count(s.Raw, []byte("\x1b]")) {
		t.Error("a bell or a notification with notifications off")
	}
}
