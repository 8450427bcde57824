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
