package ec2sim

import (
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Near-term blocks end at the 11:30 UTC boundary that brings their length closest to the
// one asked, and the one on the other side of it is offered too: never the shorter one
// alone because it is cheaper.
func TestNearTermLengthsAreClosestToTheAskedOne(t *testing.T) {
	s, base := newTestServer(t, Options{Seed: 1})
	c := ec2Client(base, "us-east-1")
	var under, over, pairs int
	for _, hours := range []int32{24, 48, 120} {
		asked := time.Duration(hours) * time.Hour
		for h := 0; h < 24; h++ {
			now := time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC)
			s.SetTime(now)
			in := p5Search(2, hours)
			in.StartDateRange, in.EndDateRange = aws.Time(now), aws.Time(now.Add(14*24*time.Hour))
			out, err := c.DescribeCapacityBlockOfferings(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			var ends []time.Time
			for _, o := range out.CapacityBlockOfferings {
				start, end := aws.ToTime(o.StartDate).UTC(), aws.ToTime(o.EndDate).UTC()
				d := end.Sub(start)
				fields := time.Duration(aws.ToInt32(o.CapacityBlockDurationHours))*time.Hour + time.Duration(aws.ToInt32(o.CapacityBlockDurationMinutes))*time.Minute
				if d != fields {
					t.Fatalf("%s: duration fields %v, dates %v", now, fields, d)
				}
				if aws.ToInt32(o.CapacityBlockDurationMinutes) == 0 && d%(24*time.Hour) == 0 {
					continue // an ordinary block
				}
				if start.Before(now) || start.After(now.Add(time.Hour)) || end.Format("15:04") != "11:30" {
					t.Fatalf("%s: near-term offering %s..%s", now, start, end)
				}
				wantUnder := model.NextBoundary(start.Add(asked)).AddDate(0, 0, -1)
				switch {
				case end.Equal(wantUnder):
					under++
				case end.Equal(wantUnder.AddDate(0, 0, 1)):
					over++
				default:
					t.Fatalf("%s, %dh asked: near-term %s..%s (%v) does not end at a boundary next to %s", now, hours, start, end, d, start.Add(asked))
				}
				for _, e := range ends {
					if e.Equal(end) {
						t.Fatalf("%s: two near-term offerings end at %s; want one just under and one just over", now, end)
					}
				}
				if len(ends) == 1 {
					pairs++
					if nearness(start, ends[0], asked) > nearness(start, end, asked) {
						t.Errorf("%s, %dh asked: %v listed before the closer %v", now, hours, ends[0].Sub(start), d)
					}
				}
				ends = append(ends, end)
			}
		}
	}
	if under == 0 || over == 0 || pairs == 0 {
		t.Errorf("over three days of hours: %d near-term offerings under the asked length, %d over, %d pairs; want some of each", under, over, pairs)
	}
}

func TestNearTermEnds(t *testing.T) {
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	for _, tc := range []struct {
		start string
		hours int
		want  []string
	}{
		{"2026-12-01T08:45:00Z", 48, []string{"2026-12-03T11:30:00Z", "2026-12-02T11:30:00Z"}}, // 50h45m is 2h45m over; 26h45m is 21h15m under
		{"2026-12-01T21:35:00Z", 48, []string{"2026-12-03T11:30:00Z", "2026-12-04T11:30:00Z"}}, // 37h55m is closer than 61h55m
		{"2026-12-01T11:35:00Z", 24, []string{"2026-12-02T11:30:00Z", "2026-12-03T11:30:00Z"}}, // 23h55m
		{"2026-12-01T11:30:00Z", 48, nil}, // whole days: an ordinary block
	} {
		got := nearTermEnds(at(tc.start), time.Duration(tc.hours)*time.Hour)
		if len(got) != len(tc.want) {
			t.Errorf("%s + %dh: %v, want %v", tc.start, tc.hours, got, tc.want)
			continue
		}
		for i := range got {
			if !got[i].Equal(at(tc.want[i])) {
				t.Errorf("%s + %dh: %v, want %v", tc.start, tc.hours, got, tc.want)
			}
		}
	}
}

// The market's base rates are the pricing catalog's published Capacity Block rates, and its
// fees stay within the demand band around them.
func TestMarketRatesComeFromThePricingCatalog(t *testing.T) {
	cat := pricing.Embedded()
	for _, typ := range model.Catalog() {
		for _, r := range typ.Regions {
			row, ok := cat.CapacityBlockRate(typ.Name, r)
			got, has := publishedRate(typ.Name, r)
			if !ok || !has || got != row.Hourly {
				t.Errorf("%s in %s: market rate %v (%v), catalog %v (%v)", typ.Name, r, got, has, row.Hourly, ok)
			}
		}
	}
	_, base := newTestServer(t, Options{})
	rate, _ := cat.CapacityBlockRate("p5.48xlarge", "us-east-1")
	for _, o := range mustSearch(t, ec2Client(base, "us-east-1"), p5Search(1, 24)) {
		fee := model.MustMoney(aws.ToString(o.UpfrontFee))
		minutes := int64(aws.ToTime(o.EndDate).Sub(aws.ToTime(o.StartDate)) / time.Minute)
		lo, hi := rate.Hourly.MulRat(7000*minutes, 10000*60), rate.Hourly.MulRat(16000*minutes, 10000*60)
		if fee.Cmp(lo.Sub(model.MustMoney("0.01"))) < 0 || fee.Cmp(hi.Add(model.MustMoney("0.01"))) > 0 {
			t.Errorf("fee %s for %d minutes outside %s..%s (rate %s)", fee, minutes, lo, hi, rate.Hourly)
		}
	}
}

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

// With a price drop (the demo's), the market offers the same blocks as without one until the
// first step, every one of them cheaper after each step, and no cheaper after the last.
func TestPriceDropMakesEveryOfferingCheaperStepByStep(t *testing.T) {
	mk := func(drop *PriceDrop) *Server {
		s, err := New(Options{Seed: 1, Start: testStart, Speed: 1e-9, PriceDrop: drop})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	drop := simcore.DemoPriceDrop
	plain, dropping := mk(nil), mk(&drop)
	q := search{typ: "p5.48xlarge", count: 2, units: 2, instType: "p5.48xlarge", duration: 3 * 24 * time.Hour,
		from: testStart, to: testStart.Add(21 * 24 * time.Hour)}
	fees := func(s *Server, now time.Time) map[string]int64 {
		out := map[string]int64{}
		for _, o := range s.offerings(s.region("us-east-1"), "us-east-1", q, now) {
			out[o.AZ+" "+o.Start.String()] = o.Fee.Micros()
		}
		if len(out) == 0 {
			t.Fatalf("no offerings at %s", now)
		}
		return out
	}
	// The demo's drop waits to be asked: until then the market is the one without a drop.
	if got, want := fees(dropping, testStart.Add(5*drop.Every)), fees(plain, testStart.Add(5*drop.Every)); !equalFees(got, want) {
		t.Fatalf("a drop not yet started moved the market: %v, want %v", got, want)
	}
	if !dropping.core.StartPriceDrop() || plain.core.StartPriceDrop() {
		t.Fatal("StartPriceDrop: want true with a drop and false without")
	}
	now := testStart.Add(drop.Every - time.Second)
	base := fees(plain, now)
	if got := fees(dropping, now); !equalFees(got, base) {
		t.Fatalf("before the first step: %v, want the market without a drop %v", got, base)
	}
	prev := base
	for step := 1; step <= 3; step++ {
		now := testStart.Add(time.Duration(step) * drop.Every)
		got, want := fees(dropping, now), fees(plain, now)
		for k, fee := range got {
			if w, ok := want[k]; !ok || fee >= w || fee >= prev[k] {
				t.Fatalf("step %d: %s costs %d, without the drop %d (%v), a step before %d", step, k, fee, w, ok, prev[k])
			}
		}
		prev = got
	}
	last := testStart.Add(time.Duration(drop.Steps) * drop.Every)
	if a, b := dropping.core.PriceDrop(last), dropping.core.PriceDrop(last.Add(24*time.Hour)); a != drop.Step*drop.Steps || b != a {
		t.Fatalf("the drop at its last step is %d bp, a day later %d bp; want %d both", a, b, drop.Step*drop.Steps)
	}
	if _, err := New(Options{Seed: 1, PriceDrop: &PriceDrop{Every: time.Minute, Step: 1000, Steps: 6}}); err == nil {
		t.Error("a drop of 60% of the rate was accepted")
	}
}

func equalFees(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
