package main

// Training plans, the second source: searched, bought, extended, listed beside Capacity
// Blocks, warned of near their end.

import (
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// planSearch is a training plan search every test of this file runs.
var planSearch = []string{"--source", "training-plans", "--region", "us-east-1,us-east-2,us-west-2", "--type", "p5.48xlarge",
	"--count", "2", "--duration", "2d-5d", "--from", "2026-12-01T08:00:00Z", "--to", "2027-01-20"}

func planOfferings(t *testing.T, url string, extra ...string) []printers.OfferingJSON {
	t.Helper()
	return runJSON[[]printers.OfferingJSON](t, append(append([]string{"offerings", "--endpoint-url", url, "-o", "json"}, planSearch...), extra...)...)
}

func TestOfferingsTrainingPlansJSON(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	rows := planOfferings(t, cs.URL)
	if len(rows) == 0 {
		t.Fatal("no training plan offering")
	}
	for _, r := range rows {
		if r.Source.Name() != "training-plans" || !strings.HasPrefix(r.TrainingPlanOfferingId, "tpo-") || r.CapacityBlockOfferingId != "" {
			t.Fatalf("row: %+v", r)
		}
		if !strings.HasPrefix(r.InstanceType, "ml.") || len(r.ReservedCapacityOfferings) == 0 || len(r.TargetResources) == 0 {
			t.Fatalf("row without the plan's fields: %+v", r)
		}
		var hours int64
		for _, p := range r.ReservedCapacityOfferings {
			hours += p.DurationHours
		}
		if hours != r.DurationHours {
			t.Fatalf("DurationHours %d is not the sum of the parts' %d", r.DurationHours, hours)
		}
		if r.OnDemandHourlyPrice != nil || !strings.Contains(r.NoOnDemandReason, "no SageMaker on-demand price") {
			t.Fatalf("break-even from EC2's price: %+v", r)
		}
	}
}

// planPurchaseArgs is the purchase of a plan offering listed by planSearch, in one region.
func planPurchaseArgs(url, id, region string, extra ...string) []string {
	args := []string{"purchase", id, "--endpoint-url", url}
	for i := 0; i < len(planSearch); i += 2 {
		if planSearch[i] == "--region" {
			args = append(args, "--region", region)
			continue
		}
		args = append(args, planSearch[i], planSearch[i+1])
	}
	return append(args, extra...)
}

// pickPlan is a plan offering of planSearch: a multi-part one when multi, else any.
func pickPlan(t *testing.T, url string, multi bool) printers.OfferingJSON {
	t.Helper()
	for _, r := range planOfferings(t, url) {
		if !multi || len(r.ReservedCapacityOfferings) > 1 {
			return r
		}
	}
	t.Fatalf("no training plan offering (multi-part: %v)", multi)
	return printers.OfferingJSON{}
}

// plansIn lists the account's plans in region with `gpublock blocks --source training-plans -o json`.
func plansIn(t *testing.T, url, region string) []printers.PlanJSON {
	t.Helper()
	return runJSON[[]printers.PlanJSON](t, "blocks", "--endpoint-url", url, "--region", region, "--source", "training-plans", "-o", "json")
}

func TestPurchaseMultiPartPlan(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, true, "buy\n")
	off := pickPlan(t, cs.URL, true)
	code, out, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "-o", "json")...)
	if code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	// The confirmation: account, region, target, each part, the total fee, no refund, no dry run.
	for _, want := range []string{"Account:", "Region:      " + off.Region, "For:         training job", "Part 1:", "Part 2:",
		"Upfront fee: $", "cannot be cancelled or modified", "Dry run:     there is no dry run for training plans", "Type buy"} {
		if !cmdtest.Says(errs, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, errs)
		}
	}
	if strings.Count(errs, "  Part ") != len(off.ReservedCapacityOfferings) {
		t.Fatalf("the confirmation does not list the %d parts:\n%s", len(off.ReservedCapacityOfferings), errs)
	}
	var res purchase.PlanPurchaseJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || !strings.HasPrefix(res.TrainingPlanArn, "arn:aws:sagemaker:"+off.Region+":") {
		t.Fatalf("purchase json: %v\n%s", err, out)
	}
	plans := plansIn(t, cs.URL, off.Region)
	if len(plans) != 1 || plans[0].TrainingPlanArn != res.TrainingPlanArn || plans[0].Source.Name() != "training-plans" {
		t.Fatalf("plans: %+v", plans)
	}
	p := plans[0]
	if len(p.ReservedCapacitySummaries) != len(off.ReservedCapacityOfferings) || p.DurationHours != off.DurationHours {
		t.Fatalf("the plan's parts or hours differ from the offering's: %+v vs %+v", p, off)
	}
	if len(p.HowToUse) != 1 || p.HowToUse[0].Field != "ResourceConfig.TrainingPlanArn" || !strings.Contains(p.HowToUse[0].Command, p.TrainingPlanArn) {
		t.Fatalf("how to use: %+v", p.HowToUse)
	}
	intents, outcomes := journalled(t, "CreateTrainingPlan", "bought", res.TrainingPlanArn)
	if intents != 1 || outcomes != 1 {
		t.Fatalf("journal: %d intents, %d outcomes", intents, outcomes)
	}
}

