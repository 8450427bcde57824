package blocks

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock blocks` as the program does, with the commands its tests run to buy
// what it acts on and to launch into it.
var cli = cmdtest.CLI{
	New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdBlocks(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command {
		return []*cobra.Command{purchase.NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), launch.NewCmdLaunch(f, nil)}
	},
}
