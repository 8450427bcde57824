//go:build linux

package flows

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

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
	home := b.TempDir()
	master, slave, err := openPTY(160, 48)
	if err != nil {
		b.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	cmd := demoCommand(bin, home, slave)
	out := &terminalOutput{}
	go out.read(master)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	slave.Close()
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
