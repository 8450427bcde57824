package flows

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/searchform"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The tests' clock: the UI's Now and the emulator's start (uitest's), with the emulator's
// clock slowed to a crawl so that a test's seconds do not move the market.
var (
	testNow = uitest.Now
	testLoc = uitest.Loc
)

// testOptions are the program's options in the tests: simulated, without colour, at testNow
// in testLoc, over b.
func testOptions(b source.Backend) ui.Options {
	return ui.Options{
		Backend: b, Simulated: true, Profile: "test", Region: "us-east-1", NoColor: true,
		Now: func() time.Time { return testNow }, Location: testLoc, Wall: uitest.ReaderWall(testNow),
	}
}

// actionTestOptions are the test options with a short poll, so that receipts and launches
// look at their block again at once (the emulator's clock only moves when a test moves it).
func actionTestOptions(b source.Backend) ui.Options {
	o := testOptions(b)
	o.PollInterval = 5 * time.Millisecond
	return o
}

// goldenSizes are the terminal sizes the goldens are drawn at.
var goldenSizes = [][2]int{{160, 48}, {80, 24}}

// atSizes runs f as a subtest at each size, named WxH as the goldens' directories are.
func atSizes(t *testing.T, sizes [][2]int, f func(t *testing.T, w, h int)) {
	t.Helper()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { f(t, sz[0], sz[1]) })
	}
}

// screen is uitest's harness on the program.
type screen = uitest.Screen

// newScreen runs the program in a terminal of w×h.
func newScreen(t testing.TB, m ui.Model, w, h int) *screen {
	t.Helper()
	return uitest.NewScreen(t, m, w, h)
}

// readyScreen runs the program with opts in a terminal of w×h, once the header names the
// identity's account: the backend has answered.
func readyScreen(t testing.TB, opts ui.Options, w, h int) *screen {
	t.Helper()
	s := newScreen(t, ui.New(opts), w, h)
	s.WaitText(uitest.Account)
	return s
}

// searchFound runs the form's search as it stands and fails the test unless it found
// offerings: the scenario needs rows. It returns how many.
func searchFound(s *screen) int {
	s.T.Helper()
	s.Press("enter")
	n := s.FoundCount()
	if n == 0 {
		s.T.Fatal("the search found nothing; the scenario needs offerings")
	}
	return n
}

// flatText is text without the panes' and dialogs' vertical borders, its words on one line:
// what a check of a phrase must read when the view wraps it.
func flatText(text string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("┆", " ", "│", " ", "╎", " ", "┃", " ").Replace(text)), " ")
}

// blocksScreen runs the program with opts, started on the blocks screen, in a terminal of
// w×h.
func blocksScreen(t testing.TB, opts ui.Options, w, h int) *screen {
	t.Helper()
	opts.StartOnBlocks = true
	return newScreen(t, ui.New(opts), w, h)
}

// rowShows waits until the blocks screen's row of id holds sub (what names the wait).
func rowShows(s *screen, id, what, sub string) string {
	s.T.Helper()
	return s.WaitFor(what, func(text string) bool { return strings.Contains(uitest.RowOf(text, id), sub) })
}

// retype moves to each next field of the form in turn, clears it and types its value.
func retype(s *screen, values ...string) {
	for _, v := range values {
		s.Press("tab", "ctrl+u")
		s.Type(v)
	}
}

// clipboardWritten waits for a clipboard write (OSC 52) in what the program wrote: it may
// reach the terminal a frame after the flash that says it.
func clipboardWritten(s *screen) {
	s.T.Helper()
	s.WaitRaw("a clipboard write", func(raw []byte) bool { return bytes.Contains(raw, []byte("\x1b]52;c;")) })
}

// final quits the program and returns its last model, with Raw holding all it wrote.
func final(s *screen) ui.Model {
	s.T.Helper()
	return s.Final().(ui.Model)
}

// The dialogs' and screens' types, by the names the tests use.
type (
	dialog    = uidialog.Dialog
	blocksMsg = blockscreen.ListedMsg
)

