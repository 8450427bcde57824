package purchase

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// planFlags is a training plan search with the default window: from "now", as late as a
// plan can end.
var planFlags = []string{"--source", "training-plans", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "2", "--duration", "3d"}

func listPlans(t *testing.T, url string) []printers.OfferingJSON {
	t.Helper()
	return cli.Offerings(t, url, planFlags...)
}

// A plan listed with the default window and bought a few minutes later with the same flags
// is bought: its id holds the window of the search that listed it, which is asked again.
func TestPlanListedMinutesAgoIsBoughtByItsID(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	off := listPlans(t, cs.URL)[0]
	cs.Emulator.Advance(3 * time.Minute)
	code, out, errs := cli.Run(append(append([]string{"purchase", off.TrainingPlanOfferingId, "--endpoint-url", cs.URL}, planFlags...), "--yes", "-o", "json")...)
	if code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	var res PlanPurchaseJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.TrainingPlanOfferingId != off.TrainingPlanOfferingId {
		t.Fatalf("bought %+v (%v), want offering %s", res, err, off.TrainingPlanOfferingId)
	}
	if !cmdtest.Says(errs, "listed by a search of") || !cmdtest.Says(errs, "Upfront fee: "+model.ExactFee(mustFee(t, off.UpfrontFee), "USD")) {
		t.Fatalf("the confirmation does not say how the offering was found, or with which fee:\n%s", errs)
	}
}

// An id that no search listed (or listed on another backend) is still refused, and the
// refusal says how to find it.
func TestPlanNeverListedIsNotBought(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	listPlans(t, cs.URL)
	id := "tpo-" + strings.Repeat("ab", 32)
	code, _, errs := cli.Run(append(append([]string{"purchase", id, "--endpoint-url", cs.URL}, planFlags...), "--yes")...)
	if code != 1 || !strings.Contains(errs, "is not among") || !strings.Contains(errs, "nothing was bought") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if plans := listedPlans(t, cs.URL); len(plans) != 0 {
		t.Fatalf("%d plans bought", len(plans))
	}
}

func listedPlans(t *testing.T, url string) []printers.PlanJSON {
	t.Helper()
	return cmdtest.RunJSON[[]printers.PlanJSON](t, cli, "blocks", "--endpoint-url", url, "--region", "us-east-1", "--source", "training-plans", "-o", "json")
}

func mustFee(t *testing.T, s string) model.Money {
	t.Helper()
	m, err := model.ParseMoney(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// An offering found by its listing's window whose fee rose since is not bought without a
// person confirming the fee it has now; a fee that held or fell is.
func TestFeeRiseSinceListedNeedsAConfirmation(t *testing.T) {
	l := listing{offering: model.Offering{ID: "tpo-1", Fee: model.MustMoney("1000.00"), Currency: "USD"}}
	now := l.offering
	for _, c := range []struct {
		fee     string
		yes, ok bool
	}{{"1000.00", true, true}, {"999.99", true, true}, {"1000.01", true, false}, {"1000.01", false, true}} {
		now.Fee = model.MustMoney(c.fee)
		err := feeSinceListed(l, now, c.yes)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "rose from $1,000.00")) {
			t.Errorf("fee %s, --yes %v: %v", c.fee, c.yes, err)
		}
	}
}

// A Capacity Block listed with the default window and bought minutes later with the same
// flags is bought: its id does not hold the window, and the window from the later "now"
// still holds it.
func TestBlockListedMinutesAgoIsBoughtByItsID(t *testing.T) {
	cs := cmdtest.StartSim(t)
	flags := []string{"--region", "us-east-1", "--type", "p5.48xlarge", "--count", "2", "--duration", "2d"}
	rows := cli.Offerings(t, cs.URL, flags...)
	var off printers.OfferingJSON
	for _, r := range rows {
		if strings.HasSuffix(r.StartDate, "T11:30:00Z") {
			off = r
			break
		}
	}
	cs.Emulator.Advance(3 * time.Minute)
	code, out, errs := cli.Run(append(append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL}, flags...), "--yes", "-o", "json")...)
	var res PurchaseJSON
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.CapacityBlockOfferingId != off.CapacityBlockOfferingId || res.UpfrontFee != off.UpfrontFee {
		t.Fatalf("purchase: exit %d, bought %+v\n%s", code, res, errs)
	}
}

// A listing that kept nothing (--no-cache) cannot be asked again: the purchase is refused
// and says how to find the offering with the same window.
func TestPlanListedWithoutTheCacheIsNotBought(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	rows := cli.Offerings(t, cs.URL, append([]string{"--no-cache"}, planFlags...)...)
	cs.Emulator.Advance(3 * time.Minute)
	code, _, errs := cli.Run(append(append([]string{"purchase", rows[0].TrainingPlanOfferingId, "--endpoint-url", cs.URL}, planFlags...), "--yes")...)
	if code != 1 || !strings.Contains(errs, "is not among") || !cmdtest.Says(errs, "not with --no-cache") || !cmdtest.Says(errs, "give --from and --to as times") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if plans := listedPlans(t, cs.URL); len(plans) != 0 {
		t.Fatalf("%d plans bought", len(plans))
	}
}

// The listing's window is asked for the listing's own type and length only: one call, not
// a sweep of the flags' range.
func TestListingAsksItsOwnTypeAndLength(t *testing.T) {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	l := listing{start: start, end: start.AddDate(0, 2, 0), typ: "ml.p5.48xlarge", days: 3}
	q := model.Query{InstanceTypes: []string{"p5e.48xlarge", "p5.48xlarge"}, Durations: model.DurationRange{MinDays: 2, MaxDays: 5},
		Start: start.Add(3 * time.Minute), End: l.end.Add(3 * time.Minute)}
	aq, ok := l.again(q)
	if !ok || !aq.Start.Equal(l.start) || !aq.End.Equal(l.end) || aq.Durations != (model.DurationRange{MinDays: 3, MaxDays: 3}) ||
		len(aq.InstanceTypes) != 1 || aq.InstanceTypes[0] != "p5.48xlarge" {
		t.Fatalf("asked %+v (%v)", aq, ok)
	}
	if _, ok := l.again(aq); ok {
		t.Fatal("the listing's own window was asked again")
	}
	// Flags that do not hold the listing's type or length are asked as they are.
	other := model.Query{InstanceTypes: []string{"p5e.48xlarge"}, Durations: model.DurationRange{MinDays: 7, MaxDays: 7}, Start: q.Start, End: q.End}
	if aq, _ := l.again(other); aq.InstanceTypes[0] != "p5e.48xlarge" || aq.Durations.MinDays != 7 {
		t.Fatalf("asked %+v", aq)
	}
}

// A plan listed by a sweep of lengths is bought minutes later with the same flags.
func TestPlanListedBySweepIsBought(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	flags := []string{"--source", "training-plans", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "2", "--duration", "2d-5d"}
	rows := cli.Offerings(t, cs.URL, flags...)
	off := rows[len(rows)-1]
	cs.Emulator.Advance(3 * time.Minute)
	code, out, errs := cli.Run(append(append([]string{"purchase", off.TrainingPlanOfferingId, "--endpoint-url", cs.URL}, flags...), "--yes", "-o", "json")...)
	var res PlanPurchaseJSON
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.TrainingPlanOfferingId != off.TrainingPlanOfferingId {
		t.Fatalf("purchase: exit %d, %+v\n%s", code, res, errs)
	}
}
