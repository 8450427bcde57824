//go:build unix && !linux

package main

import "syscall"

// e2eProcAttr is the attributes as given: only Linux has a parent-death signal.
func e2eProcAttr(a syscall.SysProcAttr) *syscall.SysProcAttr { return &a }
