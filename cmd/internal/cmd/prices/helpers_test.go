package prices

import (
	"context"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock prices` as the program does.
var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdPrices(f, nil) }}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }

// tweakCLI changes the Factory of runCLI until the test ends.
func tweakCLI(t *testing.T, tweak func(*cmdutil.Factory)) { cli.Tweak(t, tweak) }

// startSimCommand runs `gpublock sim` with args until the test ends (cmdtest.StartSimCommand).
func startSimCommand(t *testing.T, args ...string) (string, *cmdtest.Buffer, context.CancelFunc, func() int) {
	t.Helper()
	return cmdtest.StartSimCommand(t, func(f *cmdutil.Factory) *cobra.Command { return sim.NewCmdSim(f, nil) }, args...)
}
