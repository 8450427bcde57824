package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A command that spends refuses a blank cap in the file before any call, instead of buying
// without a cap.
func TestPurchaseRefusesABlankCapInTheFile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte("max_spend: \"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := cs.Calls.Load()
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 2 || out != "" || !strings.Contains(errs, p+", line 1: max_spend \"\" is blank") {
		t.Errorf("purchase under a blank max_spend: exit %d, stdout %q\n%s", code, out, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%d calls to AWS under a refused configuration", n)
	}
	if err := os.Remove(p); err != nil { // blocks, which lists them, reads the file too
		t.Fatal(err)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 0 {
		t.Fatalf("bought under a blank cap: %+v", rows)
	}
}