func update(m ui.Model, msgs ...tea.Msg) ui.Model {
	for _, msg := range msgs {
		mm, _ := m.Update(msg)
		m = mm.(ui.Model)
	}
	return m
}

// blocksListed is the program with opts on the blocks screen, in a terminal of w×h, once
// its listing answered list; nothing is asked of the backend.
func blocksListed(opts ui.Options, list source.BlockList, w, h int) ui.Model {
	m := update(ui.New(opts), uitest.AltKey('2'), tea.WindowSizeMsg{Width: w, Height: h})
	return update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: list})
}

// updateOpen is update, and the dialog the last message asks for opened, as the program
// would open it from the message the screen sends.
func updateOpen(m ui.Model, msgs ...tea.Msg) ui.Model {
	m = update(m, msgs[:len(msgs)-1]...)
	mm, cmd := m.Update(msgs[len(msgs)-1])
	m = mm.(ui.Model)
	if cmd != nil {
		if open := cmd(); uiscreen.IsOpen(open) {
			m = update(m, open)
		}
	}
	return m
}

// startedSearch starts the form's search as enter does (a second time when the first only
// closed the type filter), without asking the backend, and returns the id the search's
// messages carry: the test delivers the events, with that id.
func startedSearch(m ui.Model) (ui.Model, int) {
	before := m.Inspect().Search.SearchID()
	m, id := m.StartedSearch(func(s searchscreen.Model, f uiscreen.Frame) (searchscreen.Model, tea.Cmd) {
		next, cmd := s.Update(uitest.Key("enter"), f)
		if next.(searchscreen.Model).SearchID() == before {
			next, cmd = next.Update(uitest.Key("enter"), f)
		}
		return next.(searchscreen.Model), cmd
	})
	if id == before {
		panic("no search was started")
	}
	return m, id
}

// startedSearchBy gives msg to the root, as startedSearch presses enter, for a search the
// root starts on a message (a watch's tick).
func startedSearchBy(m ui.Model, msg tea.Msg) (ui.Model, int) {
	before := m.Inspect().Search.SearchID()
	if m = update(m, msg); m.Inspect().Search.SearchID() == before {
		panic("no search was started")
	}
	return m, m.Inspect().Search.SearchID()
}

// withResults returns m after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(m ui.Model, offs []model.Offering) ui.Model {
	m, id := startedSearch(m)
	mm, _ := m.Update(searchscreen.EventsMsg{ID: id, Events: uitest.SearchEvents(offs), Closed: true})
	return mm.(ui.Model)
}

// focusedPane is the search pane the view marks as focused: without colour, the one
// drawn with a heavy border. -1 when none is.
func focusedPane(m ui.Model) searchscreen.Pane {
	for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		_, title, ok := strings.Cut(l, "┏━ ")
		switch {
		case !ok:
		case strings.HasPrefix(title, "Search"):
			return searchscreen.PaneForm
		case strings.HasPrefix(title, "Offerings"):
			return searchscreen.PaneResults
		case strings.HasPrefix(title, "Detail"), strings.HasPrefix(title, "Chart"):
			return searchscreen.PaneDetail
		}
	}
	return -1
}

// formLabels are the search form's field labels, by field.
var formLabels = map[searchform.Field]string{
	searchform.Source: "Source", searchform.Types: "Types", searchform.Count: "Count", searchform.Start: "Start",
	searchform.End: "End", searchform.Duration: "Duration", searchform.Regions: "Regions",
}

// The view's readers (uitest's), on the root's view.
func searched(m ui.Model) bool     { return uitest.Searched(m.View().Content) }
func foundOnScreen(m ui.Model) int { return uitest.FoundOnScreen(m.View().Content) }
func detailTop(m ui.Model) int     { return uitest.DetailTop(m.View().Content) }
func lastLine(m ui.Model) string   { return uitest.LastLine(m.View().Content) }
func statusOf(m ui.Model) string   { return uitest.StatusLine(m.View().Content) }
func focusedField(m ui.Model) searchform.Field {
	return uitest.FocusedField(m.View().Content, formLabels, -1)
}

