package extend

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// ExtendChoiceJSON is one length of `extend --list -o json`.
type ExtendChoiceJSON struct {
	Length                           string
	DurationDays                     int
	CapacityBlockExtensionOfferingId string
	NewEndDate                       string
	UpfrontFee                       string
	CurrencyCode                     string
	BreakEven                        string // as in the table: a percent, never, or —
	BreakEvenReading                 string
}

const extendListFormat = "%-6s  %-20s  %16s  %-10s  %s\n"

// runExtendList prints every extension length AWS offers for the block now, with its fee,
// its new end and its break-even; it buys nothing, so it needs neither a terminal nor
// permission to spend.
func (a *Options) runExtendList(ctx context.Context, id string, format cmdutil.OutputFormat, stdout, stderr io.Writer) int {
	client, _, err := a.Backend(ctx, &a.aws)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "extend", err)
	}
	b, err := spending.FindBlock(ctx, client, a.aws.OneRegion(client), id)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock extend: %v\n", err)
		return 1
	}
	if r := model.ExtendBlockerAt(b, client.Now(ctx)); r != nil {
		fmt.Fprintf(stderr, "gpublock extend: %s. %s\n", r.Reason, extendHint(client, b.Region, r))
		return 1
	}
	// AWS's bucket sets the pace (minutes for every length): say what is known as it
	// comes, and what is left, on stderr; the table, whole and in order, goes to stdout.
	// The two callbacks come from the search's goroutines: one lock keeps their lines whole.
	var mu sync.Mutex
	ctx = capacityblocks.WithExtensionProgress(ctx, func(p capacityblocks.ExtensionProgress) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(stderr, p.Sentence())
	})
	choices, err := capacityblocks.New(client).ExtensionChoices(ctx, b, func(ch model.ExtensionChoice) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "  %s offered: until %s for %s\n", model.FormatDays(ch.Days), ch.Offering.End.UTC().Format(model.LayoutMinuteUTC), ch.Offering.Fee.Dollars())
	})
	if err != nil && len(choices) == 0 {
		fmt.Fprintf(stderr, "gpublock extend: the extension offerings of %s could not be listed: %s\n", b.ReservationID, client.ExplainError(err))
		return 1
	}
	code := 0
	if err != nil {
		fmt.Fprintf(stderr, "gpublock extend: the list is incomplete: %v\n", err)
		code = 1
	}
	if len(choices) == 0 {
		fmt.Fprintf(stderr, "gpublock extend: AWS offers no extension of %s now (no capacity in %s after its end, %s). Try again later.\n",
			b.ReservationID, b.AvailabilityZone, printers.BothTimes(b.End))
		if format == "json" {
			_ = printers.JSON(stdout, []ExtendChoiceJSON{})
		}
		return 1
	}
	if err := printExtendChoices(stdout, format, b, choices, client.NextStep("extend", b.Region, b.ReservationID, "--duration", "LENGTH")); err != nil {
		fmt.Fprintln(stderr, "gpublock extend:", err)
		return 1
	}
	return code
}

func printExtendChoices(w io.Writer, format cmdutil.OutputFormat, b model.Block, choices []model.ExtensionChoice, next string) error {
	rows := make([]ExtendChoiceJSON, len(choices))
	for i, ch := range choices {
		off := ch.Offering
		cmp := extensionComparison(b, off)
		currency := off.Currency
		if currency == "" {
			currency = "USD"
		}
		rows[i] = ExtendChoiceJSON{Length: model.FormatDays(ch.Days), DurationDays: ch.Days, CapacityBlockExtensionOfferingId: off.ID,
			NewEndDate: printers.RFC3339(off.End), UpfrontFee: off.Fee.String(), CurrencyCode: currency,
			BreakEven: cmp.BreakEvenCell(), BreakEvenReading: cmp.Reading()}
	}
	if format == "json" {
		return printers.JSON(w, rows)
	}
	fmt.Fprintf(w, "Block %s (%s × %d, %s) ends %s; extensions are taken until %s.\n", b.ReservationID, b.InstanceType, b.TotalCount,
		b.AvailabilityZone, printers.BothTimes(b.End), printers.BothTimes(b.ExtendBy()))
	fmt.Fprintf(w, extendListFormat, "ADD", "NEW END (UTC)", "UPFRONT FEE", "BREAK-EVEN", "OFFERING")
	for i, ch := range choices {
		if _, err := fmt.Fprintf(w, extendListFormat, rows[i].Length, ch.Offering.End.UTC().Format(model.LayoutMinute),
			ch.Offering.Fee.Dollars(), rows[i].BreakEven, ch.Offering.ID); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "Extend with: %s\n", next)
	return err
}
