package main

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A flag that cannot be parsed is reported in the commands' own one-line form, naming the
// flag and what it takes, not followed by the whole usage that would scroll it out of sight.
func TestUnparsableFlagsAreOneUsageLine(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, tc := range []struct {
		args    []string
		cmd     string
		mention string
	}{
		{[]string{"offerings", "--type", "p5.48xlarge", "--duration", "2d", "--count", "abc"}, "offerings", `--count "abc": want a whole number`},
		{[]string{"blocks", "--warn-within", "soon"}, "blocks", `--warn-within "soon": want a duration such as 45m`},
		{[]string{"blocks", "--bogus"}, "blocks", "unknown flag: --bogus"},
		{[]string{"purchase", "cbr-0123456789abcdef0", "--tag", "noeq", "--yes"}, "purchase", `"noeq": want KEY=VALUE`},
		{[]string{"launch", "cr-0123456789abcdef0", "--ami", "ami-0123456789abcdef0", "--count", "two", "--yes"}, "launch", `--count "two": want a whole number`},
		{[]string{"extend", "cr-0123456789abcdef0", "--duration", "1d", "--yes=maybe"}, "extend", `--yes "maybe": want true or false`},
		{[]string{"prices", "--refresh=often"}, "prices", `--refresh "often": want true or false`},
		{[]string{"sim", "--seed", "x"}, "sim", `--seed "x": want a whole number`},
		{[]string{"sim", "--seed"}, "sim", "--seed needs a value"},
	} {
		args := tc.args
		if tc.cmd != "sim" && tc.cmd != "prices" {
			args = append(args, "--endpoint-url", cs.URL)
		}
		code, out, errs := cli.Run(args...)
		want := "gpublock " + tc.cmd + ": "
		if code != 2 || out != "" || !strings.HasPrefix(errs, want) || !strings.Contains(errs, tc.mention) ||
			!strings.Contains(errs, "Run 'gpublock "+tc.cmd+" --help' for its flags.") || strings.Contains(errs, "Usage:") ||
			strings.Count(errs, "\n") != 2 {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", tc.args, code, out, errs)
		}
	}
	if cs.Calls.Load() != 0 {
		t.Errorf("bad flags made %d calls", cs.Calls.Load())
	}
	for _, cmd := range []string{"offerings", "blocks", "purchase", "launch", "extend", "prices", "sim"} {
		if code, out, errs := cli.Run(cmd, "-h"); code != 0 || errs != "" || !strings.Contains(out, "gpublock "+cmd) || !strings.Contains(out, "FLAGS") {
			t.Errorf("%s -h: exit %d, stderr %q\n%s", cmd, code, errs, out)
		}
	}
}

// A search without --region uses the SDK's region; when that one sells no Capacity
// Blocks, the message says where it came from instead of blaming a --region never given.
func TestDefaultRegionWithoutCapacityBlocksIsNamed(t *testing.T) {
	cs := cmdtest.StartSim(t)
	t.Setenv("AWS_REGION", "us-west-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "dummy")
	for _, args := range [][]string{
		{"offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d"},
		{"purchase", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d", "--yes"},
	} {
		code, out, errs := cli.Run(args...)
		if code != 2 || out != "" || !strings.Contains(errs, `no --region given, and the default region "us-west-1" ($AWS_REGION or the profile's) sells no Capacity Blocks`) ||
			!strings.Contains(errs, "give --region R[,R...] or all") || strings.Contains(errs, "--region: ") {
			t.Errorf("%s: exit %d, stdout %q\n%s", args[0], code, out, errs)
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Errorf("%d calls", n)
	}
	// Given, the region is the flag's, and the flag is named as before.
	code, _, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d", "--region", "us-west-1")
	if code != 2 || !strings.Contains(errs, `--region "us-west-1"`) {
		t.Errorf("--region us-west-1: exit %d\n%s", code, errs)
	}
}

// purchase, extend and launch act in one region: their help does not offer a list or all,
// which they refuse.
func TestOneRegionCommandsSayOneRegionInTheirHelp(t *testing.T) {
	for _, cmd := range []string{"purchase", "extend", "launch"} {
		code, out, _ := cli.Run(cmd, "-h")
		if code != 0 || !strings.Contains(strings.ToLower(out), "the one aws region of the capacity block or offering") || strings.Contains(out, "or all") {
			t.Errorf("%s -h: exit %d\n%s", cmd, code, out)
		}
	}
	if _, out, _ := cli.Run("offerings", "-h"); !strings.Contains(out, "also a list R[,R...] or all") {
		t.Errorf("offerings -h lost the region list:\n%s", out)
	}
}
