//go:build unix

package orders

import (
	"errors"
	"syscall"
)

// processGone reports whether no process pid runs on this machine. A pid taken again by
// another process reads as alive: the claim then waits for its lease, the safe way.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
