package main

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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

	oldIn, oldTerm := confirmInput, inputIsTerminal
	confirmInput, inputIsTerminal = slave, func() bool { return true }
	defer func() { confirmInput, inputIsTerminal = oldIn, oldTerm }()

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
	got := make(chan bool, 1)
	go func() { got <- askTyped(context.Background(), stderr, "BUY?", "buy") }()
	<-stderr.wrote
	if _, err := master.Write([]byte("no\n")); err != nil {
		t.Fatal(err)
	}
	if <-got {
		t.Fatal(`a "buy" typed before the prompt confirmed the purchase`)
	}
}
