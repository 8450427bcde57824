package main

// The command line itself: help and its goldens, usage errors, flags in every form the
// program has accepted, completion and suggestions.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs the whole program's command line, as main does.
var cli = cmdtest.CLI{Exec: runWith, Version: version}

// runJSON is cmdtest.RunJSON with the whole program.
func runJSON[T any](t *testing.T, args ...string) T {
	t.Helper()
	return cmdtest.RunJSON[T](t, &cli, args...)
}

// quietRoot is the program's root command, its output discarded: for the tests that look
// at the commands it holds or parse a line through it.
func quietRoot() *cobra.Command {
	return newRootCmd(context.Background(), cmdutil.New(version, cmdutil.System(io.Discard, io.Discard)))
}

// helpEnv makes help output the same on every machine: no colour, a fixed width.
func helpEnv(t *testing.T) {
	cmdtest.Env(t)
	t.Setenv("__FANG_TEST_WIDTH", "120")
	for _, k := range []string{"CLICOLOR_FORCE", "COLORTERM"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("NO_COLOR", "1")
}

// The help of the root and of every command is kept as a golden file (go test -update
// refreshes them), so that a change to any flag or text is seen in review.
func TestHelpGoldens(t *testing.T) {
	helpEnv(t)
	code, out, errs := cli.Run("--help")
	if code != 0 || errs != "" {
		t.Fatalf("--help: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"USAGE", "CAPACITY BLOCKS", "TOOLS", "offerings", "config", "completion", "--endpoint-url", "--theme"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	own, shared, ok := strings.Cut(out, "AWS FLAGS")
	if !ok || strings.Contains(own, "    --endpoint-url") || !strings.Contains(shared, "    --endpoint-url") || strings.Contains(shared, "--theme") {
		t.Errorf("--help does not list the AWS flags apart:\n%s", out)
	}
	if strings.Contains(out, "`") {
		t.Errorf("--help shows the flag package's backquotes:\n%s", out)
	}
	t.Run("root", func(t *testing.T) { golden.RequireEqual(t, []byte(out)) })
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			code, out, errs := cli.Run(name, "--help")
			if code != 0 || errs != "" || !strings.Contains(out, "USAGE") || !strings.Contains(out, "EXAMPLES") ||
				!strings.Contains(out, "FLAGS") || !strings.Contains(out, "Exit status: 0 ") || strings.Contains(out, "`") {
				t.Fatalf("%s --help: exit %d, stderr %q\n%s", name, code, errs, out)
			}
			// `gpublock help NAME` and NAME -h are the same text, on stdout.
			for _, args := range [][]string{{"help", name}, {name, "-h"}} {
				if code, hout, herrs := cli.Run(args...); code != 0 || herrs != "" || hout != out {
					t.Errorf("%v: exit %d, stderr %q; differs from %s --help:\n%s", args, code, herrs, name, hout)
				}
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
	// The commands with commands of their own, and cobra's completion.
	for _, path := range [][]string{{"config"}, {"config", "path"}, {"config", "show"}, {"config", "init"}, {"completion"}} {
		t.Run(strings.Join(path, "_"), func(t *testing.T) {
			code, out, errs := cli.Run(append(path, "--help")...)
			if code != 0 || errs != "" || !strings.Contains(out, "USAGE") || strings.Contains(out, "AWS FLAGS") != (path[0] != "config") {
				t.Fatalf("%v --help: exit %d, stderr %q\n%s", path, code, errs, out)
			}
			if code, hout, _ := cli.Run(append([]string{"help"}, path...)...); code != 0 || hout != out {
				t.Errorf("help %v differs:\n%s", path, hout)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// The AWS flags are listed apart from a command's own in its help.
func TestCommandHelpGroupsTheAWSFlags(t *testing.T) {
	helpEnv(t)
	for _, name := range []string{"offerings", "blocks", "purchase", "extend", "launch", "journal", "advise"} {
		_, out, _ := cli.Run(name, "-h")
		own, shared, ok := strings.Cut(out, "AWS FLAGS (before or after the command name)")
		if !ok || !strings.Contains(shared, "    --endpoint-url  ") || !strings.Contains(shared, "    --read-only  ") ||
			strings.Contains(own, "--endpoint-url") || strings.Contains(shared, "--output") || !strings.Contains(own, "    -o --output  ") {
			t.Errorf("%s -h:\n%s", name, out)
		}
	}
	// sim and config take no AWS flags, and their help does not list any.
	for _, name := range []string{"sim", "config"} {
		if _, out, errs := cli.Run(name, "-h"); strings.Contains(errs+out, "AWS flags") || strings.Contains(out, "AWS FLAGS") {
			t.Errorf("%s -h lists AWS flags:\n%s", name, errs)
		}
	}
}

// The AWS flags work before the command name as after it: the same answer either way.
func TestGlobalFlagsBeforeOrAfterTheCommand(t *testing.T) {
	cs := cmdtest.StartSim(t)
	search := []string{"--type", "p5.48xlarge", "--duration", "2d", "--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15", "-o", "json"}
	after := append(append([]string{"offerings"}, search...), "--endpoint-url", cs.URL, "--region", "us-east-1")
	before := append([]string{"--endpoint-url", cs.URL, "--region=us-east-1", "offerings"}, search...)
	c1, out1, e1 := cli.Run(after...)
	c2, out2, e2 := cli.Run(before...)
	var rows []map[string]any
	if c1 != 0 || c2 != 0 || json.Unmarshal([]byte(out1), &rows) != nil || len(rows) == 0 || out1 != out2 {
		t.Fatalf("after: exit %d %s\nbefore: exit %d %s\n%s\n%s", c1, e1, c2, e2, out1, out2)
	}
	// A bad global flag before the command is the command's usage error, before any call.
	calls := cs.Calls.Load()
	code, out, errs := cli.Run(append([]string{"--endpoint-url", cs.URL, "--concurrency", "0", "offerings"}, search...)...)
	if code != 2 || out != "" || !strings.HasPrefix(errs, "gpublock offerings: --concurrency 0: allowed 1 to 256") || cs.Calls.Load() != calls {
		t.Errorf("bad global flag: exit %d, stdout %q\n%s", code, out, errs)
	}
	// With no command the flags are the TUI's, checked by it before anything starts.
	if code, out, errs := cli.Run("--endpoint-url", cs.URL, "--screen", "bogus"); code != 2 || out != "" || !strings.Contains(errs, `--screen "bogus": allowed search, blocks, advisor or report`) {
		t.Errorf("--screen bogus: exit %d, stdout %q\n%s", code, out, errs)
	}
	// A TUI flag with a value that is also a command's name is the flag's value.
	if code, _, errs := cli.Run("--screen", "blocks", "--refresh", "1s"); code != 2 || !strings.Contains(errs, "--refresh 1s: allowed 5s or more") {
		t.Errorf("--screen blocks went to the blocks command: exit %d\n%s", code, errs)
	}
}

// Unknown commands and flags are one line of usage, exit 2; help, version, completion and
// the manual page work.
func TestRootUsageVersionCompletionAndManual(t *testing.T) {
	helpEnv(t)
	for _, args := range [][]string{{"bogus"}, {"--bogus-flag"}, {"--refresh", "soon"}, {"help", "bogus"}} {
		code, out, errs := cli.Run(args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "gpublock: ") || !strings.Contains(errs, "Run 'gpublock --help'") || strings.Count(errs, "\n") != 2 {
			t.Errorf("%v: exit %d, stdout %q\n%s", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if code, out, _ := cli.Run(args...); code != 0 || !strings.Contains(out, version) {
			t.Errorf("%v: exit %d %q", args, code, out)
		}
	}
	for shell, want := range map[string]string{"bash": "__start_gpublock", "zsh": "#compdef gpublock", "fish": "complete -c gpublock"} {
		if code, out, errs := cli.Run("completion", shell); code != 0 || !strings.Contains(out, want) {
			t.Errorf("completion %s: exit %d\n%s", shell, code, errs)
		}
	}
	if code, out, errs := cli.Run("completion", "tcsh"); code != 2 || out != "" || !strings.Contains(errs, `no completion for "tcsh"`) {
		t.Errorf("completion tcsh: exit %d, stdout %q\n%s", code, out, errs)
	}
	if code, out, errs := cli.Run("man"); code != 0 || !strings.Contains(out, ".TH GPUBLOCK") || !strings.Contains(out, "offerings") {
		t.Errorf("man: exit %d\n%.300s\n%s", code, out, errs)
	}
	// Completion offers the commands and, after a command, its own flags and the AWS ones.
	_, out, _ := cli.Run("__complete", "off")
	if !strings.Contains(out, "offerings") {
		t.Errorf("complete off:\n%s", out)
	}
	_, out, _ = cli.Run("__complete", "blocks", "--warn")
	got := strings.Fields(out)
	if !slices.Contains(got, "--warn-within") || !slices.Contains(got, "--warn-leads") || slices.Contains(got, "--type") {
		t.Errorf("complete blocks --warn:\n%s", out)
	}
	_, out, _ = cli.Run("__complete", "offerings", "--o")
	if got := strings.Fields(out); !slices.Contains(got, "--output") || slices.Contains(got, "--o,") {
		t.Errorf("complete offerings --o:\n%s", out)
	}
	_, out, _ = cli.Run("__complete", "blocks", "--endpoint")
	if !strings.Contains(out, "--endpoint-url") {
		t.Errorf("complete blocks --endpoint:\n%s", out)
	}
}

// FuzzCommandLine: whatever the arguments, the command line never panics and a refusal is
// exit 2 with its reason on stderr. Only arguments that cannot reach AWS are tried: -h, or
// a flag that no command has.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{
		"offerings --type p5.48xlarge --duration 2d -h",
		"--endpoint-url http://127.0.0.1:1 --region ,, offerings --zzz",
		"help purchase", "--screen --zzz", "config --force --zzz", "-- offerings --zzz",
		"completion fish --zzz", "--theme=purple --zzz", "blocks --warn-within=-1s --zzz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append(strings.Fields(line), "--zzz-no-such-flag")
		if slices.Contains(args, "--") || slices.Contains(args, "sim") || slices.Contains(args, "init") {
			return // past --, the flag is an argument; sim serves; config init writes a file
		}
		code, _, errs := cli.Run(args...)
		if code != 0 && code != 2 {
			t.Fatalf("%q: exit %d\n%s", line, code, errs)
		}
		if code == 2 && strings.TrimSpace(errs) == "" {
			t.Fatalf("%q: exit 2 without a reason", line)
		}
	})
}

// commandNames are the commands of the root that have no commands of their own, but
// cobra's (help, completion) and the version.
func commandNames() []string {
	var names []string
	for _, c := range quietRoot().Commands() {
		switch {
		case c.Hidden, c.HasSubCommands(), c.Name() == "help", c.Name() == "completion", c.Name() == "version":
		default:
			names = append(names, c.Name())
		}
	}
	sort.Strings(names)
	return names
}

// The README promises that every command's -h lists its exit codes.
func TestEveryCommandHelpListsExitStatus(t *testing.T) {
	for _, name := range []string{"offerings", "blocks", "purchase", "launch", "extend", "report", "prices", "sim"} {
		code, out, errs := cli.Run(name, "-h")
		if code != 0 || errs != "" || !strings.Contains(out, "Exit status: 0 ") || !strings.Contains(out, "2 bad usage") {
			t.Errorf("%s -h: exit %d, stdout %q, stderr:\n%s", name, code, out, errs)
		}
	}
}

// gpublock with no subcommand is the TUI.
func TestTUIIsTheDefaultCommand(t *testing.T) {
	if root := quietRoot(); root.RunE == nil || root.Short == "" {
		t.Fatal("the root command runs nothing")
	}
	var out, errw bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errw, "--bogus-flag"); code != 2 || !strings.Contains(errw.String(), "bogus-flag") {
		t.Errorf("gpublock --bogus-flag: exit %d, stderr %q; want the TUI's usage error", code, errw.String())
	}
}

// parsed is what the real command line made of some arguments: the command that would
// run, the flags given (by name, as the flag prints its value) and the positional arguments.
type parsed struct {
	cmd   string
	flags map[string]string
	args  []string
}

// parseLine runs args through the command line as execute does, every command's run
// replaced by one that records what it was given.
func parseLine(t *testing.T, args ...string) (parsed, error) {
	t.Helper()
	root := quietRoot()
	var got parsed
	var stub func(*cobra.Command)
	stub = func(c *cobra.Command) {
		if c.RunE != nil || c.Run != nil {
			c.Run, c.RunE = nil, func(c *cobra.Command, args []string) error {
				got = parsed{cmd: c.Name(), flags: map[string]string{}, args: args}
				c.Flags().VisitAll(func(f *pflag.Flag) {
					if f.Changed {
						got.flags[f.Name] = f.Value.String()
					}
				})
				return nil
			}
		}
		for _, sub := range c.Commands() {
			stub(sub)
		}
	}
	stub(root)
	root.SetArgs(goFlagForms(root, args))
	var out, errs strings.Builder
	root.SetOut(&out)
	root.SetErr(&errs)
	_, err := root.ExecuteC()
	return got, err
}

// Every form the flag package accepted before the move to cobra is still read the same way.
func TestEarlierFlagFormsStillParse(t *testing.T) {
	id, cr := "cbr-0123456789abcdef0", "cr-0123456789abcdef0"
	for _, tc := range []struct {
		args  []string
		cmd   string
		flags map[string]string
		pos   []string
	}{
		{[]string{"offerings", "--region=all", "--type", "p5.48xlarge", "--duration", "2d"}, "offerings",
			map[string]string{"region": "all", "type": "p5.48xlarge", "duration": "2d"}, nil},
		{[]string{"--region", "us-east-1,us-west-2", "--endpoint-url=http://127.0.0.1:1", "blocks", "-o", "json"}, "blocks",
			map[string]string{"region": "us-east-1,us-west-2", "endpoint-url": "http://127.0.0.1:1", "output": "json"}, nil},
		// flags after the positional argument, and between
		{[]string{"purchase", "--yes", id, "--tag", "a=1", "--tag", "b=2", "--max-spend", "25000"}, "purchase",
			map[string]string{"yes": "true", "tag": "a=1,b=2", "max-spend": "25000"}, []string{id}},
		{[]string{"extend", cr, "--yes=false", "--duration", "1d", "--dry-run=true"}, "extend",
			map[string]string{"yes": "false", "duration": "1d", "dry-run": "true"}, []string{cr}},
		{[]string{"blocks", "--warn-within", "45m", "--watch", "--interval=90s"}, "blocks",
			map[string]string{"warn-within": "45m0s", "watch": "true", "interval": "1m30s"}, nil},
		{[]string{"launch", cr, "--security-group", "sg-1", "--security-group=sg-2,sg-3", "--count", "2"}, "launch",
			map[string]string{"security-group": "sg-1,sg-2,sg-3", "count": "2"}, []string{cr}},
		// the flag package's single dash, and a value that looks like a flag
		{[]string{"sim", "-addr", "127.0.0.1:0", "-seed=7", "-fault", "throttle=0.5"}, "sim",
			map[string]string{"addr": "127.0.0.1:0", "seed": "7"}, nil},
		{[]string{"-region", "us-east-1", "blocks", "-notify-cmd", "-watch"}, "blocks",
			map[string]string{"region": "us-east-1", "notify-cmd": "-watch"}, nil},
		{[]string{"--screen", "blocks", "--no-color", "-refresh", "10s"}, "gpublock",
			map[string]string{"screen": "blocks", "no-color": "true", "refresh": "10s"}, nil},
		// past --, an argument is an argument
		{[]string{"purchase", "--", "-yes"}, "purchase", map[string]string{}, []string{"-yes"}},
	} {
		got, err := parseLine(t, tc.args...)
		if err != nil || got.cmd != tc.cmd || !slices.Equal(got.args, tc.pos) {
			t.Errorf("%q: err %v, ran %q with %q", tc.args, err, got.cmd, got.args)
			continue
		}
		for k, v := range tc.flags {
			if got.flags[k] != v {
				t.Errorf("%q: --%s read as %q, want %q (all: %v)", tc.args, k, got.flags[k], v, got.flags)
			}
		}
		if len(got.flags) != len(tc.flags) && tc.cmd != "sim" {
			t.Errorf("%q: flags %v, want %v", tc.args, got.flags, tc.flags)
		}
	}
}

// The shell completes flags' values from what the commands accept.
func TestCompletionOffersFlagValues(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"__complete", "offerings", "--region", ""}, "all", ""},
		{[]string{"__complete", "--region", ""}, "all", ""},
		{[]string{"__complete", "extend", "--region", ""}, "us-east-1", "all"},
		{[]string{"__complete", "--region", "all", "offerings", "--type", "p5"}, "p5.48xlarge", ""},
		{[]string{"__complete", "purchase", "-o", ""}, "json", "csv"},
		{[]string{"__complete", "blocks", "--source", ""}, "training-plans", ""},
		{[]string{"__complete", "--theme", ""}, "light", ""},
		{[]string{"__complete", "sim", "--region", ""}, "us-east-1", "all"},
	} {
		code, out, errs := cli.Run(tc.args...)
		got := strings.Fields(out)
		if code != 0 || !slices.Contains(got, tc.want) || tc.not != "" && slices.Contains(got, tc.not) {
			t.Errorf("%q: exit %d, offers %q\n%s", tc.args, code, got, errs)
		}
	}
}

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

// A mistyped command name is bad usage (exit 2) that names the commands it is close to:
// any command's name short of its last letter, or with one letter wrong, at the top or
// under a command with commands of its own; a name close to none names none.
func TestMistypedCommandSuggests(t *testing.T) {
	try := func(args ...string) (int, string) {
		var out, errw bytes.Buffer
		code := cli.RunContext(context.Background(), &out, &errw, args...)
		if out.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", args, out.String())
		}
		return code, errw.String()
	}
	if code, msg := try("offering"); code != 2 || !strings.Contains(msg, `unknown command "offering". Did you mean: offerings?`) {
		t.Errorf("gpublock offering: exit %d, stderr %q", code, msg)
	}
	if code, msg := try("help", "offering"); code != 2 || !strings.Contains(msg, "Did you mean: offerings?") {
		t.Errorf("gpublock help offering: exit %d, stderr %q", code, msg)
	}
	if code, msg := try("zzzzzz"); code != 2 || strings.Contains(msg, "Did you mean") || !strings.Contains(msg, `unknown command "zzzzzz"`) {
		t.Errorf("gpublock zzzzzz: exit %d, stderr %q", code, msg)
	}
	root := quietRoot()
	checked := 0
	for _, parent := range append(root.Commands(), root) {
		for _, c := range parent.Commands() {
			if !c.IsAvailableCommand() || len(c.Name()) < 3 {
				continue
			}
			var path []string
			if parent != root {
				path = []string{parent.Name()}
			}
			n := c.Name()
			wrong := n[:1] + string(rune('a'+(n[1]-'a'+13)%26)) + n[2:]
			for _, typo := range []string{n[:len(n)-1], wrong} {
				code, msg := try(append(path, typo)...)
				if code != 2 || !strings.Contains(msg, "Did you mean: ") || !strings.Contains(msg, n) {
					t.Errorf("%v: exit %d, stderr %q; want exit 2 and %s suggested", append(path, typo), code, msg, n)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d typos tried", checked)
	}
}
