package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// purchaseSource is the source of the offering a purchase names, from --source; an id of
// the other source's form is refused before any call rather than searched for in vain.
func purchaseSource(a *purchaseArgs, id string) (model.Source, error) {
	src, err := a.src.one()
	if err != nil {
		return 0, err
	}
	if src == model.SourceCapacityBlock && strings.HasPrefix(id, "tpo-") {
		return 0, usagef("%s is a training plan offering; add --source training-plans (and its --target)", id)
	}
	if caps, _ := aws.CapsOf(src); a.dryRun && !caps.DryRun {
		return 0, usagef("--dry-run: %s", caps.NoDryRun)
	}
	return src, nil
}

// runPlanPurchase buys a training plan offering, under the rules of a Capacity Block's
// purchase: read-only and the cap refuse before any call, interrupted purchases are settled
// first, the offering is found by running its search again, the confirmation states every
// fact, and the purchase is journalled and settled by the plan's name.
func runPlanPurchase(ctx context.Context, a *purchaseArgs, offeringID string, format outputFormat, stdout, stderr io.Writer) int {
	if code, refused := refuseSpending(stderr, "purchase", "buy", "bought", &a.aws, a.yes, false); refused {
		return code
	}
	if _, err := a.sourcedQuery(time.Now().UTC()); err != nil {
		return reportUsage(stderr, "purchase", err)
	}
	client, info, err := openBackend(ctx, &a.aws, stderr)
	if err != nil {
		return backendFailure(stderr, "purchase", err)
	}
	region := a.aws.oneRegion(client)
	if code, done := settleFirst(ctx, stderr, "purchase", client, region); done {
		return code
	}
	if e, ok := client.EarlierPurchase(model.Offering{Source: model.SourceTrainingPlan, ID: offeringID, Region: region}); ok && !a.again {
		return alreadyDone(stderr, "purchase", client.ExplainError(aws.AlreadyBoughtError(e)))
	}
	now := client.Now(ctx)
	q, err := a.sourcedQuery(now)
	if err != nil {
		return reportUsage(stderr, "purchase", err)
	}
	q.Regions = []string{region}
	if _, err := planQuery(q); err != nil {
		return reportUsage(stderr, "purchase", err)
	}
	src, err := aws.OpenSource(client, model.SourceTrainingPlan)
	if err != nil {
		return backendFailure(stderr, "purchase", err)
	}
	o, err := findPlanOffering(ctx, client, src, q, offeringID)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock purchase: %v\n", err)
		return 1
	}
	account, ok := capAndPayer(ctx, stderr, "purchase", &a.aws, client, o.Fee, "Nothing was bought.")
	if !ok {
		return 1
	}
	printPlanSummary(stderr, info, account, o, a.tags)
	if !confirmed(ctx, stderr, "purchase", a.yes, "Buy this training plan?", "buy", "bought") {
		return 1
	}
	opts, code, ok := againPurchase(ctx, stderr, client, o, a.yes, a.again, "training plan", func(r string) string { return r })
	if !ok {
		return code
	}
	res, err := src.Purchase(ctx, o, a.platform, a.tags, opts...)
	if errors.Is(err, aws.ErrAlreadyBought) {
		return alreadyDone(stderr, "purchase", client.ExplainError(err))
	}
	if err != nil {
		return purchaseFailure(stderr, o, err)
	}
	if res.Recovered {
		fmt.Fprintf(stderr, "The reply to the purchase was lost. Training plan %s was found by its name: it is bought, once.\n", res.Block.ReservationID)
	}
	if err := printPlanPurchase(stdout, format, o, res); err != nil {
		fmt.Fprintln(stderr, "gpublock purchase:", err)
		return 1
	}
	return 0
}

// findPlanOffering runs the training plan search again and takes the offering with this id.
func findPlanOffering(ctx context.Context, client *aws.Client, src aws.Source, q model.Query, id string) (model.Offering, error) {
	o, seen, err := aws.FindByID(ctx, func(ctx context.Context) <-chan aws.SearchEvent { return src.Search(ctx, q) },
		func(o model.Offering) string { return o.ID }, id)
	if errors.Is(err, aws.ErrNotListed) {
		return o, fmt.Errorf("training plan offering %s is not among the %d offerings the search now returns in %s: it was sold, it expired, "+
			"or the search flags (--type, --count, --duration, --from, --to, --target) differ from those that listed it. Search again (gpublock offerings --source training-plans); nothing was bought",
			id, seen, q.Regions[0])
	}
	if err != nil {
		return o, lookupFailure(client, err)
	}
	return o, nil
}

// printPlanSummary is the confirmation of a training plan purchase: the facts of a
// Capacity Block's (account, region, capacity, window, fee, no refund), the target
// resources and every part, and that nothing has checked the permission.
func printPlanSummary(w io.Writer, info backendInfo, account string, o model.Offering, tags map[string]string) {
	summaryHead(w, "PURCHASE OF A TRAINING PLAN", info)
	f := model.PlanFacts(o, account, pricing.Compare(priceCatalog(), o).BreakEven(), time.Local)
	if len(tags) > 0 {
		f.Lines = append(f.Lines, model.Fact{Label: "Tags", Value: tagFlag(tags).String()})
	}
	f.Lines = append(f.Lines, model.Fact{Label: "Dry run", Value: model.NoPlanDryRun("purchase")})
	printFacts(w, f)
}

// planPurchaseJSON is CreateTrainingPlan's answer and the plan as DescribeTrainingPlan
// gives it, plus what gpublock knows.
type planPurchaseJSON struct {
	TrainingPlanArn        string
	TrainingPlan           planJSON
	TrainingPlanOfferingId string
	GpublockRequestId      string
	FoundByName            bool
}

func printPlanPurchase(w io.Writer, format outputFormat, o model.Offering, res aws.PurchaseResult) error {
	b := res.Block
	if format == "json" {
		return writeJSON(w, planPurchaseJSON{TrainingPlanArn: b.ARN, TrainingPlan: toPlanJSON(b), TrainingPlanOfferingId: o.ID,
			GpublockRequestId: res.RequestID, FoundByName: res.Recovered})
	}
	rows := [][2]string{
		{"Plan", b.ReservationID},
		{"ARN", b.ARN},
		{"Status", model.PlanStatus(b.State)},
		{"Region", b.Region},
		{"For", strings.Join(b.Targets, ", ")},
		{"Start", bothTimes(o.Start)},
		{"End", bothTimes(o.End)},
		{"Upfront fee", exactFee(o.Fee, o.Currency)},
		{"Request id", res.RequestID + " (the plan's name)"},
	}
	if res.Recovered {
		rows = append(rows, [2]string{"Confirmed", "found by its name after the reply was lost"})
	}
	if err := printRows(w, rows); err != nil {
		return err
	}
	printPlanUses(w, b)
	return nil
}

// printPlanUses prints how to use the plan, one copyable AWS CLI line per target.
func printPlanUses(w io.Writer, b model.Block) {
	uses := model.PlanUses(b)
	if len(uses) == 0 {
		return
	}
	fmt.Fprintln(w, "\nHow to use it (fill in the names in capitals):")
	for _, u := range uses {
		fmt.Fprintf(w, "  %s (%s):\n    %s\n", u.Target, u.Field, u.Command)
	}
}
