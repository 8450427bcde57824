package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

// The steps every command that spends takes, whatever the capacity source, so that each
// states the same facts in the same words.

// refuseSpending is every refusal, before any call, of a command that spends: the config
// file's spending rules, read-only mode, and no person to type word (without --yes); done
// is the command's past participle ("bought").
func refuseSpending(stderr io.Writer, cmd, word, done string, f *awsFlags, yes, dryRun bool) (int, bool) {
	if code, refused := commandSpending(stderr, cmd, f); refused {
		return code, true
	}
	if code, refused := refuseReadOnly(stderr, cmd, done, f.readOnlyRule(), dryRun); refused {
		return code, true
	}
	return refuseWithoutPerson(stderr, cmd, word, yes, dryRun)
}

// lookupFailure phrases an error of aws.FindByID other than aws.ErrNotListed: a region
// that failed before the offering was found, or the command cancelled.
func lookupFailure(client *aws.Client, err error) error {
	var rf *aws.RegionFailure
	switch {
	case errors.As(err, &rf):
		return fmt.Errorf("the offering could not be looked up: %s", client.ExplainError(rf.Err))
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return errors.New("cancelled; nothing was bought")
	}
	return err
}

// capAndPayer refuses a fee above --max-spend and finds the account that would pay, which
// the confirmation must name; without it nothing is spent. nothing is the command's
// "Nothing was …" sentence.
func capAndPayer(ctx context.Context, stderr io.Writer, cmd string, f *awsFlags, client *aws.Client, fee model.Money, nothing string) (string, bool) {
	if msg := overCap(f.spendCap(), f.maxSpendRule(), fee); msg != "" {
		fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, strings.Replace(msg, "Nothing was bought.", nothing, 1))
		return "", false
	}
	id, err := client.Identity(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock %s: cannot tell which account would pay: %s\n", cmd, client.ExplainError(err))
		return "", false
	}
	return id.Account, true
}

// summaryHead opens a confirmation: what it is and against which backend. The facts that
// follow (printFacts) name the account and region.
func summaryHead(w io.Writer, title string, info backendInfo) {
	fmt.Fprintf(w, "\n%s (%s): %s\n", title, info.Mode, info.Reason)
}

// printFacts writes a confirmation's facts (model's, the words the dialogs say) as
// "Label:" rows, then what cannot be undone.
func printFacts(w io.Writer, f model.Facts) {
	width := factsLabelWidth(f)
	for _, l := range f.Lines {
		fmt.Fprintf(w, "  %s %s\n", padRight(l.Label+":", width), l.Value)
	}
	if f.Final != "" {
		fmt.Fprintf(w, "  %s\n", f.Final)
	}
}

// factsLabelWidth is the width of the facts' "Label:" column: 12, or the longest label's.
func factsLabelWidth(f model.Facts) int {
	n := 12
	for _, l := range f.Lines {
		n = max(n, utf8.RuneCountInString(l.Label)+1)
	}
	return n
}

// padRight pads s with spaces to n characters (runes: labels hold "·").
func padRight(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// againPurchase is the check, after the confirmation, for a purchase an interrupted run
// already made of this offering: without --again nothing more is bought (exit 0); with it,
// a second one is bought after typing again. what names the capacity ("Capacity Block",
// "training plan"), bought what the earlier run bought ("reservation cr-…").
func againPurchase(ctx context.Context, stderr io.Writer, client *aws.Client, o model.Offering, yes, again bool, what string, bought func(result string) string) ([]aws.SpendOption, int, bool) {
	e, ok := client.EarlierPurchase(o)
	if !ok {
		return nil, 0, true
	}
	if !again {
		return nil, alreadyDone(stderr, "purchase", client.ExplainError(aws.AlreadyBoughtError(e))), false
	}
	fmt.Fprintf(stderr, "An interrupted run already bought this %s: %s. --again buys a second one.\n", what, bought(e.Result))
	if !confirmed(ctx, stderr, "purchase", yes, "Buy a SECOND "+what+"?", "again", "bought") {
		return nil, 1, false
	}
	return []aws.SpendOption{aws.Again()}, 0, true
}

// againExtend asks, when an interrupted run already extended name by days (again is set),
// to type again before extending it a second time.
func againExtend(ctx context.Context, stderr io.Writer, yes, again bool, name string, days int) bool {
	if !again {
		return true
	}
	fmt.Fprintf(stderr, "An interrupted run already extended %s by %s. --again extends it a second time.\n", name, model.FormatDays(days))
	return confirmed(ctx, stderr, "extend", yes, "Extend it AGAIN?", "again", "extended")
}
