package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/searchform"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/spend"
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

// emulatorBackend is the emulator of the UI's tests (seed 7, at testNow) through the real
// adapters and SDK.
func emulatorBackend(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Backend(t, ec2sim.Options{Seed: 7, Start: testNow, Faults: faults})
}

func testOptions(b source.Backend) Options {
	return Options{
		Backend: b, Simulated: true, Profile: "test", Region: "us-east-1", NoColor: true,
		Now: func() time.Time { return testNow }, Location: testLoc,
		// A person who reads before every key: each reading is past the confirmation's dwell.
		Wall: spend.NewFakeClock(testNow, 2*model.ConfirmDwell).Now,
	}
}

// screen is uitest's harness on the root model, with the names the root's tests use.
type screen struct {
	*uitest.Screen
	t   testing.TB
	tm  *teatest.TestModel
	emu *vt.Emulator
}

func newScreen(t testing.TB, m Model, w, h int) *screen {
	t.Helper()
	return newScreenOf(t, m, w, h)
}

// newScreenOf is newScreen for any model.
func newScreenOf(t testing.TB, m tea.Model, w, h int) *screen {
	t.Helper()
	s := uitest.NewScreen(t, m, w, h)
	return &screen{Screen: s, t: t, tm: s.TM, emu: s.Emu}
}

func (s *screen) waitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	return s.WaitFor(what, cond)
}

func (s *screen) waitText(sub string) string {
	s.t.Helper()
	return s.WaitText(sub)
}

func (s *screen) press(keys ...string) { s.Press(keys...) }
func (s *screen) typeText(text string) { s.Type(text) }

func keyMsg(k string) tea.KeyPressMsg { return uitest.Key(k) }

// final quits and returns the final model, with Raw holding all the program wrote.
func (s *screen) final() Model {
	s.t.Helper()
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
	return m.screens[screenSearch].(searchTab).at(m.frame())
}
func (m Model) blocksNow() blockscreen.Model {
	return m.screens[screenBlocks].(blocksTab).at(m.frame())
}

// updateSearchWith takes back the search screen after one of its methods, and its command.
func (m Model) updateSearchWith(s searchscreen.Model, cmd tea.Cmd) (Model, tea.Cmd) {
	m.setSearch(s)
	m = m.closeStalePurchase()
	return m, tea.Batch(cmd, m.spinCmd())
}

// The emulator's and the harness's shared helpers (sourcestest, uitest), by the names the
// root's tests use.
var foundRE = uitest.FoundRE

func clientOf(t testing.TB, b source.Backend) *awsapi.Client {
	t.Helper()
	return sourcestest.ClientOf(t, b)
}

func reservations(t testing.TB, c *awsapi.Client, regions ...string) []model.Block {
	t.Helper()
	return sourcestest.Reservations(t, c, regions...)
}

func buyBlock(t *testing.T, b source.Backend, from time.Time) (*awsapi.Client, model.Offering, model.Block) {
	t.Helper()
	return sourcestest.BuyBlock(t, b, from)
}

func awaitBlock(t *testing.T, b source.Backend, id string) model.Block {
	t.Helper()
	return sourcestest.AwaitBlock(t, b, id)
}

func foundCount(t *testing.T, s *screen) int { t.Helper(); return s.FoundCount() }
func waitLengths(s *screen) string           { s.t.Helper(); return s.WaitLengths() }
func mustContain(t *testing.T, text string, subs ...string) {
	t.Helper()
	uitest.MustContain(t, text, subs...)
}

func rowOf(text, id string) string { return uitest.RowOf(text, id) }

// altKey is alt and a key: alt+2 switches screens even from a text field.
func altKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModAlt} }

