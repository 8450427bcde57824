//go:build unix

package main

// Helpers of the end-to-end tests (e2e_test.go, e2e_modes_test.go, team_test.go): the real
// binary, built once, run as `gpublock sim` and as the TUI in a pseudo-terminal read
// through a terminal emulator, or as the commands. Nothing here calls the program's Go
// functions: everything goes through the binary, its flags, its environment and its
// terminal, as for a person.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

// e2eDir holds the binary built for the end-to-end tests; TestMain removes it.
var e2eDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gpublock-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: temporary directory:", err)
		os.Exit(1)
	}
	e2eDir = dir
	// In-process commands never keep a market cache in the user's directory, nor share one
	// between tests: under a file, no cache directory can be made. A test that sets its own
	// XDG_CACHE_HOME has its own cache.
	// go build (the end-to-end binary) keeps its own cache where it was.
	if os.Getenv("GOCACHE") == "" {
		if d, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(d, "go-build"))
		}
	}
	blocked := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(blocked, nil, 0o600); err == nil {
		os.Setenv("XDG_CACHE_HOME", filepath.Join(blocked, "cache"))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var e2eBuild struct {
	once sync.Once
	path string
	err  error
}

// e2eBinary builds gpublock once per test process, on the first test that needs it, so
// that a run of other tests pays nothing for it.
func e2eBinary(t *testing.T) string {
	t.Helper()
	e2eBuild.once.Do(func() {
		bin := filepath.Join(e2eDir, "gpublock")
		out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
		if err != nil {
			e2eBuild.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		e2eBuild.path = bin
	})
	if e2eBuild.err != nil {
		t.Fatal(e2eBuild.err)
	}
	return e2eBuild.path
}

// e2eWait is how long any one expected thing may take. It only keeps a broken test from
// hanging; nothing is asserted about speed.
const e2eWait = 30 * time.Second

// e2eSim is a `gpublock sim` process on a free port of 127.0.0.1.
type e2eSim struct {
	url     string
	state   string // its --state file
	cmd     *exec.Cmd
	out     *cmdtest.Buffer // what it printed, read while it runs
	done    chan struct{}   // closed when it has exited, with its Wait error in waitErr
	waitErr error
	stopped bool
}

// stop interrupts the emulator, as Ctrl-C does, and checks that it stops cleanly.
func (s *e2eSim) stop(t *testing.T) {
	t.Helper()
	if s.stopped {
		return
	}
	s.stopped = true
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
		if s.waitErr != nil || !strings.Contains(s.out.String(), "gpublock sim: stopped") {
			t.Errorf("gpublock sim did not stop cleanly on an interrupt: %v\n%s", s.waitErr, s.out.String())
		}
	case <-time.After(e2eWait):
		s.cmd.Process.Kill()
		<-s.done
		t.Errorf("gpublock sim did not stop on an interrupt:\n%s", s.out.String())
	}
}

var e2eSimURL = regexp.MustCompile(`AWS_ENDPOINT_URL_EC2=(http://127\.0\.0\.1:\d+)`)

// startE2ESim runs `gpublock sim` with a seed, a start time, a clock slowed to a crawl (so
// that the test's own seconds do not move the market) and a state file in the test's
// directory. It is interrupted, and must stop cleanly, when the test ends.
func startE2ESim(t *testing.T, seed int, clock time.Time) *e2eSim {
	t.Helper()
	return startE2ESimState(t, seed, clock, filepath.Join(t.TempDir(), "sim-state.json"))
}

// startE2ESimState is startE2ESim on a given state file, as a restart would use it.
func startE2ESimState(t *testing.T, seed int, clock time.Time, state string) *e2eSim {
	t.Helper()
	s := &e2eSim{state: state, out: &cmdtest.Buffer{}}
	s.cmd = exec.Command(e2eBinary(t), "sim", "--addr", "127.0.0.1:0", "--seed", fmt.Sprint(seed),
		"--clock", clock.UTC().Format(time.RFC3339), "--speed", "0.000000001", "--state", s.state)
	s.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	s.cmd.SysProcAttr = e2eProcAttr(syscall.SysProcAttr{})
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.done = make(chan struct{})
	go func() { s.waitErr = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() { s.stop(t) })
	for deadline := time.Now().Add(e2eWait); s.url == ""; time.Sleep(10 * time.Millisecond) {
		if m := e2eSimURL.FindStringSubmatch(s.out.String()); m != nil {
			s.url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("gpublock sim printed no endpoint:\n%s", s.out.String())
		}
	}
	return s
}

// clock reads the emulator's time from its control endpoint.
func (s *e2eSim) clock(t *testing.T) time.Time {
	t.Helper()
	resp, err := http.Get(s.url + "/_sim/clock")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	now, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("GET /_sim/clock: %q: %v", b, err)
	}
	return now
}

