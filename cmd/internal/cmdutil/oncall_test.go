package cmdutil

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/config"
)

// GPUBLOCK_NOTIFY_LEASE sets how long a dead sender's claim on a warning holds the others
// off; unset or not a duration, the notifier's own.
func TestNotifyLeaseFromTheEnvironment(t *testing.T) {
	for env, want := range map[string]time.Duration{"2s": 2 * time.Second, "": 0, "soon": 0, "-1s": 0} {
		t.Setenv("GPUBLOCK_NOTIFY_LEASE", env)
		var o OncallFlags
		s, err := o.Resolve(config.Oncall{})
		if err != nil || s.Notify.Lease != want {
			t.Errorf("GPUBLOCK_NOTIFY_LEASE=%q: lease %v (%v), want %v", env, s.Notify.Lease, err, want)
		}
	}
}
