package advise

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock advise` as the program does.
var cli = cmdtest.NewCLI(NewCmdAdvise)

// parseAdvise reads and checks the flags as the command does, for the tests of parsing.
func parseAdvise(args []string, stderr io.Writer) (*Options, error) {
	var got *Options
	err := cmdtest.ParseCommand(args, stderr, func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdAdvise(f, func(a *Options) error { got = a; return nil })
	})
	return got, err
}
