package report

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model/report"
)

// cli runs `gpublock report` as the program does, with the commands its tests run to buy,
// extend and launch into what it reports on.
var cli = cmdtest.NewCLI(NewCmdReport, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks), cmdtest.Cmd(launch.NewCmdLaunch), cmdtest.Cmd(extend.NewCmdExtend))

// given is the report input a test's backend answers, or err.
type given struct {
	in      report.Input
	err     error
	regions []string // what it was asked
	from    time.Time
	to      time.Time
}

func (g *given) Report(_ context.Context, regions []string, from, to time.Time) (report.Input, error) {
	g.regions, g.from, g.to = regions, from, to
	in := g.in
	if len(regions) > 0 { // as a backend lists only the regions asked
		in.Reservations = slices.DeleteFunc(slices.Clone(in.Reservations), func(r report.Reservation) bool { return !slices.Contains(regions, r.Region) })
	}
	return in, g.err
}

// runGiven runs `gpublock report args...` against the emulator at url (for its clock), with
// g answering the report instead of the program's sources.
func runGiven(t *testing.T, g *given, url string, args ...string) (int, string, string) {
	t.Helper()
	c := cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdReport(f, func(o *Options) error {
			o.Reporter = func(*awsapi.Client) Reporter { return g }
			return cmdutil.CodeError(reportRun(context.Background(), o))
		})
	}}
	return c.Run(append([]string{"report", "--endpoint-url", url}, args...)...)
}
