package offerings

import (
	"context"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock offerings` as the program does.
var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdOfferings(f, nil) }}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }

// tweakCLI changes the Factory of runCLI, runWith and cliFactory until the test ends.
func tweakCLI(t *testing.T, tweak func(*cmdutil.Factory)) { cli.Tweak(t, tweak) }

func cliFactory(stdout, stderr io.Writer) *cmdutil.Factory { return cli.Factory(stdout, stderr) }

func runWith(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.Exec(ctx, f, NewCmdOfferings(f, nil), args...)
}

// asPerson makes the command see a terminal on which input is typed.
func asPerson(t *testing.T, terminal bool, input string) {
	t.Helper()
	cli.AsPerson(t, terminal, input)
}

// parseOfferings reads and checks every flag that can be checked without the backend, as
// the command does, for the tests of parsing.
func parseOfferings(args []string, stderr io.Writer) (*Options, cmdutil.OutputFormat, error) {
	var got *Options
	var format cmdutil.OutputFormat
	err := cmdtest.ParseCommand(args, stderr, func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdOfferings(f, func(a *Options) error {
			got, format = a, a.Format
			return nil
		})
	})
	return got, format, err
}
