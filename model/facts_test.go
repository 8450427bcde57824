package model

import (
	"strings"
	"testing"
	"time"
)

var factsLoc = time.FixedZone("PST", -8*3600)

func factsOffering() Offering {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return Offering{Source: SourceCapacityBlock, ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.Add(48 * time.Hour), DurationHours: 48,
		Fee: MustMoney("6211.123456"), Currency: "USD"}
}

// A block's purchase states who pays, where, what, when in both zones, the exact fee and
// what cannot be undone, in that order.
func TestPurchaseFactsSayEverythingThatIsBought(t *testing.T) {
	o := factsOffering()
	f := PurchaseFacts(o, "123456789012", BreakEven{Percent: 119, OnDemandHourly: MustMoney("55.04")}, factsLoc)
	var labels []string
	for _, l := range f.Lines {
		labels = append(labels, l.Label)
	}
	if got := strings.Join(labels, "|"); got != "Account|Region · zone|Capacity|Start|End|Upfront fee|Rate|Break-even|Offering" {
		t.Errorf("labels %s", got)
	}
	want := map[string]string{
		"Account":       "123456789012",
		"Region · zone": "us-east-1 · us-east-1a",
		"Capacity":      "p5.48xlarge × 2 for 2d (48 hours)",
		"Start":         "2026-12-03 11:30 UTC · 2026-12-03 03:30 PST",
		"End":           "2026-12-05 11:30 UTC · 2026-12-05 03:30 PST",
		"Upfront fee":   "$6,211.12 USD (exactly $6211.123456), total for the whole block",
		"Break-even":    "119% utilization: never cheaper than on-demand at $55.040/h",
		"Offering":      o.ID,
	}
	for label, v := range want {
		if got := f.Value(label); got != v {
			t.Errorf("%s = %q, want %q", label, got, v)
		}
	}
	// The rates are the fee's, to the tenth of a cent: 6211.123456 / (2 × 48) and / (16 × 48).
	if got := f.Value("Rate"); got != "$64.699 per instance-hour, $8.087 per accelerator-hour" {
		t.Errorf("Rate = %q", got)
	}
	if f.Final != Irrevocable || !strings.Contains(f.Final, "cannot be cancelled") {
		t.Errorf("final %q", f.Final)
	}
	if got := PurchaseFacts(o, "", BreakEven{NoOnDemand: true, Reason: "no on-demand price for x"}, nil); got.Value("Account") != "unknown" ||
		got.Value("Break-even") != "none: no on-demand price for x" || got.Value("Start") != "2026-12-03 11:30 UTC" {
		t.Errorf("without account, price or zone: %+v", got.Lines)
	}
}

// An UltraServer block counts UltraServers, names its members and rates per UltraServer-hour.
func TestPurchaseFactsOfAnUltraServer(t *testing.T) {
	ty := anUltraServer(t)
	o := factsOffering()
	o.InstanceType, o.UltraServerType, o.UltraServerCount, o.Count = ty.Name, ty.Name, 1, 1
	f := PurchaseFacts(o, "1", BreakEven{}, nil)
	if got := f.Value("Capacity"); !strings.Contains(got, "× 1 UltraServer (") || !strings.Contains(got, ty.MemberType) {
		t.Errorf("Capacity = %q", got)
	}
	if got := f.Value("Rate"); !strings.Contains(got, "per UltraServer-hour") {
		t.Errorf("Rate = %q", got)
	}
}

