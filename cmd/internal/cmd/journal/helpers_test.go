package journal

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// commands are `gpublock journal` and the others its tests run, as the program runs them: to
// buy what it acts on, and to list what it did.
func commands(f *cmdutil.Factory) []*cobra.Command {
	return []*cobra.Command{NewCmdJournal(f, nil), purchase.NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
}

var cli = cmdtest.CLI{
	New:  func(f *cmdutil.Factory) *cobra.Command { return NewCmdJournal(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command { return commands(f)[1:] },
}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }

func boughtBlock(t *testing.T, cs *cmdtest.Sim) printers.BlockJSON {
	t.Helper()
	return cmdtest.BoughtBlock(t, runCLI, cs)
}
