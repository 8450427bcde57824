//go:build linux

package main

import "syscall"

// e2eProcAttr makes the kernel kill a started program when the test process dies, so that
// a test binary killed on its timeout leaves no `gpublock sim` or TUI running.
func e2eProcAttr(a syscall.SysProcAttr) *syscall.SysProcAttr {
	a.Pdeathsig = syscall.SIGKILL
	return &a
}
