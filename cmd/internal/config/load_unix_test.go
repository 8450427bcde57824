//go:build unix

package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// loadWithin reads the file in the background; the timeout only keeps a regression from
// hanging the suite, it is not what is asserted.
func loadWithin(t *testing.T, path string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := config.Load(path)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still reading after 10 s", path)
		return nil
	}
}

// A named pipe, a device, or a symlink to one, as the configuration file is refused before
// anything is read: a pipe with no writer would block, /dev/zero never ends.
func TestConfigThatIsNotARegularFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo", "config.yaml")
	if err := os.Mkdir(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero", "config.yaml")
	if err := os.Mkdir(filepath.Dir(zero), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifoJSON := filepath.Join(dir, "config.json")
	if err := syscall.Mkfifo(fifoJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{
		fifo:        "a named pipe (FIFO)",
		fifoJSON:    "a named pipe (FIFO)",
		zero:        "a device",
		"/dev/zero": "a device",
	} {
		err := loadWithin(t, path)
		if err == nil || !strings.Contains(err.Error(), path+": it is "+kind+"; the configuration is read only from a regular file") {
			t.Errorf("%s: %v, want it named %s", path, err, kind)
		}
	}
	// A symlink to nothing (a moved dotfiles checkout) is an error, not "no configuration".
	dangling := filepath.Join(dir, "dangling.yaml")
	if err := os.Symlink(filepath.Join(dir, "gone.yaml"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(dangling); err == nil || !strings.Contains(err.Error(), dangling+": it is a symlink to "+filepath.Join(dir, "gone.yaml")+", which does not exist") {
		t.Errorf("dangling symlink: %v", err)
	}
	// A symlink to a regular file (a dotfiles checkout) is read.
	real := cmdtest.TempFile(t, "config.yaml", "read_only: true\n")
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if c, err := config.Load(link); err != nil || !c.ReadOnly {
		t.Errorf("symlink to a file: %+v, %v", c, err)
	}
}
