package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/searchform"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The tests' clock: the UI's Now and the emulator's start (uitest's), with the emulator's
// clock slowed to a crawl so that a test's seconds do not move the market.
var (
	testNow = uitest.Now
	testLoc = uitest.Loc
)

func testOptions(b source.Backend) Options {
	return Options{
		Backend: b, Simulated: true, Profile: "test", Region: "us-east-1", NoColor: true,
		Now: func() time.Time { return testNow }, Location: testLoc, Wall: uitest.ReaderWall(testNow),
	}
}

// screen is uitest's harness on the program.
type screen = uitest.Screen

// newScreen runs the program in a terminal of w×h.
func newScreen(t testing.TB, m Model, w, h int) *screen {
	t.Helper()
	return uitest.NewScreen(t, m, w, h)
}

// final quits the program and returns its last model, with Raw holding all it wrote.
func final(s *screen) Model {
	s.T.Helper()
	return s.Final().(Model)
}

// The dialogs' types, by the names the tests use.
type (
	dialog         = uidialog.Dialog
	rootMsg        = uidialog.RootMsg
	blockPolledMsg = uidialog.BlockPolledMsg
)

// searchNow and blocksNow are the screens as drawn now, in the root's frame.
func (m Model) searchNow() searchscreen.Model {
	return m.search().At(m.frame())
}
func (m Model) blocksNow() blockscreen.Model {
	return m.blocks().At(m.frame())
}

// updateSearchWith takes back the search screen after one of its methods, and its command.
func (m Model) updateSearchWith(s searchscreen.Model, cmd tea.Cmd) (Model, tea.Cmd) {
	m.screens[screenSearch] = s
	m = m.closeStalePurchase()
	return m, tea.Batch(cmd, m.spinCmd())
}

// blocksStates are the blocks screen in each of its states, for the test that every state
// fits every size; the extend dialog's own are in ui/dialog/extend.
func blocksStates(base Model) map[string]Model {
	list := source.BlockList{Blocks: uitest.SyntheticBlocks(40), Now: testNow, Fees: map[string]model.Money{"cr-00000000000000001": model.MustMoney("123456.78")},
		Problems: []source.BlockProblem{{Region: "us-west-2", Message: "the region is down"}}}
	onBlocks := update(base, uitest.AltKey('2'))
	loaded := update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), List: list})
	return map[string]Model{
		"blocks loading":    onBlocks,
		"blocks":            loaded,
		"blocks empty":      update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), List: source.BlockList{Now: testNow}}),
		"blocks failed":     update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), Err: fmt.Errorf("every region failed: the network is down")}),
		"blocks detail":     update(loaded, uitest.Key("j"), uitest.Key("enter")),
		"blocks filter":     update(loaded, uitest.Key("/"), uitest.Key("a")),
		"blocks help":       update(loaded, uitest.Key("?")),
		"search w/ warning": update(loaded, uitest.AltKey('1')),
	}
}

// checkFits fails when a frame has more lines than the terminal, or a line wider than it.
func checkFits(t *testing.T, name string, m Model, w, h int) {
	t.Helper()
	uitest.CheckFits(t, name, m.View().Content, w, h)
}

// footerDialog is a dialog that names its keys and does nothing else.
type footerDialog struct{ keys string }

func (d footerDialog) Update(tea.Msg) (dialog, tea.Cmd, bool) { return d, nil, false }
func (d footerDialog) View(int, int) string                   { return "stub" }
func (d footerDialog) Footer() string                         { return d.keys }

var instanceRE = regexp.MustCompile(`(i-[0-9a-f]+)\s+(\w+)`)

func loadedBlocks(t *testing.T, w, h int) Model {
	t.Helper()
	m := update(New(testOptions(nil)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: w, Height: h})
	return update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Blocks: uitest.LongBlocks(6), Now: testNow}})
}

// mouseRecorder is a dialog that counts the mouse messages it is given.
type mouseRecorder struct{ got int }

func (r *mouseRecorder) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	if _, ok := msg.(tea.MouseMsg); ok {
		r.got++
	}
	return r, nil, false
}
func (r *mouseRecorder) View(int, int) string { return "recorder" }

// openable is the test options with a callless backend.
func openable() Options { return testOptions(uitest.Callless{}) }

// opened is m after key k and the dialog it asked the root to open; the dialog's own calls
// are not run.
func opened(t *testing.T, m Model, k tea.KeyPressMsg) Model {
	t.Helper()
	m = uitest.Press(m, k, uitest.OpensDialog)
	if m.dialog == nil {
		t.Fatalf("%s opened no dialog:\n%s", k, m.View().Content)
	}
	return m
}

// pressAdvisor sends a key to the root and runs, one after another, the advisor's commands
// it starts (its searches, page by page) until they are done; other commands are left alone.
func pressAdvisor(t *testing.T, m Model, k tea.KeyPressMsg) Model {
	t.Helper()
	return uitest.Press(m, k, uitest.ScreenRuns(advisorui.Owns))
}

// blocksPage is the selected block's detail as the model lays it out now.
func (m Model) blocksPage(t *testing.T) pager.Page {
	t.Helper()
	_, d := m.blocksNow().Panes()
	p, ok := m.blocksNow().DetailPage(d.W-2, d.H-2)
	if !ok {
		t.Fatal("no block selected")
	}
	return p
}

// withResults returns m after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(m Model, offs []model.Offering) Model {
	m, id := startedSearch(m, submitted)
	mm, _ := m.Update(searchscreen.EventsMsg{ID: id, Events: uitest.SearchEvents(offs), Closed: true})
	return mm.(Model)
}