// blocksStates are the blocks screen in each of its states, for the test that every state
// fits every size; the extend dialog's own are in ui/dialog/extend.
func blocksStates(base Model) map[string]Model {
	list := source.BlockList{Blocks: syntheticBlocks(40), Now: testNow, Fees: map[string]model.Money{"cr-00000000000000001": model.MustMoney("123456.78")},
		Problems: []source.BlockProblem{{Region: "us-west-2", Message: "the region is down"}}}
	onBlocks := update(base, altKey('2'))
	loaded := update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), List: list})
	return map[string]Model{
		"blocks loading":    onBlocks,
		"blocks":            loaded,
		"blocks empty":      update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), List: source.BlockList{Now: testNow}}),
		"blocks failed":     update(onBlocks, blocksMsg{ID: onBlocks.blocks().ListingID(), Err: fmt.Errorf("every region failed: the network is down")}),
		"blocks detail":     update(loaded, keyMsg("j"), keyMsg("enter")),
		"blocks filter":     update(loaded, keyMsg("/"), keyMsg("a")),
		"blocks help":       update(loaded, keyMsg("?")),
		"search w/ warning": update(loaded, altKey('1')),
	}
}

// checkFits fails when a frame has more lines than the terminal, or a line wider than it.
func checkFits(t *testing.T, name string, m Model, w, h int) {
	t.Helper()
	uitest.CheckFits(t, name, m.View().Content, w, h)
}

func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

// footerDialog is a dialog that names its keys and does nothing else.
type footerDialog struct{ keys string }

func (d footerDialog) Update(tea.Msg) (dialog, tea.Cmd, bool) { return d, nil, false }
func (d footerDialog) View(int, int) string                   { return "stub" }
func (d footerDialog) Footer() string                         { return d.keys }

var instanceRE = regexp.MustCompile(`(i-[0-9a-f]+)\s+(\w+)`)

func lastLine(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-1]
}

func loadedBlocks(t *testing.T, w, h int) Model {
	t.Helper()
	m := update(New(testOptions(nil)), altKey('2'), tea.WindowSizeMsg{Width: w, Height: h})
	return update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Blocks: longBlocks(6), Now: testNow}})
}

// longBlocks are n blocks whose detail is longer than any pane below 120×40: ten instances,
// three extensions and four tags each, the last tag sorting last.
func longBlocks(n int) []model.Block {
	bs := syntheticBlocks(n)
	for i := range bs {
		b := &bs[i]
		for j := 0; j < 10; j++ {
			b.Instances = append(b.Instances, model.Instance{ID: fmt.Sprintf("i-%02d%015x", j, i), State: "running", LaunchTime: b.Start})
		}
		for j := 0; j < 3; j++ {
			b.Extensions = append(b.Extensions, model.Extension{DurationHours: 24, Start: b.End.Add(time.Duration(j) * 24 * time.Hour),
				End: b.End.Add(time.Duration(j+1) * 24 * time.Hour), Fee: model.MustMoney("1000"), Status: model.ExtensionPaymentSucceeded})
		}
		b.Tags = map[string]string{"project": "llm", "owner": "ml-team", "cost-center": "42", "zz-last": "the end " + b.ReservationID}
	}
	return bs
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
func openable() Options { return testOptions(callless{}) }

// opened is m after key k and the dialog it asked the root to open; the dialog's own calls
// are not run.
func opened(t *testing.T, m Model, k tea.KeyPressMsg) Model {
	t.Helper()
	mm, cmd := m.Update(k)
	m = mm.(Model)
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case uiscreen.OpenPurchase, uiscreen.OpenLaunch, uiscreen.OpenExtend, uiscreen.OpenUse:
			mm, _ := m.Update(msg)
			m = mm.(Model)
		}
	}
	if m.dialog == nil {
		t.Fatalf("%s opened no dialog:\n%s", k, m.View().Content)
	}
	return m
}

