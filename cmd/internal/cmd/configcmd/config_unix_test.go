//go:build unix

package configcmd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// The commands find a pipe in config.yaml's place and refuse it as bad usage.
func TestConfigShowRefusesAPipe(t *testing.T) {
	cmdtest.Env(t)
	dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := cli.Run("config", "show")
		done <- result{code, out, errs}
	}()
	select {
	case r := <-done:
		if r.code != 2 || r.out != "" || !strings.Contains(r.errs, p+": it is a named pipe (FIFO)") {
			t.Errorf("config show on a pipe: exit %d, stdout %q\n%s", r.code, r.out, r.errs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("config show on a pipe: still running after 10 s")
	}
}
