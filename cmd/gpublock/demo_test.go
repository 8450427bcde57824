package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// One --demo account for every command: a block bought with `purchase --demo` is listed by
// a later `blocks --demo`, as it would be on AWS; removing the file starts afresh.
func TestDemoCommandsShareOneAccount(t *testing.T) {
	cmdtest.Env(t)
	search := []string{"--demo", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "1", "--duration", "2d", "--to", "+2w"}
	offs := runJSON[[]printers.OfferingJSON](t, append([]string{"offerings", "-o", "json"}, search...)...)
	if len(offs) == 0 {
		t.Fatal("the demo offers nothing")
	}
	code, out, errs := cli.Run(append([]string{"purchase", offs[0].CapacityBlockOfferingId, "--yes", "-o", "json"}, search...)...)
	if code != 0 {
		t.Fatalf("purchase: exit %d, stderr %q\n%s", code, errs, out)
	}
	listed := func() []printers.BlockJSON {
		t.Helper()
		return runJSON[[]printers.BlockJSON](t, "blocks", "--demo", "--region", "us-east-1", "-o", "json")
	}
	rows := listed()
	if len(rows) != 1 || rows[0].InstanceType != "p5.48xlarge" || rows[0].StartDate != offs[0].StartDate || rows[0].EndDate != offs[0].EndDate {
		t.Fatalf("blocks --demo after purchase --demo lists %+v, want the block bought from %+v", rows, offs[0])
	}
	file := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "simulated", cmdutil.DemoStateFile)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if rows := listed(); len(rows) != 0 {
		t.Errorf("after removing %s the demo still lists %+v", file, rows)
	}

	// A damaged file is named, with the way out, and nothing runs against it.
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = cli.Run("blocks", "--demo", "--region", "us-east-1")
	if code != 1 || out != "" || !strings.Contains(errs, file) || !strings.Contains(errs, "afresh") {
		t.Errorf("a damaged demo state: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