// press sends a key to the root and runs, one after another, the advisor's commands it
// starts (its searches, page by page) until they are done; other commands are left alone.
func pressAdvisor(t *testing.T, m Model, k tea.KeyPressMsg) Model {
	t.Helper()
	mm, cmd := m.Update(k)
	m = mm.(Model)
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case uiscreen.OpenPurchase:
			mm, next := m.Update(msg)
			m = mm.(Model)
			_ = next // the purchase dialog's dry run: not run here
		default:
			if advisorui.Owns(msg) {
				mm, next := m.Update(msg)
				m = mm.(Model)
				queue = append(queue, next)
			}
		}
	}
	return m
}

// reportBackend answers the report with in, over another backend for everything else.
type reportBackend struct {
	source.Backend
	mu    sync.Mutex
	in    report.Input
	reads int
}

func (b *reportBackend) Report(_ context.Context, _ []string, from, to time.Time) (report.Input, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reads++
	return b.in, nil
}
func (b *reportBackend) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reads
}

// reportInput is a block used half its hours and a plan whose use is unknown.
func reportInput() report.Input {
	start := time.Date(2026, 10, 5, 11, 30, 0, 0, time.UTC)
	return report.Input{Reservations: []report.Reservation{
		{Account: "123456789012", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-0123456789abcdef0",
			InstanceType: "p5.48xlarge", Count: 1, Start: start, End: start.Add(48 * time.Hour), ReservedHours: 48,
			Payments: []report.Payment{{At: start.Add(-time.Hour), Kind: report.Purchase, Amount: model.MustMoney("3100.25"), Known: true}},
			Use:      report.Use{Known: true, ReservedHours: 48, UsedHours: 24}},
		{Account: "123456789012", Region: "us-west-2", Source: model.SourceTrainingPlan, ID: "arn:aws:sagemaker:us-west-2:123456789012:training-plan/p",
			Name: "plan-nov", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start.AddDate(0, 1, 0), End: start.AddDate(0, 1, 3), ReservedHours: 72,
			Payments: []report.Payment{{At: start.AddDate(0, 1, -1), Kind: report.Purchase, Amount: model.MustMoney("9000"), Known: true}},
			Use:      report.Use{Why: "SageMaker does not publish a training plan's use"}},
	}}
}

func statusOf(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-2]
}

func wheel(x, y int, down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

// syntheticBlocks makes n blocks in every state, for the tests of sizes and the cursor.
func syntheticBlocks(n int) []model.Block {
	states := []model.BlockState{model.StateActive, model.StateScheduled, model.StatePaymentPending, model.StateExpired, model.StatePaymentFailed}
	out := make([]model.Block, n)
	for i := range out {
		start := testNow.Add(time.Duration(i-2) * 24 * time.Hour).Truncate(time.Hour)
		out[i] = model.Block{ReservationID: fmt.Sprintf("cr-%017x", i+1), BlockID: fmt.Sprintf("cb-%017x", i+1), Region: "us-east-1",
			AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1 + i%4, RunningCount: i % 2, State: states[i%len(states)],
			Start: start, End: start.Add(48 * time.Hour), Interconnect: "ok", Tags: map[string]string{"project": "llm"},
			Instances: []model.Instance{{ID: fmt.Sprintf("i-%017x", i), State: "running", LaunchTime: start}}}
	}
	return out
}

// callless is a backend that answers what needs no call (a source's capabilities, the
// platforms), so that the dialogs open; a test that runs their calls uses the emulator.
type callless struct{ source.Backend }

func (callless) Caps(model.Source) source.Caps {
	return source.Caps{DryRun: true, Launch: true}
}

func (callless) Platforms() []string { return nil }

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

// syntheticOfferings makes n varied offerings, for the tests of sizes and the benchmarks
// that need more rows than a search of the emulator returns.
func syntheticOfferings(n int) []model.Offering {
	cat := model.Catalog()
	out := make([]model.Offering, n)
	for i := range out {
		t := cat[i%len(cat)]
		r := t.Regions[i%len(t.Regions)]
		days := model.ValidDurationDays()[i%20]
		start := time.Date(2026, 12, 2+i%50, 11, 30, 0, 0, time.UTC)
		count := 1 + i%64
		fee := model.MoneyFromCents(int64(3000+i%997) * int64(count) * int64(days) * int64(t.Accelerators))
		out[i] = model.Offering{
			ID: fmt.Sprintf("cbr-%017x", i), Region: r, AvailabilityZone: r + string(rune('a'+i%4)),
			InstanceType: t.Name, Count: count, Start: start, End: start.AddDate(0, 0, days),
			DurationHours: days * 24, Fee: fee, Currency: "USD", Tenancy: "default",
		}
	}
	return out
}

// withResults returns m after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(m Model, offs []model.Offering) Model {
	m, id := startedSearch(m, submitted)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	events = append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
	mm, _ := m.Update(searchEventsMsg{ID: id, Events: events, Closed: true})
	return mm.(Model)
}

