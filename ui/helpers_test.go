package ui

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/internal/uitest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/aws/trainingplans"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The tests' clock: the UI's Now and the emulator's start, with the emulator's clock
// slowed to a crawl so that a test's seconds do not move the market.
var (
	testNow = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	testLoc = time.FixedZone("PST", -8*3600)
)

// emulatorBackend serves ec2sim over HTTP and reaches it through the real adapter and SDK,
// with static credentials from the environment and no shared config files.
func emulatorBackend(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"config", "credentials"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAUITEST0000000000")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ui-test-secret")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_EC2", "")
	t.Setenv("AWS_ENDPOINT_URL_SAGEMAKER", "")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	sim, err := ec2sim.New(ec2sim.Options{Seed: 7, Start: testNow, Speed: 1e-9, Faults: faults,
		Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	c, err := awsapi.New(context.Background(), awsapi.Config{
		Region: "us-east-1", EndpointURL: srv.URL, Version: "test",
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Join(dir, "journal"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return sources.New(c, []source.Source{capacityblocks.New(c), trainingplans.Source(trainingplans.New(c))}), sim
}

func testOptions(b source.Backend) Options {
	return Options{
		Backend: b, Simulated: true, Profile: "test", Region: "us-east-1", NoColor: true,
		Now: func() time.Time { return testNow }, Location: testLoc,
		// A person who reads before every key: each reading is past the confirmation's dwell.
		Wall: spend.NewFakeClock(testNow, 2*model.ConfirmDwell).Now,
	}
}

// screen runs the model in teatest and reads what a terminal would show with x/vt.
type screen struct {
	t   testing.TB
	tm  *teatest.TestModel
	emu *vt.Emulator
	raw []byte // everything the program wrote, for what a screen does not show (OSC 52)
}

func newScreen(t testing.TB, m Model, w, h int) *screen {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	emu := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, emu) // the emulator answers terminal queries; nobody needs them
	// The output is not a tty, so LF does not return the carriage: LNM makes it.
	emu.Write([]byte("\x1b[20h"))
	return &screen{t: t, tm: tm, emu: emu}
}

// waitFor reads the program's output into the terminal until cond holds for the screen.
// The time limit only keeps a broken test from hanging; nothing is asserted about speed.
func (s *screen) waitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	buf := make([]byte, 64<<10)
	out := s.tm.Output()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, _ := out.Read(buf)
		if n > 0 {
			s.emu.Write(buf[:n])
			s.raw = append(s.raw, buf[:n]...)
		}
		text := s.emu.String()
		if cond(text) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s; the screen is:\n%s", what, text)
		}
		if n == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func (s *screen) waitText(sub string) string {
	s.t.Helper()
	return s.waitFor(quote(sub), func(text string) bool { return strings.Contains(text, sub) })
}

func quote(s string) string { return "\"" + s + "\"" }

// press sends keys by name: enter, tab, shift+tab, esc, space, ctrl+X, or one character.
func (s *screen) press(keys ...string) {
	for _, k := range keys {
		s.tm.Send(keyMsg(k))
	}
}

// typeText sends each character as a key.
func (s *screen) typeText(text string) { s.tm.Type(text) }

func keyMsg(k string) tea.KeyPressMsg { return uitest.Key(k) }

// waitRaw reads the program's output until cond holds for everything it wrote, for what
// a screen does not show: a clipboard write or a notification may reach the terminal a
// frame before or after the text that goes with it.
func (s *screen) waitRaw(what string, cond func(raw []byte) bool) {
	s.t.Helper()
	s.waitFor(what, func(string) bool { return cond(s.raw) })
}

// final quits and returns the final model, with s.raw holding all the program wrote.
func (s *screen) final() Model {
	s.t.Helper()
	s.press("ctrl+c")
	m := s.tm.FinalModel(s.t, teatest.WithFinalTimeout(30*time.Second)).(Model)
	rest, _ := io.ReadAll(s.tm.Output())
	s.raw = append(s.raw, rest...)
	return m
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
