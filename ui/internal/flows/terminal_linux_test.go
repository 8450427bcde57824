//go:build linux

package flows

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// demoCommand is the built program's demo on the terminal slave (its controlling
// terminal, in a session of its own), with home as its home and state directory and no AWS
// configuration.
func demoCommand(bin, home string, slave *os.File) *exec.Cmd {
	cmd := exec.Command(bin, "--demo")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+home, "TERM=xterm-256color",
		"AWS_CONFIG_FILE="+filepath.Join(home, "none"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(home, "none"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	return cmd
}

// startDemo starts the demo (demoCommand) on a pseudo-terminal of w×h, with a home of its
// own, what it writes collected in out; the terminal is closed when tb ends.
func startDemo(tb testing.TB, bin string, w, h int) (master *os.File, cmd *exec.Cmd, out *terminalOutput) {
	tb.Helper()
	master, slave, err := openPTY(w, h)
	if err != nil {
		tb.Skipf("no pseudo-terminal: %v", err)
	}
	tb.Cleanup(func() { master.Close() })
	cmd = demoCommand(bin, tb.TempDir(), slave)
	out = &terminalOutput{}
	go out.read(master)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	slave.Close()
	return master, cmd, out
}

// openPTY opens a pseudo-terminal of the given size: the program sees a real terminal, so
// it learns its size and draws as it would for a person.
func openPTY(w, h int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(h), Col: uint16(w)}); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// terminalOutput collects what the program writes to the terminal.
type terminalOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *terminalOutput) read(f *os.File) {
	p := make([]byte, 32<<10)
	for {
		n, err := f.Read(p)
		o.mu.Lock()
		o.buf.Write(p[:n])
		o.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (o *terminalOutput) wait(sub string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		o.mu.Lock()
		ok := bytes.Contains(o.buf.Bytes(), []byte(sub))
		o.mu.Unlock()
		if ok {
			return true
		}
		time.Sleep(200 * time.Microsecond)
	}
	return false
}

// procKB reads a field such as VmRSS or VmHWM of /proc/PID/status, in kB.
func procKB(pid int, field string) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb
		}
	}
	return 0
}

// Process start to first frame in demo mode: the real binary, built here, run on a
// pseudo-terminal of 160×48, timed from exec until the first full frame (the Search pane's
// title) has been written, and until the backend is ready (the header says SIMULATED:
// the emulator started in-process and reached through the adapter). It also reports the
// resident memory then and the peak after a search of every region selling p5.48xlarge.
// Goals: first frame ≤ 150 ms, under 60 MB resident.
func BenchmarkProcessFirstFrame(b *testing.B) {
	bin := buildGpublock(b)
	home := b.TempDir()
	var frame, ready time.Duration
	var rssKB, hwmKB float64
	runs := 0
	for b.Loop() {
		master, slave, err := openPTY(160, 48)
		if err != nil {
			b.Skipf("no pseudo-terminal: %v", err)
		}
		cmd := demoCommand(bin, home, slave)
		out := &terminalOutput{}
		go out.read(master)
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if !out.wait("Search", 10*time.Second) {
			cmd.Process.Kill()
			b.Fatalf("no first frame in 10 s:\n%q", out.buf.String())
		}
		frame += time.Since(start)
		if !out.wait("SIMULATED", 10*time.Second) {
			cmd.Process.Kill()
			b.Fatalf("the backend was not ready in 10 s:\n%q", out.buf.String())
		}
		ready += time.Since(start)
		rssKB += procKB(cmd.Process.Pid, "VmRSS")
		b.StopTimer()
		// Every region selling p5.48xlarge: tab to the regions, a, enter.
		master.Write([]byte("\t\t\t\t\ta\r"))
		if !out.wait("Found ", 20*time.Second) {
			b.Errorf("the search did not finish:\n%q", out.buf.String())
		}
		hwmKB += procKB(cmd.Process.Pid, "VmHWM")
		master.Write([]byte{3}) // ctrl+c
		cmd.Wait()
		slave.Close()
		master.Close()
		runs++
		b.StartTimer()
	}
	b.ReportMetric(float64(frame.Microseconds())/1000/float64(runs), "ms/first-frame")
	b.ReportMetric(float64(ready.Microseconds())/1000/float64(runs), "ms/backend-ready")
	b.ReportMetric(rssKB/1024/float64(runs), "MB-RSS-when-ready")
	b.ReportMetric(hwmKB/1024/float64(runs), "MB-peak-RSS-after-search")
}

