package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// cliTweaks change the factory of runCLI and cliFactory, for one test (tweakCLI).
var cliTweaks []func(*cmdutil.Factory)

func tweakCLI(t *testing.T, tweak func(*cmdutil.Factory)) {
	cliTweaks = append(cliTweaks, tweak)
	t.Cleanup(func() { cliTweaks = nil })
}

// cliFactory is the program's factory over stdout and stderr, with the test's tweaks.
func cliFactory(stdout, stderr io.Writer) *cmdutil.Factory {
	f := cmdutil.New(version, cmdutil.System(stdout, stderr))
	for _, tweak := range cliTweaks {
		tweak(f)
	}
	return f
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := runWith(context.Background(), cliFactory(&out, &errb), args)
	return code, out.String(), errb.String()
}

// The flows the program's tests share (cmdtest's), run by runCLI.

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

// asPerson makes the commands see a terminal on which input is typed.
func asPerson(t *testing.T, terminal bool, input string) {
	t.Helper()
	tweakCLI(t, func(f *cmdutil.Factory) {
		f.IOStreams.In = strings.NewReader(input)
		f.IOStreams.SetStdinTTY(terminal)
	})
}
