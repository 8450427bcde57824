package purchase

import (
	"context"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// cli runs `gpublock purchase` as the program does, with offerings to find what to buy and
// blocks to see what was bought.
var cli = cmdtest.CLI{
	New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdPurchase(f, nil) },
	Also: func(f *cmdutil.Factory) []*cobra.Command {
		return []*cobra.Command{offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}
	},
}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }

// tweakCLI changes the Factory of runCLI and cliFactory until the test ends.
func tweakCLI(t *testing.T, tweak func(*cmdutil.Factory)) { cli.Tweak(t, tweak) }

func cliFactory(stdout, stderr io.Writer) *cmdutil.Factory { return cli.Factory(stdout, stderr) }

func runWith(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.ExecAll(ctx, f, []*cobra.Command{NewCmdPurchase(f, nil), offerings.NewCmdOfferings(f, nil), blocks.NewCmdBlocks(f, nil)}, args...)
}

// asPerson makes the commands see a terminal on which input is typed.
func asPerson(t *testing.T, terminal bool, input string) {
	t.Helper()
	cli.AsPerson(t, terminal, input)
}

var purchaseSearch = cmdtest.PurchaseSearch

func pickOffering(t *testing.T, url string) printers.OfferingJSON {
	t.Helper()
	return cmdtest.PickOffering(t, runCLI, url)
}

func purchaseArgsFor(url, id string, extra ...string) []string {
	return cmdtest.PurchaseArgs(url, id, extra...)
}

func reservations(t *testing.T, url string) []printers.BlockJSON {
	t.Helper()
	return cmdtest.Reservations(t, runCLI, url)
}

func assertNothingBought(t *testing.T, url string) {
	t.Helper()
	cmdtest.AssertNothingBought(t, runCLI, url)
}

func journalLines(t *testing.T) []source.JournalEntry { t.Helper(); return cmdtest.JournalLines(t) }