func update(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		mm, _ := m.Update(msg)
		m = mm.(Model)
	}
	return m
}

// The search screen's names, as the tests of the whole program read them.
const (
	paneForm    = searchscreen.PaneForm
	paneResults = searchscreen.PaneResults
	paneDetail  = searchscreen.PaneDetail
)

type (
	searchEventsMsg = searchscreen.EventsMsg
	watchTickMsg    = searchscreen.WatchTickMsg
)

// The search screen's steps, taken on the root as a key or a dialog would.
func (m Model) startSearch(q model.Query) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().StartSearch(q))
}

// updateOpen is update, and the dialog the last message asks for opened, as the program
// would open it from the message the screen sends.
func updateOpen(m Model, msgs ...tea.Msg) Model {
	m = update(m, msgs[:len(msgs)-1]...)
	mm, cmd := m.Update(msgs[len(msgs)-1])
	m = mm.(Model)
	if cmd != nil {
		if open := cmd(); uiscreen.IsOpen(open) {
			m = update(m, open)
		}
	}
	return m
}

// detailPage is the selected offering's detail as the detail pane lays it out now.
func (m Model) detailPage() (detail.Page, bool) { return m.searchNow().DetailPage() }

// startedSearch starts a search with start, taken on the search screen and given to the
// root as the program would (Model.StartedSearch), and returns the id the search's messages
// carry: nothing is asked of the backend, the test delivers the events, with that id.
func startedSearch(m Model, start func(searchscreen.Model) (searchscreen.Model, tea.Cmd)) (Model, int) {
	before := m.search().SearchID()
	m, id := m.StartedSearch(start)
	if id == before {
		panic("no search was started")
	}
	return m, id
}

// submitted presses enter at the search form, as a person starts its search: a second
// time when the first only closed the type filter.
func submitted(s searchscreen.Model) (searchscreen.Model, tea.Cmd) {
	s, cmd := s.Update(keyMsg("enter"))
	if cmd == nil {
		s, cmd = s.Update(keyMsg("enter"))
	}
	return s, cmd
}

// again starts the last search again.
func again(s searchscreen.Model) (searchscreen.Model, tea.Cmd) { return s.StartSearch(s.Query()) }

// focusedPane is the search pane the view marks as focused: without colour, the one
// drawn with a heavy border. -1 when none is.
func focusedPane(m Model) searchscreen.Pane {
	for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		_, title, ok := strings.Cut(l, "┏━ ")
		switch {
		case !ok:
		case strings.HasPrefix(title, "Search"):
			return paneForm
		case strings.HasPrefix(title, "Offerings"):
			return paneResults
		case strings.HasPrefix(title, "Detail"), strings.HasPrefix(title, "Chart"):
			return paneDetail
		}
	}
	return -1
}

// formLabels are the search form's field labels, by field.
var formLabels = map[searchform.Field]string{
	searchform.Source: "Source", searchform.Types: "Types", searchform.Count: "Count", searchform.Start: "Start",
	searchform.End: "End", searchform.Duration: "Duration", searchform.Regions: "Regions",
}

