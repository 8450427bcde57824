package spending

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// signalWriter reports its first write: the prompt has been printed.
type signalWriter struct{ wrote chan struct{} }

func (w *signalWriter) Write(p []byte) (int, error) {
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

// A "buy" typed before the prompt appeared is thrown away: only what is typed after the
// person has seen the prompt can confirm.
func TestTypedAheadWordDoesNotConfirm(t *testing.T) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	defer master.Close()
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skip(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skip(err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer slave.Close()

	if _, err := master.Write([]byte("buy\n")); err != nil {
		t.Fatal(err)
	}
	// Wait until the line discipline holds it, so that it is surely typed before the prompt.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if n, err := unix.IoctlGetInt(int(slave.Fd()), unix.TIOCINQ); err == nil && n >= len("buy\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(`"buy" never reached the terminal's input queue`)
		}
	}
	stderr := &signalWriter{wrote: make(chan struct{}, 1)}
	ios := atTerminal(slave, stderr, 100*time.Millisecond)
	got := make(chan bool, 1)
	go func() { got <- readTyped(context.Background(), ios, "BUY?", "buy") }()
	<-stderr.wrote
	time.Sleep(2 * ios.Dwell) // a person answering after the dwell: "no", then an empty line
	if _, err := master.Write([]byte("no\n\n")); err != nil {
		t.Fatal(err)
	}
	if <-got {
		t.Fatal(`a "buy" typed before the prompt confirmed the purchase`)
	}
}

// waitFor waits until stderr (written by askTyped's goroutine) holds sub.
func (w *promptBuffer) waitFor(t *testing.T, sub string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(w.String(), sub); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("stderr never said %q:\n%s", sub, w.String())
		}
	}
}

// openPTY is a pseudo-terminal's two ends; the test is skipped where none can be had.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skip(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skip(err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// atTerminal is the streams of a person typing at in, a terminal, after dwell.
func atTerminal(in *os.File, stderr io.Writer, dwell time.Duration) *cmdutil.IOStreams {
	ios := &cmdutil.IOStreams{In: in, Out: io.Discard, ErrOut: stderr, Dwell: dwell}
	ios.SetStdinTTY(true)
	return ios
}

// A line sent right after the prompt, within the dwell, is discarded and said; the word
// counts once typed after it. A wrong word is named and asked again; an empty line cancels.
func TestWordTypedWithinTheDwellDoesNotConfirm(t *testing.T) {
	master, slave := openPTY(t)
	stderr := &promptBuffer{}
	ios := atTerminal(slave, stderr, 300*time.Millisecond)
	got := make(chan bool, 1)
	start := time.Now()
	go func() { got <- readTyped(context.Background(), ios, "BUY?", "buy") }()
	stderr.waitFor(t, "Type buy and press enter")
	if _, err := master.Write([]byte("buy\n")); err != nil {
		t.Fatal(err)
	}
	stderr.waitFor(t, "Input typed before the confirmation was readable was discarded; type buy now: ")
	if time.Since(start) < ios.Dwell {
		t.Fatalf("the dwell did not pass before the input was read")
	}
	select {
	case ok := <-got:
		t.Fatalf("a line typed within the dwell was taken (confirmed %v)", ok)
	case <-time.After(100 * time.Millisecond):
	}
	master.Write([]byte("b\n"))
	stderr.waitFor(t, `"b" is not buy: type buy, or an empty line to cancel: `)
	master.Write([]byte("buy\n"))
	if !<-got {
		t.Fatalf("the word typed after the dwell did not confirm:\n%s", stderr.String())
	}

	go func() { got <- readTyped(context.Background(), ios, "BUY?", "buy") }()
	time.Sleep(2 * ios.Dwell)
	master.Write([]byte("\n"))
	if <-got {
		t.Fatal("an empty line confirmed")
	}
}

// promptBuffer lets the test read what the prompting goroutine writes.
type promptBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *promptBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *promptBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
