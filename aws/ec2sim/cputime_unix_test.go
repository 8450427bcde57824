//go:build unix

package ec2sim

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used: what a
// benchmark reports per operation, so that its figure does not depend on how busy the
// machine's other processes keep its cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
