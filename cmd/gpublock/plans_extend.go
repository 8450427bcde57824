package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
)

// planRef is a plan's name or ARN, as TrainingPlanName's and TrainingPlanArn's patterns allow.
var planRef = regexp.MustCompile(`^([a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}|arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:training-plan/.+)$`)

// planExtensionDays are the lengths --list asks for: whole days to 14, then whole weeks.
func planExtensionDays() []int {
	var out []int
	for d := 1; d <= trainingplans.MaxDays; d++ {
		if trainingplans.CheckExtensionDays(d) == nil {
			out = append(out, d)
		}
	}
	return out
}

// checkPlanExtend reads what can be checked before any call of a plan's extension.
func (a *extendArgs) checkPlanExtend(pos []string) (string, int, outputFormat, error) {
	id := strings.TrimSpace(pos[0])
	if len(id) > 2048 || !planRef.MatchString(id) {
		return "", 0, "", usagef("%q: want a training plan name (letters, digits and hyphens, at most 64) or its ARN", pos[0])
	}
	format, err := tableOrJSONFormat(a.output)
	if err != nil {
		return "", 0, "", err
	}
	if caps, _ := aws.CapsOf(model.SourceTrainingPlan); a.dryRun && !caps.DryRun {
		return "", 0, "", usagef("--dry-run: %s", caps.NoDryRun)
	}
	if err := a.aws.validate(); err != nil {
		return "", 0, "", err
	}
	if err := singleRegion(&a.aws); err != nil {
		return "", 0, "", err
	}
	if a.list {
		if a.duration != "" || a.yes {
			return "", 0, "", usagef("--list buys nothing: it takes no --duration or --yes")
		}
		return id, 0, format, nil
	}
	if strings.TrimSpace(a.duration) == "" {
		return "", 0, "", usagef("--duration is required: the length to add, e.g. 1d, 2d or 3w (--list shows those offered)")
	}
	lo, hi, err := model.ParseDayRange(a.duration)
	if err != nil {
		return "", 0, "", usagef("--duration: %v", err)
	}
	if lo != hi {
		return "", 0, "", usagef("--duration %q: give one length to add, not a range", a.duration)
	}
	if err := trainingplans.CheckExtensionDays(lo); err != nil {
		return "", 0, "", usagef("--duration: %v", err)
	}
	return id, lo, format, nil
}

// runPlanExtend lengthens a training plan, under the rules of a block's extension.
func (a *extendArgs) runPlanExtend(ctx context.Context, pos []string, stdout, stderr io.Writer) int {
	id, days, format, err := a.checkPlanExtend(pos)
	if err != nil {
		return reportUsage(stderr, "extend", err)
	}
	if !a.list {
		if code, refused := refuseSpending(stderr, "extend", "extend", "extended", &a.aws, a.yes, false); refused {
			return code
		}
	}
	client, info, err := openBackend(ctx, &a.aws, stderr)
	if err != nil {
		return backendFailure(stderr, "extend", err)
	}
	region := a.aws.oneRegion(client)
	if !a.list {
		if code, done := settleFirst(ctx, stderr, "extend", client, region); done {
			return code
		}
	}
	src, err := aws.OpenSource(client, model.SourceTrainingPlan)
	if err != nil {
		return backendFailure(stderr, "extend", err)
	}
	b, found, err := src.FindBlock(ctx, region, id)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock extend: training plan %s in %s: %s Nothing was extended.\n", id, region, client.ExplainError(err))
		return 1
	}
	if !found {
		fmt.Fprintf(stderr, "gpublock extend: training plan %s is not in %s (gpublock blocks --source training-plans lists them). Nothing was extended.\n", id, region)
		return 1
	}
	if a.list {
		return printPlanExtensionList(ctx, src, b, format, stdout, stderr)
	}
	var opts []aws.SpendOption
	if e, ok := client.EarlierExtension(b, days*24); ok {
		if !a.again {
			return alreadyDone(stderr, "extend", client.ExplainError(aws.AlreadyBoughtError(e)))
		}
		opts = append(opts, aws.Again())
	}
	offs, err := src.ExtensionOfferings(ctx, b, days)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock extend: the extension offerings of %s could not be listed: %s Nothing was extended.\n", b.ReservationID, client.ExplainError(err))
		return 1
	}
	if len(offs) == 0 {
		fmt.Fprintf(stderr, "gpublock extend: SageMaker offers no %s extension of %s now. Try another length (--list), or later. Nothing was extended.\n",
			model.FormatDays(days), b.ReservationID)
		return 1
	}
	off := model.CheapestExtension(offs)
	account, ok := capAndPayer(ctx, stderr, "extend", &a.aws, client, off.Fee, "Nothing was extended.")
	if !ok {
		return 1
	}
	printPlanExtensionSummary(stderr, info, account, b, off)
	if !confirmed(ctx, stderr, "extend", a.yes, "Extend this training plan?", "extend", "extended") {
		return 1
	}
	if !againExtend(ctx, stderr, a.yes, len(opts) > 0, b.ReservationID, days) {
		return 1
	}
	res, err := src.Extend(ctx, b, off, opts...)
	if errors.Is(err, aws.ErrAlreadyBought) {
		return alreadyDone(stderr, "extend", client.ExplainError(err))
	}
	if err != nil {
		return notDone(stderr, "extend", "NOT EXTENDED", client, err)
	}
	if res.Recovered {
		fmt.Fprintf(stderr, "The reply to the extension was lost. The plan's extension history lists offering %s: it is extended, once.\n", off.ID)
	}
	if format == "json" {
		j := toPlanExtensionJSON(b, off)
		j.GpublockRequestId, j.FoundInHistory = res.RequestID, res.Recovered
		return jsonExit(stderr, writeJSON(stdout, j))
	}
	return jsonExit(stderr, printRows(stdout, [][2]string{{"Plan", b.ReservationID}, {"ARN", b.ARN}, {"Added", fmt.Sprintf("%d hours", off.DurationHours)},
		{"New end", bothTimes(off.End)}, {"Upfront fee", exactFee(off.Fee, off.Currency)}, {"Request id", res.RequestID}}))
}

