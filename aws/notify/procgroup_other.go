//go:build !unix

package notify

import "os/exec"

// Without process groups (Windows) only the command itself is ended; what it started
// may outlive it.
func ownGroup(*exec.Cmd) {}

func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
