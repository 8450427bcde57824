package purchase

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// purchaseSource is the source of the offering a purchase names, from --source; an id of
// the other source's form is refused before any call rather than searched for in vain.
func purchaseSource(a *Options, id string) (model.Source, error) {
	src, err := a.Sources.One()
	if err != nil {
		return 0, err
	}
	if owner, ok := cmdutil.OfferingSource(id); ok && owner != src {
		caps, _ := cmdutil.CapsOf(owner)
		target := ""
		if len(caps.Targets) > 0 {
			target = " (and its --target)"
		}
		return 0, cmdutil.Usagef("%s is a %s offering; add --source %s%s", id, caps.Noun, owner.Name(), target)
	}
	if caps, _ := cmdutil.CapsOf(src); a.dryRun && !caps.DryRun {
		return 0, cmdutil.Usagef("--dry-run: %s", caps.NoDryRun)
	}
	return src, nil
}

// planPurchaseShow is how a training plan's purchase shows: the offering is found by
// running the plans' search again, and the plan is settled by its name after a lost reply.
var planPurchaseShow = purchaseShow{
	what: "training plan", idField: "TrainingPlanOfferingId",
	bought: func(r string) string { return r },
	check: func(_ *Options, q model.Query, _ string, _ time.Time) error {
		return cmdutil.CheckSourceQuery(model.SourceTrainingPlan, q)
	},
	notListed: func(client *awsapi.Client, id string, seen int, region string) error {
		return fmt.Errorf("training plan offering %s is not among the %d offerings the search now returns in %s: it was sold, it expired, "+
			"or the search flags (--type, --count, --duration, --from, --to, --target) differ from those that listed it. %s Search again (%s); nothing was bought",
			id, seen, region, movingWindow, client.NextStep("offerings", region, "--source", "training-plans"))
	},
	summary: func(w io.Writer, info cmdutil.BackendInfo, account string, o model.Offering, _ string, tags map[string]string) {
		printPlanSummary(w, info, account, o, tags)
	},
	recovered: func(res source.PurchaseResult) string {
		return fmt.Sprintf("The reply to the purchase was lost. Training plan %s was found by its name: it is bought, once.", res.Block.ReservationID)
	},
	print: printPlanPurchase,
}

// printPlanSummary is the confirmation of a training plan purchase: the facts of a
// Capacity Block's (account, region, capacity, window, fee, no refund), the target
// resources and every part, and that nothing has checked the permission.
func printPlanSummary(w io.Writer, info cmdutil.BackendInfo, account string, o model.Offering, tags map[string]string) {
	spending.SummaryHead(w, "PURCHASE OF A TRAINING PLAN", info)
	f := model.PlanFacts(o, account, pricing.Compare(cmdutil.PriceCatalog(), o).BreakEven(), time.Local)
	if len(tags) > 0 {
		f.Lines = append(f.Lines, model.Fact{Label: "Tags", Value: cmdutil.TagFlag(tags).String()})
	}
	f.Lines = append(f.Lines, model.Fact{Label: "Dry run", Value: cmdutil.SourceCaps(model.SourceTrainingPlan).NoDryRun})
	spending.PrintFacts(w, f)
}

// PlanPurchaseJSON is CreateTrainingPlan's answer and the plan as DescribeTrainingPlan
// gives it, plus what gpublock knows.
type PlanPurchaseJSON struct {
	TrainingPlanArn        string
	TrainingPlan           printers.PlanJSON
	TrainingPlanOfferingId string
	GpublockRequestId      string
	FoundByName            bool
}

func printPlanPurchase(w io.Writer, format cmdutil.OutputFormat, o model.Offering, res source.PurchaseResult) error {
	b := res.Block
	if format == "json" {
		return printers.JSON(w, PlanPurchaseJSON{TrainingPlanArn: b.ARN, TrainingPlan: printers.ToPlanJSON(b), TrainingPlanOfferingId: o.ID,
			GpublockRequestId: res.RequestID, FoundByName: res.Recovered})
	}
	rows := [][2]string{
		{"Plan", b.ReservationID},
		{"ARN", b.ARN},
		{"Status", model.PlanStatus(b.State)},
		{"Region", b.Region},
		{"For", strings.Join(b.Targets, ", ")},
		{"Start", printers.BothTimes(o.Start)},
		{"End", printers.BothTimes(o.End)},
		{"Upfront fee", model.ExactFee(o.Fee, o.Currency)},
		{"Request id", res.RequestID + " (the plan's name)"},
	}
	if res.Recovered {
		rows = append(rows, [2]string{"Confirmed", "found by its name after the reply was lost"})
	}
	if err := printers.Rows(w, rows); err != nil {
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
