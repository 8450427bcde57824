package notify

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Only exit 0 within the time approves; a command that hangs is ended and has not.
func TestApprove(t *testing.T) {
	e := Event{ReservationID: "cr-1", Region: "us-east-1", Length: "1d", Fee: "100.00", NewEnd: time.Now()}
	if ok, why := Approve(context.Background(), `test "$GPUBLOCK_LENGTH" = 1d && test "$GPUBLOCK_FEE" = 100.00`, e, 5*time.Second); !ok {
		t.Errorf("exit 0 refused: %s", why)
	}
	if ok, _ := Approve(context.Background(), "exit 1", e, 5*time.Second); ok {
		t.Error("exit 1 approved")
	}
	start := time.Now()
	ok, why := Approve(context.Background(), "sleep 30", e, 200*time.Millisecond)
	if ok || !strings.Contains(why, "timed out") || time.Since(start) > 10*time.Second {
		t.Errorf("a hung command: approved %v, %q after %s", ok, why, time.Since(start))
	}
}

// A command's words reach the terminal, the journal and GPUBLOCK_REASON without its
// escape sequences: a title change or a clear screen in them would act, not be read.
func TestCommandOutputLosesItsControlSequences(t *testing.T) {
	cmd := `printf 'first\n\033]0;owned\007\033[2J\033[31mrefused\033[0m: over\tbudget\r\n' >&2; exit 3`
	ok, why := Approve(context.Background(), cmd, Event{Key: "k"}, time.Minute)
	if ok || !strings.Contains(why, "refused: over budget") || strings.ContainsAny(why, "\x1b\x07\r\t") || strings.Contains(why, "owned") {
		t.Fatalf("approved %v, why %q", ok, why)
	}
}