// setClock moves the emulator's clock, as `curl -d set=… URL/_sim/clock` does.
func (s *e2eSim) setClock(t *testing.T, at time.Time) {
	t.Helper()
	resp, err := http.PostForm(s.url+"/_sim/clock", url.Values{"set": {at.UTC().Format(time.RFC3339)}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /_sim/clock set=%s: %d %s", at.UTC().Format(time.RFC3339), resp.StatusCode, b)
	}
	if got := s.clock(t); got.Before(at) || got.Sub(at) > time.Minute {
		t.Fatalf("the emulator's clock is %s after setting it to %s", got, at)
	}
}

// e2eEnv is the whole environment of a gpublock run against the emulator: static keys in
// the environment, empty AWS config files, and HOME and the XDG directories in the test's
// own directory, so that nothing of the machine's (a profile, a journal, a config file)
// leaks in and nothing is left behind. The same home is shared by the runs of one test, as
// one person's would be.
func e2eEnv(t *testing.T, sim *e2eSim, home string) []string {
	t.Helper()
	for _, name := range []string{"aws-config", "aws-credentials"} {
		if err := os.WriteFile(filepath.Join(home, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"AWS_CONFIG_FILE=" + filepath.Join(home, "aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "aws-credentials"),
		"AWS_ACCESS_KEY_ID=AKIAE2ETEST000000001",
		"AWS_SECRET_ACCESS_KEY=e2e-test-secret-do-not-print",
		"AWS_REGION=us-east-1",
		"AWS_ENDPOINT_URL_EC2=" + sim.url,
		"AWS_ENDPOINT_URL_STS=" + sim.url,
		"AWS_EC2_METADATA_DISABLED=true",
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
	}
}

// e2eCommand is the binary run with args in env, ready to start; it dies with the test
// process where the system allows (e2eProcAttr).
func e2eCommand(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(e2eBinary(t), args...)
	cmd.Env = env
	cmd.SysProcAttr = e2eProcAttr(syscall.SysProcAttr{})
	return cmd
}

// e2eRun runs a command of the binary to its end and returns its exit code and output.
func e2eRun(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := e2eCommand(t, env, args...)
	cmd.Stdin = strings.NewReader("")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(e2eWait):
		cmd.Process.Kill()
		<-done
		t.Fatalf("gpublock %s did not finish:\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out.String(), errb.String())
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("gpublock %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

// e2eRunJSON runs a command of the binary that prints JSON and returns what it printed: a
// failure, or output that is not a T, fails the test.
func e2eRunJSON[T any](t *testing.T, env []string, args ...string) T {
	t.Helper()
	code, out, errs := e2eRun(t, env, args...)
	var v T
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("gpublock %s: exit %d, stderr %q\n%s", strings.Join(args, " "), code, errs, out)
	}
	return v
}

// e2eTerm is the TUI on a pseudo-terminal, its output read into a terminal emulator that
// also answers the program's queries (its background colour, its attributes) as a real
// terminal would.
type e2eTerm struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	// exited is closed when the program has exited, with its Wait error in waitErr.
	exited  chan struct{}
	waitErr error

	mu  sync.Mutex
	emu *vt.Emulator
	raw bytes.Buffer // every byte the program wrote
	eof chan struct{}
}

// startE2ETerm starts the binary with args on a w×h pseudo-terminal. setup may change the
// emulated terminal (its background colour) before the program starts. The test is
// skipped when no pseudo-terminal can be opened.
func startE2ETerm(t *testing.T, env []string, w, h int, setup func(*vt.Emulator), args ...string) *e2eTerm {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	if setup != nil {
		setup(emu)
	}
	bin := e2eBinary(t)
	// Only a terminal that cannot be had skips the test; a program that does not start fails it.
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)}); err != nil {
		ptmx.Close()
		tty.Close()
		t.Skipf("the pseudo-terminal cannot be sized: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// Its own session with the terminal as the controlling one, as a login shell gives.
	cmd.SysProcAttr = e2eProcAttr(syscall.SysProcAttr{Setsid: true, Setctty: true})
	err = cmd.Start()
	tty.Close() // the program holds it; the master reads EIO once the program has gone
	if err != nil {
		ptmx.Close()
		t.Fatalf("starting %s: %v", bin, err)
	}
	term := &e2eTerm{t: t, cmd: cmd, ptmx: ptmx, emu: emu, exited: make(chan struct{}), eof: make(chan struct{})}
	go func() { term.waitErr = cmd.Wait(); close(term.exited) }()
	go term.read()
	// The emulator's answers to the program's queries go back to it as a terminal's would.
	copied := make(chan struct{})
	go func() { io.Copy(ptmx, emu); close(copied) }()
	t.Cleanup(func() {
		select {
		case <-term.exited:
		default:
			cmd.Process.Kill()
			<-term.exited
		}
		ptmx.Close()
		// vt's Close sets a flag its Read checks unguarded: end the copy through the input
		// pipe first, so that nothing reads while the emulator closes.
		if pw, ok := emu.InputPipe().(*io.PipeWriter); ok {
			pw.Close()
			<-copied
		}
		emu.Close()
	})
	return term
}

func (term *e2eTerm) read() {
	defer close(term.eof)
	buf := make([]byte, 32<<10)
	for {
		n, err := term.ptmx.Read(buf)
		if n > 0 {
			term.mu.Lock()
			term.raw.Write(buf[:n])
			term.emu.Write(buf[:n])
			term.mu.Unlock()
		}
		if err != nil {
			return // EIO once the program has exited and closed the terminal
		}
	}
}

// screen is the text the terminal shows now.
func (term *e2eTerm) screen() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.emu.String()
}

// rawBytes is a copy of everything the program has written.
func (term *e2eTerm) rawBytes() []byte {
	term.mu.Lock()
	defer term.mu.Unlock()
	return bytes.Clone(term.raw.Bytes())
}

// waitFor polls the screen until cond holds for it and returns that screen; on the
// deadline, or if the program exits first, the test fails with the screen as it is.
func (term *e2eTerm) waitFor(what string, cond func(screen string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		text := term.screen()
		if cond(text) {
			return text
		}
		select {
		case <-term.eof:
			// The last bytes are in: one more look, then the program is gone.
			if text = term.screen(); cond(text) {
				return text
			}
			term.t.Fatalf("the program ended while waiting for %s; the screen is:\n%s", what, text)
		default:
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("waiting for %s; the screen is:\n%s", what, text)
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// waitText waits until the screen shows every one of subs.
func (term *e2eTerm) waitText(subs ...string) string {
	term.t.Helper()
	return term.waitFor(fmt.Sprintf("%q", subs), func(text string) bool {
		for _, s := range subs {
			if !strings.Contains(text, s) {
				return false
			}
		}
		return true
	})
}

// Keys as a terminal sends them.
const (
	keyEnter    = "\r"
	keyTab      = "\t"
	keyShiftTab = "\x1b[Z"
	keyDown     = "\x1b[B"
	keyUp       = "\x1b[A"
	keyRight    = "\x1b[C"
	keyEsc      = "\x1b"
	keyCtrlU    = "\x15"
)

// press types keys, one write each, as a person's terminal sends them. A lone esc is
// followed by the next key only after a pause in the program's input, which a terminal
// user cannot avoid either; callers wait for the screen to change after it instead.
func (term *e2eTerm) press(keys ...string) {
	term.t.Helper()
	for _, k := range keys {
		if _, err := term.ptmx.Write([]byte(k)); err != nil {
			term.t.Fatalf("typing %q: %v", k, err)
		}
	}
}

// exit waits for the program to end and returns its exit code and everything it wrote.
func (term *e2eTerm) exit() (int, []byte) {
	term.t.Helper()
	select {
	case <-term.exited:
	case <-time.After(e2eWait):
		term.t.Fatalf("the program did not exit; the screen is:\n%s", term.screen())
	}
	select {
	case <-term.eof:
	case <-time.After(e2eWait):
		term.t.Fatal("the terminal was not closed after the program exited")
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(term.waitErr, &ee) {
		code = ee.ExitCode()
	} else if term.waitErr != nil {
		term.t.Fatal(term.waitErr)
	}
	return code, term.rawBytes()
}

// e2eStart is the emulator's clock when a test starts; it stands still unless moved.
var e2eStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// readTheFacts waits, once a spend dialog's facts are on the screen, for as long as the
// dialog discards keys after drawing them (model.ConfirmDwell), as a person reading them would.
func (term *e2eTerm) readTheFacts() { time.Sleep(model.ConfirmDwell + 200*time.Millisecond) }

func (term *e2eTerm) typeText(s string) {
	for _, c := range s {
		term.press(string(c))
	}
}

// e2eFoundAnyRE is the line a search ends with.
var e2eFoundAnyRE = regexp.MustCompile(`Found (\d+) offerings? in`)

// searchBlocks runs the form's search and keeps the Capacity Blocks' rows (the table's
// filter), so that the first row is a block whatever the clock: the demo's market runs on the
// real one, and a training plan may start first.
func (term *e2eTerm) searchBlocks() string {
	term.t.Helper()
	term.press(keyEnter)
	text := term.waitFor("the end of the search", e2eFoundAnyRE.MatchString)
	if n := e2eFoundAnyRE.FindStringSubmatch(text)[1]; n == "0" {
		term.t.Fatalf("the search found nothing:\n%s", text)
	}
	term.press("/")
	term.typeText("block")
	term.press(keyEnter)
	return term.waitText("filtered from")
}

// purchaseDialog opens the purchase dialog of the focused row (enter) and waits until its
// dry run has answered and the screen shows more.
func (term *e2eTerm) purchaseDialog(more ...string) string {
	term.t.Helper()
	term.press(keyEnter)
	return term.waitText(append([]string{"Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)"}, more...)...)
}

// confirmBuy types buy in the open purchase dialog once its facts could be read, as a
// person does, and waits for the receipt and more.
func (term *e2eTerm) confirmBuy(more ...string) string {
	term.t.Helper()
	term.readTheFacts()
	term.typeText("buy")
	term.press(keyEnter)
	return term.waitText(append([]string{"BOUGHT: the Capacity Block is yours."}, more...)...)
}

// boughtNothing gives what was sent to the purchase dialog d (past the dwell that discards
// keys) to buy, fails the test if it bought, and closes the dialog.
func (term *e2eTerm) boughtNothing(d time.Duration, what string) {
	term.t.Helper()
	time.Sleep(d)
	if text := term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		term.t.Fatalf("%s bought:\n%s", what, text)
	}
	term.closeDialog("Buy a Capacity Block")
}

// closeDialog presses esc and waits until the dialog's mark has left the screen: a key
// typed right after a lone esc would be read as alt+key, on any terminal.
func (term *e2eTerm) closeDialog(mark string) {
	term.t.Helper()
	term.press(keyEsc)
	term.waitFor("the dialog with "+strconv.Quote(mark)+" to close", func(s string) bool { return !strings.Contains(s, mark) })
}
