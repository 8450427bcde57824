package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
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

func (s *screen) press(keys ...string)                        { s.Press(keys...) }
func (s *screen) typeText(text string)                        { s.Type(text) }
func (s *screen) waitRaw(what string, cond func([]byte) bool) { s.t.Helper(); s.WaitRaw(what, cond) }

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
func searchAndOpen(t *testing.T, s *screen)  { t.Helper(); s.SearchAndOpen() }
func waitLengths(s *screen) string           { s.t.Helper(); return s.WaitLengths() }
func mustContain(t *testing.T, text string, subs ...string) {
	t.Helper()
	uitest.MustContain(t, text, subs...)
}

func rowOf(text, id string) string   { return uitest.RowOf(text, id) }
func dialogBox(screen string) string { return uitest.DialogBox(screen) }
