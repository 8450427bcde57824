package purchase

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock purchase` as the program does, with offerings to find what to buy and
// blocks to see what was bought.
var cli = cmdtest.CLI{
	New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdPurchase(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command {
		return []*cobra.Command{offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
	},
}
