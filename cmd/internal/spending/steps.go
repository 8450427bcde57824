package spending

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// The steps every command that spends takes, whatever the capacity source, so that each
// states the same facts in the same words.

// RefuseSpending is every refusal, before any call, of a command that spends: the config
// file's spending rules, read-only mode, and no person to type word (without --yes); done
// is the command's past participle ("bought").
func RefuseSpending(ios *cmdutil.IOStreams, load config.Loader, cmd, word, done string, f *cmdutil.AWSFlags, yes, dryRun bool) (int, bool) {
	stderr := ios.ErrOut
	if code, refused := cmdutil.CommandSpending(stderr, cmd, f, load); refused {
		return code, true
	}
	if code, refused := refuseReadOnly(stderr, cmd, done, f.ReadOnlyRule(), dryRun); refused {
		return code, true
	}
	return refuseWithoutPerson(ios, cmd, word, yes, dryRun)
}

// LookupFailure phrases an error of awsapi.FindByID other than awsapi.ErrNotListed: a region
// that failed before the offering was found, or the command cancelled.
func LookupFailure(client *awsapi.Client, err error) error {
	var rf *source.RegionFailure
	switch {
	case errors.As(err, &rf):
		return fmt.Errorf("the offering could not be looked up: %s", client.ExplainError(rf.Err))
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return errors.New("cancelled; nothing was bought")
	}
	return err
}

// SummaryHead opens a confirmation: what it is and against which backend. The facts that
// follow (printFacts) name the account and region.
func SummaryHead(w io.Writer, title string, info cmdutil.BackendInfo) {
	fmt.Fprintf(w, "\n%s\n", Wrap(fmt.Sprintf("%s (%s): %s", title, info.Mode, info.Reason)))
}

// PrintFacts writes a confirmation's facts (model's, the words the dialogs say) as
// "Label:" rows, then what cannot be undone.
func PrintFacts(w io.Writer, f model.Facts) {
	width := FactsLabelWidth(f)
	indent := strings.Repeat(" ", 3+width)
	for _, l := range f.Lines {
		value := strings.ReplaceAll(wrapWords(l.Value, factsColumns-len(indent)), "\n", "\n"+indent)
		fmt.Fprintf(w, "  %s %s\n", PadRight(l.Label+":", width), value)
	}
	if f.Final != "" {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(wrapWords(f.Final, factsColumns-2), "\n", "\n  "))
	}
}

// factsColumns is the width the facts are wrapped to: a terminal's least, so that no
// terminal cuts a word of what is agreed to.
const factsColumns = 80

// Wrap breaks a sentence of a confirmation between words at factsColumns, as the facts
// are: the lines around the facts are read as carefully.
func Wrap(s string) string { return wrapWords(s, factsColumns) }

// WrapIndented is Wrap for a sentence printed after indent, its lines following on under it.
func WrapIndented(indent, s string) string {
	return indent + strings.ReplaceAll(wrapWords(s, factsColumns-utf8.RuneCountInString(indent)), "\n", "\n"+indent)
}

// wrapWords breaks s between words into lines of at most n columns; a word longer than a
// line stays whole (an id, an ARN) rather than be cut.
func wrapWords(s string, n int) string {
	var b strings.Builder
	col := 0
	for _, word := range strings.Fields(s) {
		k := utf8.RuneCountInString(word)
		switch {
		case col == 0:
		case col+1+k > n:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += k
	}
	return b.String()
}

// FactsLabelWidth is the width of the facts' "Label:" column: 12, or the longest label's.
func FactsLabelWidth(f model.Facts) int {
	n := 12
	for _, l := range f.Lines {
		n = max(n, utf8.RuneCountInString(l.Label)+1)
	}
	return n
}

// PadRight pads s with spaces to n characters (runes: labels hold "·").
func PadRight(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// Exit codes of the commands that spend money, beyond 0 (done), 1 (not done) and 2 (usage).
const ExitUnknown = 3 // AWS did not answer and the check afterwards failed: do not buy again

// refuseWithoutPerson is the check, made before any call, that a purchase or launch
// can be confirmed: by --yes, or by a person at a terminal.
func refuseWithoutPerson(ios *cmdutil.IOStreams, cmd, word string, yes, dryRun bool) (int, bool) {
	if yes || dryRun || ios.CanPrompt() {
		return 0, false
	}
	stderr := ios.ErrOut
	fmt.Fprintf(stderr, "gpublock %s: refusing: standard input is not a terminal, so nobody can type %q to confirm.\n", cmd, word)
	fmt.Fprintf(stderr, "Pass --yes to %s from a script (or --dry-run to check only); nothing was sent to AWS.\n", word)
	return 2, true
}

// refuseReadOnly is the check, made before the backend is opened, that read-only mode
// forbids what would spend money, in the spend service's words: nobody is shown a
// confirmation, or asked to type, for something refused anyway. A --dry-run spends
// nothing, so it still runs.
func refuseReadOnly(stderr io.Writer, cmd, done, readOnlyRule string, dryRun bool) (int, bool) {
	if readOnlyRule == "" || dryRun {
		return 0, false
	}
	fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, model.ReadOnlyRefusal(readOnlyRule, done))
	return 1, true
}

// Confirmed is --yes, or the person typing word; a no is said on stderr.
func Confirmed(ctx context.Context, ios *cmdutil.IOStreams, cmd string, yes bool, prompt, word, done string) bool {
	if yes || readTyped(ctx, ios, prompt, word) {
		return true
	}
	fmt.Fprintf(ios.ErrOut, "gpublock %s: cancelled; nothing was %s.\n", cmd, done)
	return false
}

// NotDone reports a failed launch or extension: exit 3 when it may have happened anyway.
func NotDone(stderr io.Writer, cmd, verdict string, client *awsapi.Client, err error) int {
	var pe *source.ActionError
	if errors.As(err, &pe) && pe.Outcome == source.Unknown {
		fmt.Fprintf(stderr, "gpublock %s: OUTCOME UNKNOWN: %s\n", cmd, pe.Explanation)
		return ExitUnknown
	}
	fmt.Fprintf(stderr, "gpublock %s: %s: %s\n", cmd, verdict, client.ExplainError(err))
	return 1
}

// Prepare is the spend service's Prepare in the command line's words: what it settled,
// then its refusal, in the words the TUI shows too. ok is false when the command ends
// with code; a dry run's "not allowed" is the caller's to print.
func Prepare(ctx context.Context, stderr io.Writer, cmd string, client *awsapi.Client, src source.Source, in source.Intent) (source.Prepared, int, bool) {
	p, err := cmdutil.SpendPath(client).Prepare(ctx, src, in)
	for _, s := range p.Settled {
		fmt.Fprintf(stderr, "gpublock %s: settled an interrupted run: %s\n", cmd, s.Sentence())
	}
	var ue cmdutil.UsageError
	var pe *source.ActionError
	switch {
	case err == nil && !in.CheckOnly && p.PayerErr != nil:
		fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, client.ExplainError(p.PayerErr))
		return p, 1, false
	case err == nil || (in.CheckOnly && errors.Is(err, spend.ErrNotAllowed)):
		return p, 0, true
	case errors.As(err, &ue):
		return p, cmdutil.ReportUsage(stderr, cmd, err), false
	case errors.Is(err, source.ErrAlreadyBought):
		return p, alreadyDone(stderr, cmd, client.ExplainError(err)), false
	case errors.As(err, &pe):
		verdict := ""
		if !in.CheckOnly && !errors.Is(err, source.ErrOverSpendCap) && !errors.Is(err, source.ErrReadOnly) && !errors.Is(err, spend.ErrNotAllowed) && !errors.Is(err, spend.ErrUnsettled) {
			// A refusal of the source's (a check of the block, AWS's answer) carries no verdict of its own.
			_, done := in.Kind.Words()
			verdict = strings.ToUpper("not "+done) + ": "
		}
		fmt.Fprintf(stderr, "gpublock %s: %s%s\n", cmd, verdict, client.ExplainError(err))
		return p, 1, false
	}
	fmt.Fprintf(stderr, "gpublock %s: %v\n", cmd, err)
	return p, 1, false
}

