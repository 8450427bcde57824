package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// writeUserConfig writes $XDG_CONFIG_HOME/gpublock/config.json, the file the commands read.
func writeUserConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock", "config.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The configuration file's read_only and max_spend hold at the command line too: a script
// with --yes does not buy past a promise written in the file.
func TestCommandsKeepTheConfigurationsSpendingRules(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	path := writeUserConfig(t, `{"read_only": true}`)
	before := cs.Calls.Load()
	for _, args := range [][]string{
		cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes"),
		cmdtest.ExtendArgs(cs.URL, "cr-0123456789abcdef0", "--yes"),
		cmdtest.LaunchArgs(cs.URL, "cr-0123456789abcdef0", "--yes"),
	} {
		code, out, errs := cli.Run(args...)
		if code != 1 || out != "" || !strings.Contains(errs, `refused: "read_only": true in `+path) || !strings.Contains(errs, "nothing was sent to AWS") {
			t.Errorf("%s with read_only in the file: exit %d, stdout %q\n%s", args[0], code, out, errs)
		}
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("read-only from the file: %d calls", n)
	}
	// A read-only file still lets the searches run.
	if code, _, errs := cli.Run(append([]string{"offerings", "--endpoint-url", cs.URL, "-o", "json"}, cmdtest.PurchaseSearch...)...); code != 0 {
		t.Errorf("offerings under a read-only file: exit %d\n%s", code, errs)
	}

	path = writeUserConfig(t, `{"max_spend": "10"}`)
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, "above the spending cap of $10.00 (max_spend in "+path+")") {
		t.Errorf("max_spend in the file: exit %d, stdout %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 0 {
		t.Fatalf("bought past the file's cap: %+v", rows)
	}
	// The flag's cap wins over the file's.
	code, _, errs = cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--max-spend", "1000000")...)
	if rows := cli.Reservations(t, cs.URL); code != 0 || len(rows) != 1 {
		t.Fatalf("--max-spend over the file's cap: exit %d, %d blocks\n%s", code, len(rows), errs)
	}

	// A damaged file is bad usage before any call, not a promise silently dropped.
	writeUserConfig(t, `{"read_only": tru}`)
	before = cs.Calls.Load()
	code, _, errs = cli.Run(cmdtest.ExtendArgs(cs.URL, "cr-0123456789abcdef0", "--yes")...)
	if code != 2 || !strings.Contains(errs, "gpublock extend: ") || !strings.Contains(errs, "config.json") || cs.Calls.Load() != before {
		t.Errorf("damaged file: exit %d, %d calls\n%s", code, cs.Calls.Load()-before, errs)
	}
}