func TestPurchasePlanTableShowsHowToUse(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	code, out, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "--target", "training-job,endpoint")...)
	if code != 0 {
		// The offering was listed for training jobs only: a search for both is another one.
		if !strings.Contains(errs, "is not among") {
			t.Fatalf("purchase: exit %d\n%s", code, errs)
		}
		code, out, errs = cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes")...)
		if code != 0 {
			t.Fatalf("purchase: exit %d\n%s", code, errs)
		}
	}
	for _, want := range []string{"ARN:", "How to use it", "ResourceConfig.TrainingPlanArn", "aws sagemaker create-training-job --region " + off.Region} {
		if !strings.Contains(out, want) {
			t.Fatalf("receipt lacks %q:\n%s", want, out)
		}
	}
	// The journal names the purchase and the plan it bought, as it does a block's.
	plans := plansIn(t, cs.URL, off.Region)
	if len(plans) != 1 {
		t.Fatalf("%d plans, want 1", len(plans))
	}
	code, out, errs = cli.Run("journal", "--endpoint-url", cs.URL)
	if code != 0 || !strings.Contains(out, "plan purchase") || !strings.Contains(out, plans[0].TrainingPlanName) || strings.Contains(out, "arn:aws:sagemaker") {
		t.Errorf("journal: exit %d\n%s%s", code, out, errs)
	}
}

func TestPurchasePlanLostReplySettlesToOnePlan(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	cs.Emulator.SetFaults(ec2sim.Faults{LostReply: 1})
	code, out, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "-o", "json")...)
	cs.Emulator.SetFaults(ec2sim.Faults{})
	if code != 0 || !strings.Contains(errs, "found by its name: it is bought, once") {
		t.Fatalf("purchase after a lost reply: exit %d\n%s", code, errs)
	}
	var res purchase.PlanPurchaseJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.FoundByName {
		t.Fatalf("json: %v %s", err, out)
	}
	if plans := plansIn(t, cs.URL, off.Region); len(plans) != 1 || plans[0].TrainingPlanArn != res.TrainingPlanArn {
		t.Fatalf("%d plans after a lost reply: %+v", len(plans), plans)
	}
}