func update(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		mm, _ := m.Update(msg)
		m = mm.(Model)
	}
	return m
}

// The search screen's steps, taken on the root as a key or a dialog would.
func (m Model) startSearch(q model.Query) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().StartSearch(q))
}

// detailPage is the selected offering's detail as the detail pane lays it out now.
func (m Model) detailPage() (detail.Page, bool) { return m.searchNow().DetailPage() }

// startedSearch starts a search with start, taken on the search screen and given to the
// root as the program would (Model.StartedSearch), and returns the id the search's messages
// carry: nothing is asked of the backend, the test delivers the events, with that id.
func startedSearch(m Model, start func(searchscreen.Model, uiscreen.Frame) (searchscreen.Model, tea.Cmd)) (Model, int) {
	before := m.search().SearchID()
	m, id := m.StartedSearch(start)
	if id == before {
		panic("no search was started")
	}
	return m, id
}

// submitted presses enter at the search form, as a person starts its search: a second
// time when the first only closed the type filter.
func submitted(s searchscreen.Model, f uiscreen.Frame) (searchscreen.Model, tea.Cmd) {
	next, cmd := s.Update(uitest.Key("enter"), f)
	if cmd == nil {
		next, cmd = next.Update(uitest.Key("enter"), f)
	}
	return next.(searchscreen.Model), cmd
}

// again starts the last search again.
func again(s searchscreen.Model, _ uiscreen.Frame) (searchscreen.Model, tea.Cmd) {
	return s.StartSearch(s.Query())
}

// formLabels are the search form's field labels, by field.
var formLabels = map[searchform.Field]string{
	searchform.Source: "Source", searchform.Types: "Types", searchform.Count: "Count", searchform.Start: "Start",
	searchform.End: "End", searchform.Duration: "Duration", searchform.Regions: "Regions",
}

// The view's readers (uitest's), on the root's view.
func fieldErrors(m Model) map[searchform.Field]string {
	return uitest.FieldErrors(m.View().Content, formLabels)
}
func searched(m Model) bool     { return uitest.Searched(m.View().Content) }
func foundOnScreen(m Model) int { return uitest.FoundOnScreen(m.View().Content) }
func detailTop(m Model) int     { return uitest.DetailTop(m.View().Content) }
func lastLine(m Model) string   { return uitest.LastLine(m.View().Content) }
func statusOf(m Model) string   { return uitest.StatusLine(m.View().Content) }

// searching reports a search under way, as the header's word on it says.
func searching(m Model) bool {
	verb, _ := m.search().HeaderNote()
	return strings.Contains(verb, "searching")
}

// blocksMsg is a listing's answer, as the tests hand it to the root.
type blocksMsg = blockscreen.ListedMsg

// actionTestOptions are the test options with a short poll, so that receipts and launches
// look at their block again at once (the emulator's clock only moves when a test moves it).
func actionTestOptions(b source.Backend) Options {
	o := testOptions(b)
	o.PollInterval = 5 * time.Millisecond
	return o
}

// searchedRegions is where the form's default search looks.
func searchedRegions(t *testing.T) []string {
	t.Helper()
	m, _ := startedSearch(New(testOptions(nil)), submitted)
	q := m.search().Query()
	if len(q.Regions) == 0 {
		t.Fatalf("the default form has no query: %+v", q)
	}
	return q.Regions
}

// boughtBlock buys, through the adapter, the first p5.48xlarge offering of us-east-1, for
// the launch tests: it returns the offering and the reservation.
func boughtBlock(t *testing.T, c *awsapi.Client) (model.Offering, model.Block) {
	t.Helper()
	return sourcestest.BuyFirstBlock(t, c, testNow)
}

// activeBlock is a block bought on a fresh emulator, whose clock is then an hour into it,
// as AWS lists it now.
func activeBlock(t *testing.T) (source.Backend, *ec2sim.Server, *awsapi.Client, model.Block) {
	t.Helper()
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	return b, sim, c, sourcestest.BlockNow(t, c, bought.ReservationID)
}

// dialogHost runs the root model with a dialog already open, as the blocks screen opens
// the launch form, and starts the dialog's own commands with the root's.
type dialogHost struct {
	Model
	init tea.Cmd
}

func (h dialogHost) Init() tea.Cmd { return tea.Batch(h.Model.Init(), h.init) }

func (h dialogHost) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	mm, cmd := h.Model.Update(msg)
	h.Model = mm.(Model)
	return h, cmd
}

// newLaunchScreen opens the launch form on a block in a running UI.
func newLaunchScreen(t *testing.T, b source.Backend, blk model.Block, simulated bool) *screen {
	t.Helper()
	opts := actionTestOptions(b)
	opts.Simulated = simulated
	m := New(opts)
	m.pc.Width, m.pc.Height = 160, 48
	d, cmd := launch.New(m.actionEnv(), blk)
	m.dialog = d
	return uitest.NewScreen(t, dialogHost{m, cmd}, 160, 48)
}

func finalHost(t *testing.T, s *screen) Model {
	t.Helper()
	s.Press("ctrl+c")
	return s.TM.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(dialogHost).Model
}

// emulatorBackend is the emulator of the UI's tests (seed 7, at uitest.Now) through the real
// adapters and SDK. It is not uitest's: uitest links no AWS SDK, as no ui/ package does.
func emulatorBackend(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Backend(t, ec2sim.Options{Seed: 7, Start: uitest.Now, Faults: faults})
}
