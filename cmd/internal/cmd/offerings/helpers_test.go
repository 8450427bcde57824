package offerings

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock offerings` as the program does, with `gpublock sim` to serve it.
var cli = cmdtest.NewCLI(NewCmdOfferings, cmdtest.Cmd(sim.NewCmdSim))

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