// A plan's purchase lists each part and says SageMaker's irrevocable words; it has no rate
// row (SageMaker quotes none) and its break-even is against SageMaker's own price.
func TestPlanFactsListEveryPart(t *testing.T) {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	o := Offering{Source: SourceTrainingPlan, ID: "tpo-1", Region: "eu-north-1", InstanceType: "ml.p5.48xlarge", Count: 1,
		Start: start, End: start.Add(96 * time.Hour), Fee: MustMoney("2005.87"), Currency: "USD",
		Parts: []Part{
			{AvailabilityZone: "eu-north-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start, End: start.Add(24 * time.Hour), Hours: 24},
			{AvailabilityZone: "eu-north-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start.Add(72 * time.Hour), End: start.Add(96 * time.Hour), Hours: 24},
		}}
	f := OfferingFacts(o, "123456789012", BreakEven{NoOnDemand: true}, factsLoc)
	wantFacts(t, f, map[string]string{
		"Region":      "eu-north-1",
		"For":         "training job",
		"Capacity":    "ml.p5.48xlarge × 1, 48 hours reserved",
		"Part 1":      "eu-north-1a · ×1 · Dec 01 11:30 – Dec 02 11:30 UTC · 24h",
		"Part 2":      "eu-north-1a · ×1 · Dec 04 11:30 – Dec 05 11:30 UTC · 24h",
		"Upfront fee": "$2,005.87 USD, total for every part",
		"Break-even":  "no SageMaker on-demand price for ml.p5.48xlarge",
	})
	if f.Final != PlanIrrevocable {
		t.Errorf("final %q", f.Final)
	}
}

// An extension says the block, its end now and the new one with the termination time, the
// fee of the added time alone, and that it cannot be undone.
func TestExtensionFacts(t *testing.T) {
	end := time.Date(2026, 12, 5, 11, 30, 0, 0, time.UTC)
	b := Block{Source: SourceCapacityBlock, ReservationID: "cr-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, State: StateActive, Start: end.Add(-48 * time.Hour), End: end}
	off := ExtensionOffering{ID: "cbe-1", Start: end, End: end.Add(24 * time.Hour), DurationHours: 24, Fee: MustMoney("1000.005"), Currency: "USD"}
	f := ExtensionFacts(b, off, "123456789012", BreakEven{Reading: "cheaper than on-demand if you use at least 76% of the 24 hours (19 hours)",
		OnDemandHourly: MustMoney("55.04"), Source: "src", AsOf: "2026-08-26"}, nil)
	wantFacts(t, f, map[string]string{
		"Block":       "cr-1 (active) · p5.48xlarge × 2 · us-east-1a",
		"Ends now":    "2026-12-05 11:30 UTC",
		"Add":         "1d",
		"New end":     "2026-12-06 11:30 UTC · instances terminate from 2026-12-06 11:00 UTC",
		"Upfront fee": "$1,000.01 USD (exactly $1000.005), for the added time",
		"Break-even":  "the added hours are cheaper than on-demand if you use at least 76% of the 24 hours (19 hours) · on-demand $55.040/h (src 2026-08-26)",
		"Offering":    "cbe-1",
	})
	if f.Final != ExtensionIrrevocable {
		t.Errorf("final %q", f.Final)
	}
	// The target's lines open the facts, as the dialog shows them before a length is chosen.
	head := ExtensionTarget(b, "123456789012", nil)
	for i, l := range head {
		if f.Lines[i] != l {
			t.Errorf("line %d is %+v, the target's is %+v", i, f.Lines[i], l)
		}
	}
	b.Source = SourceTrainingPlan
	p := ExtensionFacts(b, off, "1", BreakEven{NoOnDemand: true}, nil)
	if p.Value("Plan") == "" || !strings.Contains(p.Value("New end"), "SageMaker stops the plan's jobs") || p.Final != PlanExtensionIrrevocable ||
		p.Value("Break-even") != NoSageMakerPrice("p5.48xlarge") {
		t.Errorf("a plan's extension: %+v %q", p.Lines, p.Final)
	}
}

// A launch says where the block is, what is free, its state and when its instances stop.
func TestLaunchFacts(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := Block{ReservationID: "cr-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 4, AvailableCount: 3, State: StateScheduled, Start: start, End: start.Add(24 * time.Hour)}
	f := LaunchFacts(b, "", "starts in 2h", factsLoc)
	wantFacts(t, f, map[string]string{
		"Account":  "unknown",
		"Block":    "cr-1 · us-east-1 · us-east-1a",
		"Capacity": "p5.48xlarge × 4, 4 free",
		"State":    "scheduled · starts in 2h",
		"End":      "2026-12-04 11:30 UTC · 2026-12-04 03:30 PST · instances terminate from 2026-12-04 11:00 UTC · 2026-12-04 03:00 PST",
	})
	if f.Final != "" {
		t.Errorf("a launch spends nothing, yet says %q", f.Final)
	}
	// AWS reports none available before the payment is taken; every slot is free at the start.
	b.State, b.AvailableCount = StatePaymentPending, 0
	if got := LaunchFacts(b, "", "", factsLoc).Value("Capacity"); got != "p5.48xlarge × 4, 4 free" {
		t.Errorf("payment-pending Capacity = %q", got)
	}
	b.State, b.AvailableCount = StateActive, 1
	if got := LaunchFacts(b, "", "", factsLoc).Value("Capacity"); got != "p5.48xlarge × 4, 1 free" {
		t.Errorf("active Capacity = %q", got)
	}
}

// anUltraServer is the catalog's first UltraServer type; the test fails, rather than stops
// testing, when the catalog has none.
func anUltraServer(t *testing.T) InstanceType {
	t.Helper()
	for _, ty := range Catalog() {
		if ty.UltraServer {
			return ty
		}
	}
	t.Fatal("the catalog has no UltraServer type to test with")
	return InstanceType{}
}

// wantFacts checks the facts' values by label.
func wantFacts(t *testing.T, f Facts, want map[string]string) {
	t.Helper()
	for label, v := range want {
		if got := f.Value(label); got != v {
			t.Errorf("%s = %q, want %q", label, got, v)
		}
	}
}