// Resident memory of this (test) process holding the search screen with 10,000 offerings
// at 160×48, after a frame: an upper bound for the program's own, since the test binary
// carries the emulator and the test framework too. Goal: under 60 MB.
func BenchmarkRSS10k(b *testing.B) {
	offs := uitest.SyntheticOfferings(10_000)
	var rss float64
	for b.Loop() {
		m := update(withResults(ui.New(testOptions(nil)), offs), tea.WindowSizeMsg{Width: 160, Height: 48})
		_ = m.View()
		runtime.GC()
		debug.FreeOSMemory()
		rss = procKB(os.Getpid(), "VmRSS")
		runtime.KeepAlive(m)
	}
	b.ReportMetric(rss/1024, "MB-RSS")
}

// buildGpublock builds the program into a temporary directory.
func buildGpublock(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "gpublock")
	args := []string{"build", "-o", bin}
	if uitest.RaceBuild {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "../../../cmd/gpublock")...)
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// gpublock --demo as a person runs it: on a terminal, without AWS credentials, enter
// searches, q quits with status 0 and leaves the alternate screen.
func TestDemoOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	master, cmd, out := startDemo(t, buildGpublock(t), 120, 40)
	defer cmd.Process.Kill()
	for _, want := range []string{"SIMULATED", "account 123456789012"} {
		if !out.wait(want, 20*time.Second) {
			t.Fatalf("no %q on the terminal:\n%q", want, out.buf.String())
		}
	}
	master.Write([]byte("\r"))
	if !out.wait("Found ", 20*time.Second) {
		t.Fatalf("the default search did not finish:\n%q", out.buf.String())
	}
	master.Write([]byte("q"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("q did not quit")
	}
	if !out.wait("\x1b[?1049l", time.Second) {
		t.Error("the alternate screen was not left")
	}
}

// cpuNanos is the CPU time every thread of a process has used so far, from the first field
// of /proc/PID/task/TID/schedstat (nanoseconds on a CPU): finer than the clock ticks of
// /proc/PID/stat, which cannot tell 0.1% from 0.3% in a few seconds.
func cpuNanos(pid int) (int64, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no schedstat for %d: %v", pid, err)
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

// settle waits until the program has written nothing for quiet: the first frame, the
// identity and the blocks have arrived and the spinner has stopped.
func (o *terminalOutput) settle(quiet, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	last, since := -1, time.Now()
	for time.Now().Before(deadline) {
		o.mu.Lock()
		n := o.buf.Len()
		o.mu.Unlock()
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= quiet {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// Idle CPU of gpublock --demo on a 160×48 pseudo-terminal, on each screen once it has stopped
// changing: the CPU time of all its threads over iterations of 0.2 s, reported as a
// percentage of one core (the process carries the emulator, so this bounds the TUI's own).
// Goal: at most 0.3% on every screen. Run it with a fixed count of iterations:
// go test ./ui -run '^$' -bench IdleCPU -benchtime 50x
func BenchmarkIdleCPU(b *testing.B) {
	bin := buildGpublock(b)
	for _, c := range []struct {
		name string
		// search runs the default search first; key then opens the screen.
		search bool
		key    string
	}{
		{name: "screen=first"},
		{name: "screen=search", search: true},
		{name: "screen=blocks", search: true, key: "2"},
		{name: "screen=advisor", search: true, key: "3"},
		{name: "screen=report", search: true, key: "4"},
	} {
		b.Run(c.name, func(b *testing.B) { idleCPU(b, bin, c.search, c.key) })
	}
}

func idleCPU(b *testing.B, bin string, search bool, key string) {
	master, cmd, out := startDemo(b, bin, 160, 48)
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	if !out.wait("SIMULATED", 20*time.Second) {
		b.Fatalf("the backend was not ready:\n%q", out.buf.String())
	}
	if search {
		master.Write([]byte("\r"))
		if !out.wait("Found ", 20*time.Second) {
			b.Fatalf("the default search did not finish:\n%q", out.buf.String())
		}
	}
	if key != "" {
		if !out.settle(time.Second, 30*time.Second) {
			b.Fatal("the screen kept changing")
		}
		master.Write([]byte(key))
	}
	if !out.settle(2*time.Second, 30*time.Second) {
		b.Fatal("the screen kept changing")
	}
	pid := cmd.Process.Pid
	out.mu.Lock()
	wrote := out.buf.Len()
	out.mu.Unlock()
	b.ResetTimer()
	start := time.Now()
	before, err := cpuNanos(pid)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		time.Sleep(200 * time.Millisecond)
	}
	after, err := cpuNanos(pid)
	if err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(after-before)/float64(wall.Nanoseconds())*100, "%-core")
	// A screen that changed in the window was not idle, unless the minute it shows turned
	// (the header's clock, times to a start): the figure would be of something else.
	out.mu.Lock()
	changed := out.buf.String()[wrote:]
	out.mu.Unlock()
	if minuteTurned := !start.Truncate(time.Minute).Equal(start.Add(wall).Truncate(time.Minute)); changed != "" && !minuteTurned {
		b.Errorf("the screen changed while idle: %q", changed)
	}
}
