package cmdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// CLI runs one command as the program does, with a Factory over buffers that a test may
// change first (Tweak). Its methods are what the commands' tests share: a run, and the
// flows built of runs (buy, list, activate).
type CLI struct {
	// New is the command, NewCmdX(f, nil).
	New func(f *cmdutil.Factory) *cobra.Command
	// Also are the other commands its tests run: to find what it acts on, or to see what
	// it did.
	Also func(f *cmdutil.Factory) []*cobra.Command
	// Exec, when set, runs the whole command line instead of New and Also under a test
	// root: the program's own root, or a command that is a root itself (the TUI).
	Exec func(ctx context.Context, f *cmdutil.Factory, args []string) int
	// Version is the Factory's version; "test" when empty.
	Version string
	tweaks  []func(*cmdutil.Factory)
}

// Tweak changes the Factory of every run until the test ends.
func (c *CLI) Tweak(t *testing.T, tweak func(*cmdutil.Factory)) {
	c.tweaks = append(c.tweaks, tweak)
	t.Cleanup(func() { c.tweaks = nil })
}

// AsPerson makes the commands of every run until the test ends see a terminal (or not) on
// which input is typed.
func (c *CLI) AsPerson(t *testing.T, terminal bool, input string) {
	t.Helper()
	c.Tweak(t, func(f *cmdutil.Factory) {
		f.IOStreams.In = strings.NewReader(input)
		f.IOStreams.SetStdinTTY(terminal)
	})
}

// Factory is the program's Factory over stdout and stderr, tweaked.
func (c *CLI) Factory(stdout, stderr io.Writer) *cmdutil.Factory {
	version := c.Version
	if version == "" {
		version = "test"
	}
	f := cmdutil.New(version, cmdutil.System(stdout, stderr))
	for _, tweak := range c.tweaks {
		tweak(f)
	}
	return f
}

// Run runs args, the command's name first, and returns the exit status and what the
// command wrote.
func (c *CLI) Run(args ...string) (int, string, string) {
	return c.RunIn(context.Background(), args...)
}

// RunJSON runs args with c, a command that prints JSON, and returns what it printed: a
// failure, or output that is not a T, fails the test.
func RunJSON[T any](t *testing.T, c *CLI, args ...string) T {
	t.Helper()
	code, out, errs := c.Run(args...)
	var v T
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("gpublock %s: exit %d, stderr %q\n%s", strings.Join(args, " "), code, errs, out)
	}
	return v
}

// RunIn is Run until ctx ends (a watch).
func (c *CLI) RunIn(ctx context.Context, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := c.RunContext(ctx, &out, &errb, args...)
	return code, out.String(), errb.String()
}

// RunContext runs args, the command's name first, until ctx ends.
func (c *CLI) RunContext(ctx context.Context, stdout, stderr io.Writer, args ...string) int {
	f := c.Factory(stdout, stderr)
	if c.Exec != nil {
		return c.Exec(ctx, f, args)
	}
	cmds := []*cobra.Command{c.New(f)}
	if c.Also != nil {
		cmds = append(cmds, c.Also(f)...)
	}
	return ExecAll(ctx, f, cmds, args...)
}

// Exec runs args, the command's name first, through cmd under a root that declares the
// AWS flags as the program's does, and returns the exit status.
func Exec(ctx context.Context, f *cmdutil.Factory, cmd *cobra.Command, args ...string) int {
	return ExecAll(ctx, f, []*cobra.Command{cmd}, args...)
}

// ExecAll is Exec with several commands under the root.
func ExecAll(ctx context.Context, f *cmdutil.Factory, cmds []*cobra.Command, args ...string) int {
	root := &cobra.Command{Use: "gpublock", SilenceErrors: true, SilenceUsage: true}
	f.AWS.Register(root.PersistentFlags())
	root.AddCommand(cmds...)
	return ExecRoot(ctx, f, root, args...)
}

// ExecRoot runs args through root with the program's help and flag errors, reports an
// error as the program does, and returns the exit status.
func ExecRoot(ctx context.Context, f *cmdutil.Factory, root *cobra.Command, args ...string) int {
	root.SetFlagErrorFunc(cmdutil.FlagError)
	root.SetHelpFunc(cmdutil.GroupedHelp(cmdutil.FangHelp()))
	cmdutil.PlainUsage(root)
	root.SetArgs(args)
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	c, err := root.ExecuteContextC(ctx)
	if err != nil {
		cmdutil.PrintError(f.IOStreams.ErrOut, c, err)
	}
	return cmdutil.ExitCode(err)
}

// NewCLI is the CLI of the command cmd, with also the other commands its tests run; each is
// a command's constructor as the program has it (NewCmdX), run without a stand-in for its
// run.
func NewCLI[O any](cmd func(*cmdutil.Factory, func(*O) error) *cobra.Command, also ...func(*cmdutil.Factory) *cobra.Command) *CLI {
	return &CLI{
		New: func(f *cmdutil.Factory) *cobra.Command { return cmd(f, nil) },
		Also: func(f *cmdutil.Factory) []*cobra.Command {
			cmds := make([]*cobra.Command, len(also))
			for i, mk := range also {
				cmds[i] = mk(f)
			}
			return cmds
		},
	}
}

// Cmd is a command's constructor (NewCmdX) run without a stand-in for its run, for NewCLI's
// also.
func Cmd[O any](cmd func(*cmdutil.Factory, func(*O) error) *cobra.Command) func(*cmdutil.Factory) *cobra.Command {
	return func(f *cmdutil.Factory) *cobra.Command { return cmd(f, nil) }
}

// OffTerminal runs args as a person whose input (typed) is not a terminal, and fails the
// test unless the command refused (exit 2, saying so, nothing on stdout) before any call to
// the emulator cs. It returns what the command wrote on stderr.
func (c *CLI) OffTerminal(t *testing.T, cs *Sim, typed string, args ...string) string {
	t.Helper()
	c.AsPerson(t, false, typed)
	before := cs.Calls.Load()
	code, out, errs := c.Run(args...)
	if code != 2 || out != "" || !strings.Contains(errs, "not a terminal") {
		t.Errorf("%v off a terminal: exit %d, stdout %q\n%s", args, code, out, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%v off a terminal: %d calls reached the emulator before the refusal", args, n)
	}
	return errs
}
