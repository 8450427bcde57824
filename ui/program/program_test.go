package program

import (
	"errors"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

func TestClockSyncAndReplace(t *testing.T) {
	base := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	c := NewClock(func() time.Time { return base })
	if c.Syncs() != 0 {
		t.Fatalf("a new clock counts %d syncs", c.Syncs())
	}
	c.Sync(base.Add(90 * time.Minute)) // the emulator's clock was moved
	if got := c.Now(); !got.Equal(base.Add(90*time.Minute)) || c.Syncs() != 1 {
		t.Fatalf("after Sync: %v, %d syncs", got, c.Syncs())
	}
	other := base.Add(24 * time.Hour)
	c.Replace(func() time.Time { return other })
	if got := c.Now(); !got.Equal(other) {
		t.Fatalf("after Replace the skew must be gone: %v, want %v", got, other)
	}
}

func TestAccountOnlyOnceKnownAndOK(t *testing.T) {
	c := &Context{}
	id := source.Identity{Account: "123456789012"}
	for _, tc := range []struct {
		id   Identity
		want string
	}{
		{Identity{Identity: id}, ""},
		{Identity{Identity: id, Known: true, Err: errors.New("expired")}, ""},
		{Identity{Identity: id, Known: true}, "123456789012"},
	} {
		c.Identity = tc.id
		if got := c.Account(); got != tc.want {
			t.Errorf("Account() with %+v = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// Without a backend nothing can be sent, so no check is skipped: the dry run is tried.
func TestCapsWithoutBackendKeepTheChecks(t *testing.T) {
	c := &Context{}
	for _, s := range []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan} {
		if caps := c.Caps(s); !caps.DryRun || caps.NoDryRun != "" {
			t.Errorf("%s without a backend: %+v, want the dry run kept", s, caps)
		}
	}
}