// dropJournalOutcomes removes the journal's outcome lines: what a crash between the call
// and its outcome line leaves.
func dropJournalOutcomes(t *testing.T) {
	t.Helper()
	n := 0
	for _, p := range cmdtest.StateFiles(t, "journal.jsonl") {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if !strings.Contains(l, `"phase":"outcome"`) {
				keep = append(keep, l)
			}
		}
		n += len(keep)
		if err := os.WriteFile(p, []byte(strings.Join(keep, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("no journal intent")
	}
}

func TestInterruptedPlanPurchaseRerunBuysNothingNew(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	args := planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes")
	if code, _, errs := cli.Run(args...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	dropJournalOutcomes(t)
	code, _, errs := cli.Run(args...)
	if code != 0 || !strings.Contains(errs, "settled an interrupted run: The training plan purchase") || !strings.Contains(errs, "Nothing new was bought") {
		t.Fatalf("re-run: exit %d\n%s", code, errs)
	}
	if plans := plansIn(t, cs.URL, off.Region); len(plans) != 1 {
		t.Fatalf("%d plans after the re-run", len(plans))
	}
}

func TestPlanPurchaseRefusals(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	before := cs.Calls.Load()
	code, _, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "--read-only")...)
	if code != 1 || !strings.Contains(errs, "nothing was sent to AWS") || cs.Calls.Load() != before {
		t.Fatalf("read-only: exit %d, %d calls\n%s", code, cs.Calls.Load()-before, errs)
	}
	code, _, errs = cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "--max-spend", "100")...)
	if code != 1 || !strings.Contains(errs, "above the spending cap") {
		t.Fatalf("cap: exit %d\n%s", code, errs)
	}
	if plans := plansIn(t, cs.URL, off.Region); len(plans) != 0 {
		t.Fatalf("%d plans bought by refusals", len(plans))
	}
	for _, j := range cmdtest.JournalLines(t) {
		if j.Action == "CreateTrainingPlan" {
			t.Fatalf("a refusal journalled a purchase: %+v", j)
		}
	}
}

func TestSourceAndTargetUsageBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	search := func(extra ...string) []string {
		return append([]string{"offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d"}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{search("--source", "spot"), "--source \"spot\": allowed capacity-blocks, training-plans or all"},
		{search("--source", "training-plans", "--target", "notebook"), "--target \"notebook\": allowed training-job, hyperpod-cluster, endpoint, studio-apps"},
		{search("--target", "endpoint"), "--target \"endpoint\" is for training plans"},
		{search("--source", "training-plans", "--count", "3"), "Training Plans reserve 1, 2, 4, 8, 16, 32 or 64 instances, not 3"},
		{search("--source", "training-plans", "--duration", "200d"), "Training Plans last 1 to 182 whole days, not 200"},
		{search("--source", "all", "--duration", "200d"), "no source sells this: EC2 Capacity Blocks not searched"},
		{search("--source", "all", "-o", "csv"), "-o csv has Capacity Blocks' columns only"},
		{search("--source", "training-plans", "--all-zones"), "--all-zones is for Capacity Blocks"},
		{search("--source", "training-plans", "--duration", "2x"), "training plans last 1 to 182 days"},
		{[]string{"purchase", "tpo-" + strings.Repeat("a", 64), "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "p5.48xlarge", "--duration", "2d", "--yes"}, "is a training plan offering; add --source training-plans"},
		{[]string{"purchase", "tpo-" + strings.Repeat("a", 64), "--source", "training-plans", "--dry-run", "--endpoint-url", cs.URL, "--region", "us-east-1"}, "there is no dry run for training plans"},
		{[]string{"purchase", "tpo-x", "--source", "all", "--endpoint-url", cs.URL, "--region", "us-east-1"}, "give the one source"},
		{[]string{"blocks", "--endpoint-url", cs.URL, "--source", "ec2-ish"}, "--source \"ec2-ish\""},
		{[]string{"blocks", "--endpoint-url", cs.URL, "--source", "all", "-o", "csv"}, "-o csv lists Capacity Blocks only"},
	} {
		code, out, errs := cli.Run(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Fatalf("bad usage made %d calls", n)
	}
}

func TestExtendPlanListAndBuy(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	if code, _, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes")...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	cs.Emulator.Advance(10 * time.Minute) // paid: Scheduled
	p := plansIn(t, cs.URL, off.Region)[0]
	if p.Status != "Scheduled" {
		t.Fatalf("plan %s after its payment", p.Status)
	}
	base := []string{"extend", p.TrainingPlanName, "--source", "training-plans", "--endpoint-url", cs.URL, "--region", off.Region}
	list := runJSON[[]extend.PlanExtensionJSON](t, append(base, "--list", "-o", "json")...)
	if len(list) == 0 {
		t.Fatal("no extension length offered")
	}
	for _, x := range list {
		if x.StartDate != p.EndTime || x.TrainingPlanArn != p.TrainingPlanArn || x.DurationHours%24 != 0 {
			t.Fatalf("extension %+v of a plan ending %s", x, p.EndTime)
		}
	}
	x := list[0]
	days := strconv.Itoa(x.DurationHours/24) + "d"

	code, _, errs := cli.Run(append(base, "--duration", days, "--yes", "--read-only")...)
	if code != 1 || !strings.Contains(errs, "nothing was sent to AWS") {
		t.Fatalf("read-only extend: exit %d\n%s", code, errs)
	}
	code, out, errs := cli.Run(append(base, "--duration", days, "--yes", "-o", "json")...)
	if code != 0 || !strings.Contains(errs, "cannot be cancelled or modified") || !strings.Contains(errs, "no dry run for training plans") {
		t.Fatalf("extend: exit %d\n%s", code, errs)
	}
	var got extend.PlanExtensionJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.EndDate != x.EndDate {
		t.Fatalf("extension json %v: %s", err, out)
	}
	// A crash before the outcome line: the re-run settles it and extends nothing new.
	dropJournalOutcomes(t)
	code, _, errs = cli.Run(append(base, "--duration", days, "--yes")...)
	if code != 0 || !strings.Contains(errs, "settled an interrupted run: The extension of training plan") || !strings.Contains(errs, "Nothing new was bought") {
		t.Fatalf("re-run of an interrupted extension: exit %d\n%s", code, errs)
	}
	extends, _ := journalled(t, "ExtendTrainingPlan", "", "")
	if extends != 1 {
		t.Fatalf("%d extension intents journalled", extends)
	}
	cs.Emulator.Advance(10 * time.Minute)
	if p2 := plansIn(t, cs.URL, off.Region)[0]; p2.EndTime != x.EndDate {
		t.Fatalf("the plan ends %s after its extension to %s was paid", p2.EndTime, x.EndDate)
	}
	// A bad length names the plans' rule, before any call.
	before := cs.Calls.Load()
	code, _, errs = cli.Run(append(base, "--duration", "15d", "--yes")...)
	if code != 2 || !strings.Contains(errs, "by whole weeks") || cs.Calls.Load() != before {
		t.Fatalf("15d: exit %d\n%s", code, errs)
	}
}

// --demo serves both sources, side by side in one table.
func TestOfferingsDemoBothSources(t *testing.T) {
	cmdtest.Env(t)
	code, out, errs := cli.Run("offerings", "--demo", "--source", "all", "--type", "p5.48xlarge", "--count", "2", "--duration", "2d-4d",
		"--region", "us-east-1,us-west-2", "--to", "+4w")
	if code != 0 || !strings.HasPrefix(out, "SOURCE ") {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, "\ncapacity-blocks ") || !strings.Contains(out, "\ntraining-plans ") {
		t.Fatalf("the demo does not show both sources:\n%s", out)
	}
}

// blocks --source all lists a Capacity Block and a training plan, each in its source's
// field names; the table lists the plan with its ARN and how to use it.
func TestBlocksListsBothSources(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	boughtOffering(t, cs)
	var plan printers.OfferingJSON
	for _, r := range planOfferings(t, cs.URL) {
		if r.Region == "us-east-1" {
			plan = r
			break
		}
	}
	if plan.TrainingPlanOfferingId == "" {
		t.Fatal("no training plan offering in us-east-1")
	}
	if code, _, errs := cli.Run(planPurchaseArgs(cs.URL, plan.TrainingPlanOfferingId, "us-east-1", "--yes")...); code != 0 {
		t.Fatalf("plan purchase: exit %d\n%s", code, errs)
	}
	rows := runJSON[[]map[string]any](t, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--source", "all", "-o", "json")
	var sources []string
	for _, r := range rows {
		sources = append(sources, r["Source"].(string))
		switch r["Source"] {
		case "capacity-blocks":
			if r["CapacityReservationId"] == nil {
				t.Errorf("block row %v", r)
			}
		case "training-plans":
			if arn, _ := r["TrainingPlanArn"].(string); !strings.HasPrefix(arn, "arn:aws:sagemaker:us-east-1:") || r["HowToUse"] == nil {
				t.Errorf("plan row %v", r)
			}
		}
	}
	if strings.Join(sources, ",") != "capacity-blocks,training-plans" {
		t.Fatalf("sources %v", sources)
	}
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--source", "all")
	if code != 0 || !strings.Contains(out, "TRAINING PLAN") || !strings.Contains(out, "ResourceConfig.TrainingPlanArn") || !strings.Contains(out, "RESERVATION") {
		t.Fatalf("table: exit %d\n%s\n%s", code, errs, out)
	}
	// The default lists Capacity Blocks only, as before.
	if rows := cli.Reservations(t, cs.URL); len(rows) != 1 {
		t.Fatalf("blocks without --source: %d rows", len(rows))
	}
}

// A training plan near its end is warned of as a block is: in the JSON and the table,
// by --warn-within's exit 3, and once to the webhook.
func TestBlocksWarnOfPlanNearItsEnd(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	res := runJSON[purchase.PlanPurchaseJSON](t, planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "-o", "json")...)
	name, end := res.TrainingPlan.TrainingPlanName, cmdtest.MustTime(t, res.TrainingPlan.EndTime)
	cs.Emulator.SetTime(end.Add(-35 * time.Minute))

	h := cmdtest.StartHook(t)
	list := []string{"blocks", "--endpoint-url", cs.URL, "--region", off.Region, "--source", "training-plans", "--warn-leads", "24h"}
	notifyArgs := append(append([]string{}, list...), "-o", "json", "--notify-url", h.URL+"/services/T0/B0/SECRETTOKEN")
	rows := runJSON[[]printers.PlanListJSON](t, notifyArgs...)
	if len(rows) != 1 {
		t.Fatalf("blocks json: %d rows, want the plan's: %+v", len(rows), rows)
	}
	if rows[0].Status != "Active" {
		t.Fatalf("the plan is %s 35 minutes before its end", rows[0].Status)
	}
	var kinds []string
	for _, w := range rows[0].Warnings {
		kinds = append(kinds, w.Kind)
		if w.Kind == "expiring" && (!strings.Contains(w.Text, name) || !strings.Contains(w.Text, "stops its jobs")) {
			t.Errorf("the plan's expiring warning %q", w.Text)
		}
	}
	if strings.Join(kinds, ",") != "expiring,cant-extend" {
		t.Fatalf("the plan's warnings %v, want expiring,cant-extend", kinds)
	}

	// Once per plan and warning: a second run sends nothing new.
	if code, _, errs := cli.Run(notifyArgs...); code != 0 || strings.Contains(errs, "SECRETTOKEN") {
		t.Fatalf("second run: exit %d\n%s", code, errs)
	}
	h.Mu.Lock()
	got := append([]string(nil), h.Kinds...)
	texts := append([]string(nil), h.Texts...)
	h.Mu.Unlock()
	sort.Strings(got)
	if strings.Join(got, ",") != "cant-extend,expiring" {
		t.Errorf("the webhook got %v, want cant-extend and expiring once each", got)
	}
	for _, text := range texts {
		if !strings.Contains(text, "training plan "+name) {
			t.Errorf("a notification without the plan: %q", text)
		}
	}

	code, out, errs := cli.Run(list...)
	if code != 0 || !strings.Contains(out, "WARNING") {
		t.Fatalf("table: exit %d\n%s\n%s", code, errs, out)
	}
	row := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, name) && strings.Contains(l, off.Region) {
			row = l
			break
		}
	}
	if !strings.Contains(row, "▲ EXPIRING") {
		t.Errorf("the plan's row has no warning: %q\n%s", row, out)
	}

	code, _, errs = cli.Run(append(append([]string{}, list...), "--warn-within", "45m")...)
	if code != blocks.ExitWarning || !strings.Contains(errs, "WARNING: training plan "+name) || !strings.Contains(errs, "jobs stop") {
		t.Errorf("--warn-within 45m: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := cli.Run(append(append([]string{}, list...), "--warn-within", "10m", "--warn-of", "end")...); code != 0 {
		t.Errorf("--warn-within 10m of a plan ending in 35m: exit %d, stderr %q", code, errs)
	}
}
