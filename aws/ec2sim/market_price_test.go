package ec2sim

import (
	"sort"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// marketRatios are the offerings' fees over the published rate × hours × units, for every
// region and type of a demo market at several moments: what a person scrolling offerings
// compares with the published rate.
func marketRatios(t *testing.T) []float64 {
	t.Helper()
	s, err := New(Options{Seed: 1, Start: testStart})
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, now := range []time.Time{testStart, testStart.Add(31 * time.Hour), testStart.Add(100 * time.Hour)} {
		for _, typ := range model.Catalog() {
			for _, region := range typ.Regions {
				rate, ok := publishedRate(typ.Name, region)
				if !ok {
					continue
				}
				for _, days := range []int{1, 2, 3, 5, 7, 14, 28} {
					q := search{typ: typ.Name, count: 1, units: 1, instType: typ.Name, duration: time.Duration(days) * 24 * time.Hour,
						from: now, to: now.Add(model.MaxLeadTime)}
					for _, o := range s.offerings(s.region(region), region, q, now) {
						hours := o.End.Sub(o.Start).Hours()
						// a ratio for a statistic, not money: the fees themselves stay exact
						out = append(out, float64(o.Fee.Micros())/(float64(rate.Micros())*hours))
					}
				}
			}
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d offerings in the market sample", len(out))
	}
	sort.Float64s(out)
	return out
}

// The market is centred on the published Capacity Block rates: the median offering is
// within 3% of its rate, with premiums and discounts around it.
func TestMarketCentredOnPublishedRates(t *testing.T) {
	r := marketRatios(t)
	median := r[len(r)/2]
	below, above := 0, 0
	for _, x := range r {
		switch {
		case x < 0.97:
			below++
		case x > 1.03:
			above++
		}
	}
	t.Logf("%d offerings: median %.3f, %d%% below 0.97, %d%% above 1.03, range %.3f–%.3f",
		len(r), median, 100*below/len(r), 100*above/len(r), r[0], r[len(r)-1])
	if median < 0.97 || median > 1.03 {
		t.Errorf("median offering at %.3f × the published rate, want within 3%%", median)
	}
	if below*10 < len(r) || above*10 < len(r) {
		t.Errorf("%d below and %d above of %d: want at least a tenth each side", below, above, len(r))
	}
}

// p5.48xlarge in us-east-1 is mostly cheaper than on-demand, as the published rate is.
func TestMarketP5MostlyUnderOnDemand(t *testing.T) {
	od, ok := pricing.Embedded().OnDemand("p5.48xlarge", "us-east-1")
	rate, ok2 := publishedRate("p5.48xlarge", "us-east-1")
	if !ok || !od.HasPrice() || !ok2 {
		t.Fatal("no on-demand or published rate for p5.48xlarge in us-east-1")
	}
	limit := float64(od.Hourly.Micros()) / float64(rate.Micros())
	r := marketRatios(t)
	under := sort.SearchFloat64s(r, limit)
	if under*2 < len(r) {
		t.Errorf("%d of %d offerings under on-demand (%.2f × the published rate)", under, len(r), limit)
	}
}
