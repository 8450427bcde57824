package main

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

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

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
	for _, c := range newRootCmd(context.Background(), cmdutil.New(version, cmdutil.System(io.Discard, io.Discard))).Commands() {
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
	if root := newRootCmd(context.Background(), cmdutil.New(version, cmdutil.System(io.Discard, io.Discard))); root.RunE == nil || root.Short == "" {
		t.Fatal("the root command runs nothing")
	}
	var out, errw bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errw, "--bogus-flag"); code != 2 || !strings.Contains(errw.String(), "bogus-flag") {
		t.Errorf("gpublock --bogus-flag: exit %d, stderr %q; want the TUI's usage error", code, errw.String())
	}
}
