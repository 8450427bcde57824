package tui

import (
	"context"
	"io"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// tuiOptions reads the TUI's flags, without a terminal: its AWS flags and whether it
// draws without colour.
func tuiOptions(args []string, stderr io.Writer) (*cmdutil.AWSFlags, bool, error) {
	a, err := parseTUI(args, stderr)
	return a.AWS, a.noColor, err
}

// parseTUI reads the TUI's flags as the root command does, for the tests of parsing.
func parseTUI(args []string, stderr io.Writer) (Options, error) {
	var got Options
	root := NewCmdTUI(cmdutil.New("test", cmdutil.System(io.Discard, stderr)), func(a *Options) error { got = *a; return nil })
	err := cmdtest.Parse(root, args, stderr)
	return got, err
}

// cli runs `gpublock` with no command, the TUI, as the program does.
var cli = cmdtest.CLI{Exec: func(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.ExecRoot(ctx, f, NewCmdTUI(f, nil), args...)
}}