// PermissionLine shows the dry run's answer (or that the source has none) before the
// confirmation.
func PermissionLine(stderr io.Writer, p source.Prepared) {
	if p.NoDryRun == "" {
		fmt.Fprintf(stderr, "  Permission:  allowed (%s, dry run)\n\n", p.Permission.Action)
	}
}

// ConfirmAgain asks, when an interrupted run already did it (say says what) and --again
// asks for a second one, to type again.
func ConfirmAgain(ctx context.Context, ios *cmdutil.IOStreams, cmd string, yes bool, say, prompt, done string) bool {
	fmt.Fprintln(ios.ErrOut, Wrap(say))
	return Confirmed(ctx, ios, cmd, yes, prompt, "again", done)
}

// alreadyDone reports that an interrupted run already bought it: done, nothing new (exit 0).
func alreadyDone(stderr io.Writer, cmd string, ex source.Explanation) int {
	fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, ex)
	return 0
}

// JournalWarning says, when it happened, that the outcome could not be journalled: what was
// bought stands, but the journal no longer tells it.
func JournalWarning(stderr io.Writer, cmd string, err error) {
	if err != nil {
		fmt.Fprintf(stderr, "gpublock %s: WARNING: done, but its outcome could not be recorded: %s. A later run settles it from AWS.\n", cmd, source.RedactError(err))
	}
}

// PrintPermission prints a --dry-run's answer (exit 0 allowed, 1 not): in JSON, fields
// beside DryRun, Allowed and Action; in a table, yes says what the identity may do.
func PrintPermission(stdout, stderr io.Writer, cmd string, format cmdutil.OutputFormat, p source.Permission, fields map[string]any, yes, done string) int {
	code := 0
	if !p.Allowed {
		code = 1
	}
	if format == "json" {
		fields["DryRun"], fields["Allowed"], fields["Action"] = true, p.Allowed, p.Action
		if err := printers.JSON(stdout, fields); err != nil {
			fmt.Fprintf(stderr, "gpublock %s: %v\n", cmd, err)
			return 1
		}
		return code
	}
	if p.Allowed {
		fmt.Fprintf(stdout, "Dry run: allowed. %s Nothing was %s.\n", yes, done)
	} else {
		fmt.Fprintf(stdout, "Dry run: %s\n", model.NotAllowed(p.Action, done))
	}
	return code
}

// FindBlock is aws.FindBlock with the command line's words for each way it can fail.
func FindBlock(ctx context.Context, client *awsapi.Client, region, id string) (model.Block, error) {
	b, found, err := capacityblocks.New(client).FindBlock(ctx, region, id)
	switch {
	case found:
		return b, nil
	case ctx.Err() != nil:
		return model.Block{}, errors.New("cancelled.")
	case err != nil:
		return model.Block{}, fmt.Errorf("the blocks of %s could not be listed: %s", region, client.ExplainError(err))
	}
	return model.Block{}, fmt.Errorf("there is no Capacity Block %s in %s (`%s` lists them; another region needs --region).", id, region, client.NextStep("blocks", region))
}