func jsonExit(stderr io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, "gpublock extend:", err)
		return 1
	}
	return 0
}

// planExtensionJSON is an extension bought, in DescribeTrainingPlanExtensionHistory's names.
type planExtensionJSON struct {
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

func toPlanExtensionJSON(b model.Block, o model.ExtensionOffering) planExtensionJSON {
	return planExtensionJSON{Source: b.Source, TrainingPlanArn: b.ARN, TrainingPlanName: b.ReservationID,
		TrainingPlanExtensionOfferingId: o.ID, StartDate: rfc3339(o.Start), EndDate: rfc3339(o.End), DurationHours: o.DurationHours,
		UpfrontFee: o.Fee.String(), CurrencyCode: o.Currency}
}

// printPlanExtensionList lists every extension length SageMaker offers the plan now.
func printPlanExtensionList(ctx context.Context, src aws.Source, b model.Block, format outputFormat, stdout, stderr io.Writer) int {
	var all []model.ExtensionOffering
	for _, d := range planExtensionDays() {
		offs, err := src.ExtensionOfferings(ctx, b, d)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock extend: the extension offerings of %s could not be listed: %s\n", b.ReservationID, aws.ExplainError(err))
			return 1
		}
		if len(offs) > 0 {
			all = append(all, model.CheapestExtension(offs))
		}
	}
	if format == "json" {
		out := make([]planExtensionJSON, 0, len(all))
		for _, o := range all {
			out = append(out, toPlanExtensionJSON(b, o))
		}
		return jsonExit(stderr, writeJSON(stdout, out))
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "SageMaker offers no extension of %s now.\n", b.ReservationID)
		return 0
	}
	fmt.Fprintf(stdout, "%-8s  %-16s  %-16s  %14s  %s\n", "ADDS", "NEW END (UTC)", "ZONE", "UPFRONT FEE", "OFFERING")
	for _, o := range all {
		fmt.Fprintf(stdout, "%-8s  %-16s  %-16s  %14s  %s\n", model.FormatDays(o.DurationHours/24), o.End.UTC().Format("2006-01-02 15:04"),
			o.AvailabilityZone, o.Fee.Dollars(), o.ID)
	}
	return 0
}

// printPlanExtensionSummary is the confirmation of a plan's extension, in the words of the
// extend dialog.
func printPlanExtensionSummary(w io.Writer, info backendInfo, account string, b model.Block, ext model.ExtensionOffering) {
	summaryHead(w, "EXTEND A TRAINING PLAN", info)
	f := model.ExtensionFacts(b, ext, account, extensionComparison(b, ext).BreakEven(), time.Local)
	f.Lines = append(f.Lines, model.Fact{Label: "Dry run", Value: model.NoPlanDryRun("extension")})
	printFacts(w, f)
}
