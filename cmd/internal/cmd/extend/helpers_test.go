package extend

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// commands are `gpublock extend` and the others its tests run, as the program runs them: to
// buy what it acts on, and to list what it did.
func commands(f *cmdutil.Factory) []*cobra.Command {
	return []*cobra.Command{NewCmdExtend(f, nil), purchase.NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
}

var cli = cmdtest.CLI{
	New:  func(f *cmdutil.Factory) *cobra.Command { return NewCmdExtend(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command { return commands(f)[1:] },
}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }

// asPerson makes the commands see a terminal on which input is typed.
func asPerson(t *testing.T, terminal bool, input string) {
	t.Helper()
	cli.AsPerson(t, terminal, input)
}

func journalLines(t *testing.T) []source.JournalEntry { t.Helper(); return cmdtest.JournalLines(t) }

func boughtBlock(t *testing.T, cs *cmdtest.Sim) printers.BlockJSON {
	t.Helper()
	return cmdtest.BoughtBlock(t, runCLI, cs)
}

func activate(t *testing.T, cs *cmdtest.Sim, b printers.BlockJSON) {
	t.Helper()
	cmdtest.Activate(t, runCLI, cs, b)
}

func listedBlock(t *testing.T, url string) printers.BlockJSON {
	t.Helper()
	return cmdtest.ListedBlock(t, runCLI, url)
}
func paid(cs *cmdtest.Sim) { cmdtest.Paid(cs) }
