package main

import (
	"encoding/json"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// A training plan near its end is warned of as a block is: in the JSON and the table,
// by --warn-within's exit 3, and once to the webhook.
func TestBlocksWarnOfPlanNearItsEnd(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	off := pickPlan(t, cs.URL, false)
	code, out, errs := cli.Run(planPurchaseArgs(cs.URL, off.TrainingPlanOfferingId, off.Region, "--yes", "-o", "json")...)
	var res purchase.PlanPurchaseJSON
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("purchase: exit %d\n%s\n%s", code, errs, out)
	}
	name, end := res.TrainingPlan.TrainingPlanName, cmdtest.MustTime(t, res.TrainingPlan.EndTime)
	cs.Emulator.SetTime(end.Add(-35 * time.Minute))

	h := &cmdtest.Hook{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	list := []string{"blocks", "--endpoint-url", cs.URL, "--region", off.Region, "--source", "training-plans", "--warn-leads", "24h"}
	notifyArgs := append(append([]string{}, list...), "-o", "json", "--notify-url", srv.URL+"/services/T0/B0/SECRETTOKEN")
	code, out, errs = cli.Run(notifyArgs...)
	var rows []printers.PlanListJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 {
		t.Fatalf("blocks json: exit %d\n%s\n%s", code, errs, out)
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

	code, out, errs = cli.Run(list...)
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
