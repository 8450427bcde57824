package ec2sim

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

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
