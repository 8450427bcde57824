package prices

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock prices` as the program does, with `gpublock sim` to serve it.
var cli = cmdtest.CLI{
	New:  func(f *cmdutil.Factory) *cobra.Command { return NewCmdPrices(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command { return []*cobra.Command{sim.NewCmdSim(f, nil)} },
}
