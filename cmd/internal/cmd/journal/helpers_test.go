package journal

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock journal` as the program does, with the commands its tests run to buy what
// it acts on and to list what it did.
var cli = cmdtest.CLI{
	New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdJournal(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command {
		return []*cobra.Command{purchase.NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
	},
}