// rowListedAt sets the emulator's clock to at, lists the blocks again (r), and waits for
// the listing as of at, with id's row as want says (what names it); it returns the screen.
func rowListedAt(s *screen, sim *ec2sim.Server, id, what string, at time.Time, want func(row string) bool) string {
	s.T.Helper()
	sim.SetTime(at)
	s.Press("r")
	return s.WaitFor(what, func(text string) bool {
		return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && want(uitest.RowOf(text, id))
	})
}

// probeAnswer is one line of the largest-count probe as the view shows it.
type probeAnswer struct {
	region, typ string
	count       int    // 0: none at any count
	err         string // what is shown in place of a count
}

var probeRE = regexp.MustCompile(`[│┃] ([a-z]{2}(?:-[a-z]+)+-\d+) +(\S+) +(.*?) *[│┃]`)

// probeOnScreen is the probe's answers under "Largest count with any offering:".
func probeOnScreen(m ui.Model) []probeAnswer {
	var out []probeAnswer
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "Largest count with any offering:") {
			continue
		}
		for _, l := range lines[i+1:] {
			// The results pane is the rightmost: its part of the line is the last match.
			all := probeRE.FindAllStringSubmatch(l, -1)
			if all == nil {
				break
			}
			got := all[len(all)-1]
			a := probeAnswer{region: got[1], typ: got[2]}
			switch n, err := strconv.Atoi(got[3]); {
			case got[3] == "none at any count":
			case err == nil:
				a.count = n
			default:
				a.err = got[3]
			}
			out = append(out, a)
		}
	}
	return out
}

// regionLine is one region of the Regions box: its state word and the message under it.
type regionLine struct{ state, message string }

var regionLineRE = regexp.MustCompile(`^([a-z]{2}(?:-[a-z]+)+-\d+) +(?:\S+ )?(searching|ok|empty|throttled|error|cancelled)\b`)

// regionsOnScreen reads every region of the latest search from the Regions box, the view
// drawn tall enough that the box cuts none, in the order the search ran them.
func regionsOnScreen(t *testing.T, m ui.Model) (order []string, lines map[string]regionLine) {
	t.Helper()
	m = update(m, tea.WindowSizeMsg{Width: 200, Height: 200})
	view := strings.Split(ansi.Strip(m.View().Content), "\n")
	lines = map[string]regionLine{}
	in, last := false, ""
	for _, l := range view {
		if strings.Contains(l, "╭─ Regions ─") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(l, "╰") {
			break
		}
		// The box is the leftmost pane: its text lies between the first two borders.
		cell, _, _ := strings.Cut(strings.TrimPrefix(l, "│"), "│")
		if got := regionLineRE.FindStringSubmatch(cell); got != nil {
			last = got[1]
			order = append(order, last)
			lines[last] = regionLine{state: got[2]}
		} else if msg := strings.TrimSpace(cell); last != "" && strings.HasPrefix(cell, "  ") && msg != "" {
			rl := lines[last]
			rl.message = strings.TrimSpace(rl.message + " " + msg)
			lines[last] = rl
		}
	}
	if !in {
		t.Fatalf("no Regions box on the screen:\n%s", strings.Join(view, "\n"))
	}
	return order, lines
}

// searching reports a search under way, as the header's word on it says.
func searching(m ui.Model) bool {
	verb, _ := m.Inspect().Search.HeaderNote()
	return strings.Contains(verb, "searching")
}

// searchedRegions is where the form's default search looks.
func searchedRegions(t *testing.T) []string {
	t.Helper()
	m, _ := startedSearch(ui.New(testOptions(nil)))
	q := m.Inspect().Search.Query()
	if len(q.Regions) == 0 {
		t.Fatalf("the default form has no query: %+v", q)
	}
	return q.Regions
}

// emulatorBackend is the emulator of the UI's tests (seed 7, at uitest.Now) through the real
// adapters and SDK. It is not uitest's: uitest links no AWS SDK, as no ui/ package does.
func emulatorBackend(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Backend(t, ec2sim.Options{Seed: 7, Start: uitest.Now, Faults: faults})
}
