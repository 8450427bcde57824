package extend

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// planRef is a plan's name or ARN, as TrainingPlanName's and TrainingPlanArn's patterns allow.
var planRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}|arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:training-plan/.+)$`)
})

// planExtensionDays are the lengths --list asks for: whole days to 14, then whole weeks.
func planExtensionDays() []int {
	var out []int
	s := model.SourceTrainingPlan
	for d := 1; d <= s.MaxDays(); d++ {
		if s.CheckExtensionDays(d) == nil {
			out = append(out, d)
		}
	}
	return out
}

// checkPlanExtend reads what can be checked before any call of a plan's extension.
func (a *Options) checkPlanExtend(pos []string) (string, int, cmdutil.OutputFormat, error) {
	id := strings.TrimSpace(pos[0])
	if len(id) > 2048 || !planRef().MatchString(id) {
		return "", 0, "", cmdutil.Usagef("%q: want a training plan name (letters, digits and hyphens, at most 64) or its ARN", pos[0])
	}
	format, err := cmdutil.TableOrJSONFormat(a.output)
	if err != nil {
		return "", 0, "", err
	}
	if caps, _ := cmdutil.CapsOf(model.SourceTrainingPlan); a.dryRun && !caps.DryRun {
		return "", 0, "", cmdutil.Usagef("--dry-run: %s", caps.NoDryRun)
	}
	if err := a.aws.CheckSpending(); err != nil {
		return "", 0, "", err
	}
	if a.list {
		if a.duration != "" || a.yes {
			return "", 0, "", cmdutil.Usagef("--list buys nothing: it takes no --duration or --yes")
		}
		return id, 0, format, nil
	}
	if strings.TrimSpace(a.duration) == "" {
		return "", 0, "", cmdutil.Usagef("--duration is required: the length to add, e.g. 1d, 2d or 3w (--list shows those offered)")
	}
	lo, hi, err := model.ParseDayRange(a.duration)
	if err != nil {
		return "", 0, "", cmdutil.Usagef("--duration: %v", err)
	}
	if lo != hi {
		return "", 0, "", cmdutil.Usagef("--duration %q: give one length to add, not a range", a.duration)
	}
	if err := model.SourceTrainingPlan.CheckExtensionDays(lo); err != nil {
		return "", 0, "", cmdutil.Usagef("--duration: %v", err)
	}
	return id, lo, format, nil
}

// planExtendShow is how a training plan's extension shows: found by its name or ARN, its
// lengths SageMaker's, no dry run.
var planExtendShow = extendShow{
	what: "training plan", holder: "plan", tryList: " (--list)",
	args: "training plan name or ARN (from `gpublock blocks --source training-plans`)",
	check: func(a *Options, pos []string) (string, int, cmdutil.OutputFormat, error) {
		return a.checkPlanExtend(pos)
	},
	list: func(ctx context.Context, a *Options, id string, format cmdutil.OutputFormat, stdout, stderr io.Writer) int {
		client, _, err := a.Backend(ctx, &a.aws)
		if err != nil {
			return cmdutil.BackendFailure(stderr, "extend", err)
		}
		src, err := cmdutil.OpenSource(client, model.SourceTrainingPlan)
		if err != nil {
			return cmdutil.BackendFailure(stderr, "extend", err)
		}
		b, err := findPlan(ctx, client, src, a.aws.OneRegion(client), id)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock extend: %v Nothing was extended.\n", err)
			return 1
		}
		return printPlanExtensionList(ctx, src, b, format, stdout, stderr)
	},
	find: findPlan,
	// SageMaker refuses a plan that is not scheduled or active, in its own words.
	refuse: func(*awsapi.Client, model.Block, time.Time) string { return "" },
	noOffers: func(b model.Block, days int) string {
		return fmt.Sprintf("SageMaker offers no %s extension of %s now.", model.FormatDays(days), b.ReservationID)
	},
	summary:      printPlanExtensionSummary,
	dryRunFields: func(model.Block, model.ExtensionOffering) map[string]any { return nil },
	print: func(w io.Writer, format cmdutil.OutputFormat, b model.Block, off model.ExtensionOffering, res source.ExtendResult) error {
		if format == "json" {
			j := toPlanExtensionJSON(b, off)
			j.GpublockRequestId, j.FoundInHistory = res.RequestID, res.Recovered
			return printers.JSON(w, j)
		}
		return printers.Rows(w, [][2]string{{"Plan", b.ReservationID}, {"ARN", b.ARN}, {"Added", fmt.Sprintf("%d hours", off.DurationHours)},
			{"New end", printers.BothTimes(off.End)}, {"Upfront fee", model.ExactFee(off.Fee, off.Currency)}, {"Request id", res.RequestID}})
	},
}

// findPlan is the plan by its name or ARN, or why not.
func findPlan(ctx context.Context, client *awsapi.Client, src source.Source, region, id string) (model.Block, error) {
	b, found, err := src.FindBlock(ctx, region, id)
	if err != nil {
		return b, fmt.Errorf("training plan %s in %s: %s", id, region, client.ExplainError(err))
	}
	if !found {
		return b, fmt.Errorf("training plan %s is not in %s (`%s` lists them).", id, region, client.NextStep("blocks", region, "--source", "training-plans"))
	}
	return b, nil
}

func jsonExit(stderr io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, "gpublock extend:", err)
		return 1
	}
	return 0
}

// PlanExtensionJSON is an extension bought, in DescribeTrainingPlanExtensionHistory's names.
type PlanExtensionJSON struct {
	Source                          model.Source
	TrainingPlanArn                 string
	TrainingPlanName                string
	TrainingPlanExtensionOfferingId string
	StartDate, EndDate              string
	DurationHours                   int
	UpfrontFee                      string
	CurrencyCode                    string
	GpublockRequestId               string
	FoundInHistory                  bool
}

func toPlanExtensionJSON(b model.Block, o model.ExtensionOffering) PlanExtensionJSON {
	return PlanExtensionJSON{Source: b.Source, TrainingPlanArn: b.ARN, TrainingPlanName: b.ReservationID,
		TrainingPlanExtensionOfferingId: o.ID, StartDate: printers.RFC3339(o.Start), EndDate: printers.RFC3339(o.End), DurationHours: o.DurationHours,
		UpfrontFee: o.Fee.String(), CurrencyCode: o.Currency}
}

// printPlanExtensionList lists every extension length SageMaker offers the plan now.
func printPlanExtensionList(ctx context.Context, src source.Source, b model.Block, format cmdutil.OutputFormat, stdout, stderr io.Writer) int {
	var all []model.ExtensionOffering
	for _, d := range planExtensionDays() {
		offs, err := src.ExtensionOfferings(ctx, b, d)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock extend: the extension offerings of %s could not be listed: %s\n", b.ReservationID, awsapi.ExplainError(err))
			return 1
		}
		if len(offs) > 0 {
			all = append(all, model.CheapestExtension(offs))
		}
	}
	if format == "json" {
		out := make([]PlanExtensionJSON, 0, len(all))
		for _, o := range all {
			out = append(out, toPlanExtensionJSON(b, o))
		}
		return jsonExit(stderr, printers.JSON(stdout, out))
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "SageMaker offers no extension of %s now.\n", b.ReservationID)
		return 0
	}
	fmt.Fprintf(stdout, "%-8s  %-16s  %-16s  %14s  %s\n", "ADDS", "NEW END (UTC)", "ZONE", "UPFRONT FEE", "OFFERING")
	for _, o := range all {
		fmt.Fprintf(stdout, "%-8s  %-16s  %-16s  %14s  %s\n", model.FormatDays(o.DurationHours/24), o.End.UTC().Format(model.LayoutMinute),
			o.AvailabilityZone, o.Fee.Dollars(), o.ID)
	}
	return 0
}

// printPlanExtensionSummary is the confirmation of a plan's extension, in the words of the
// extend dialog.
func printPlanExtensionSummary(w io.Writer, info cmdutil.BackendInfo, account string, b model.Block, ext model.ExtensionOffering) {
	spending.SummaryHead(w, "EXTEND A TRAINING PLAN", info)
	f := model.ExtensionFacts(b, ext, account, extensionComparison(b, ext).BreakEven(), time.Local)
	f.Lines = append(f.Lines, model.Fact{Label: "Dry run", Value: cmdutil.SourceCaps(model.SourceTrainingPlan).NoDryRun})
	spending.PrintFacts(w, f)
}