// focusedField is the form's field the view marks (›) as focused; -1 when none is.
func focusedField(m Model) searchform.Field {
	v := ansi.Strip(m.View().Content)
	for f, l := range formLabels {
		if strings.Contains(v, "›"+l+" ") {
			return f
		}
	}
	return -1
}

// fieldErrors is the ✗ the view shows under each of the form's fields, by field.
func fieldErrors(m Model) map[searchform.Field]string {
	errs := map[searchform.Field]string{}
	at := searchform.Field(-1)
	for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		// The form's pane is the leftmost: its lines start with its side.
		l, ok := strings.CutPrefix(l, "│")
		if !ok {
			if l, ok = strings.CutPrefix(l, "┃"); !ok {
				continue
			}
		}
		if i := strings.IndexAny(l, "│┃"); i >= 0 {
			l = l[:i]
		}
		for f, label := range formLabels {
			if strings.HasPrefix(l, " "+label+" ") || strings.HasPrefix(l, "›"+label+" ") {
				at = f
			}
		}
		if msg, ok := strings.CutPrefix(l, "  ✗ "); ok && at >= 0 {
			errs[at] += strings.TrimSpace(msg)
		}
	}
	return errs
}

// searched reports whether the view shows a search was made.
func searched(m Model) bool { return !strings.Contains(ansi.Strip(m.View().Content), "No search yet.") }

// foundOnScreen is the count of a finished search the view shows; -1 when it shows none.
func foundOnScreen(m Model) int {
	got := foundRE.FindStringSubmatch(ansi.Strip(m.View().Content))
	if got == nil {
		return -1
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

var aboveRE = regexp.MustCompile(`↑ (\d+) lines? above`)

// detailTop is the first line of the detail the view shows, from the count of the lines
// above it the pane says.
func detailTop(m Model) int {
	got := aboveRE.FindStringSubmatch(ansi.Strip(m.View().Content))
	if got == nil {
		return 0
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

// probeAnswer is one line of the largest-count probe as the view shows it.
type probeAnswer struct {
	region, typ string
	count       int    // 0: none at any count
	err         string // what is shown in place of a count
}

var probeRE = regexp.MustCompile(`[│┃] ([a-z]{2}(?:-[a-z]+)+-\d+) +(\S+) +(.*?) *[│┃]`)

// probeOnScreen is the probe's answers under "Largest count with any offering:".
func probeOnScreen(m Model) []probeAnswer {
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
func regionsOnScreen(t *testing.T, m Model) (order []string, lines map[string]regionLine) {
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
	ctx := context.Background()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: testNow, End: testNow.Add(14 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	var offs []model.Offering
	for ev := range capacityblocks.New(c).Search(ctx, q) {
		offs = append(offs, ev.Offerings...)
	}
	if len(offs) == 0 {
		t.Fatal("no offering to buy")
	}
	o := offs[0]
	res, err := capacityblocks.New(c).Purchase(ctx, o, "", nil)
	if err != nil || res.Block.ReservationID == "" {
		t.Fatalf("buying %s: %+v, %v", o.ID, res, err)
	}
	return o, res.Block
}

// blockNow is the reservation as the adapter lists it now.
func blockNow(t *testing.T, c *awsapi.Client, id string) model.Block {
	t.Helper()
	for _, b := range reservations(t, c, "us-east-1") {
		if b.ReservationID == id {
			return b
		}
	}
	t.Fatalf("reservation %s is not listed", id)
	return model.Block{}
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
	return newScreenOf(t, dialogHost{m, cmd}, 160, 48)
}

func finalHost(t *testing.T, s *screen) Model {
	t.Helper()
	s.press("ctrl+c")
	return s.tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(dialogHost).Model
}

var _ = ec2sim.Faults{}
