package main

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// --read-only refuses a purchase, an extension and a launch before any call, so nobody is
// shown a confirmation for something that would be refused; a dry run still runs.
func TestReadOnlyRefusesBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, true, "buy\nextend\nlaunch\n")
	for _, args := range [][]string{
		append([]string{"purchase", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--read-only"}, cmdtest.PurchaseSearch...),
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--duration", "1d", "--read-only"},
		{"launch", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--ami", "ami-0123456789abcdef0", "--read-only", "--yes"},
	} {
		before := cs.Calls.Load()
		code, out, errs := cli.Run(args...)
		if code != 1 || out != "" || !strings.Contains(errs, "--read-only") || strings.Contains(errs, "Type ") {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", args[0], code, out, errs)
		}
		if n := cs.Calls.Load() - before; n != 0 {
			t.Errorf("%s --read-only made %d calls", args[0], n)
		}
	}
	before := cs.Calls.Load()
	code, out, errs := cli.Run("purchase", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--read-only", "--dry-run")
	if code == 2 || strings.Contains(errs, "refused: --read-only") || cs.Calls.Load() == before {
		t.Errorf("--read-only --dry-run did not ask AWS: exit %d, %q, %q", code, out, errs)
	}
}
