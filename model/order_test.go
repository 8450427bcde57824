package model

import (
	"testing"
	"time"
)

func orderOffering(id, typ string, count, days int, fee string, start time.Time) Offering {
	return Offering{Source: SourceCapacityBlock, ID: id, Region: "us-east-1", InstanceType: typ, Count: count,
		DurationHours: days * 24, Start: start, End: start.Add(time.Duration(days) * 24 * time.Hour), Fee: MustMoney(fee)}
}

func TestCeilingPerAcceleratorHourIsExactOnTheUsableHours(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	// 2 × p5 (16 accelerators) for 2 days: 2850 usable minutes each, 45600 accelerator-minutes.
	o := orderOffering("cbr-a", "p5.48xlarge", 2, 2, "3040.00", start)
	if got := o.UsableAcceleratorMinutes(); got != 16*(48*60-30) {
		t.Fatalf("usable accelerator-minutes %d", got)
	}
	// 3040 × 60 / 45600 = 4.00 exactly: a ceiling of 4 allows it, 3.999999 does not.
	if !(Ceiling{PerAcceleratorHour, MustMoney("4")}).Allows(o) {
		t.Error("a ceiling equal to the usable rate refused it")
	}
	if (Ceiling{PerAcceleratorHour, MustMoney("3.999999")}).Allows(o) {
		t.Error("a ceiling a micro-dollar under the usable rate allowed it")
	}
	// The same fee is 3.958/h over the whole block: a ceiling between the two readings refuses.
	if (Ceiling{PerAcceleratorHour, MustMoney("3.99")}).Allows(o) {
		t.Error("the ceiling was read against the whole block's hours, not the usable ones")
	}
	if !(Ceiling{PerInstanceHour, MustMoney("32")}).Allows(o) || (Ceiling{PerInstanceHour, MustMoney("31.99")}).Allows(o) {
		t.Error("per instance-hour: 32 must allow and 31.99 refuse")
	}
	if !(Ceiling{TotalFee, MustMoney("3040")}).Allows(o) || (Ceiling{TotalFee, MustMoney("3039.99")}).Allows(o) {
		t.Error("total fee: 3040 must allow and 3039.99 refuse")
	}
}

func TestPickForOrderRanksByUsableRateThenStart(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	cheapLate := orderOffering("cbr-late", "p5.48xlarge", 2, 4, "6000", t0.Add(48*time.Hour))
	cheapEarly := orderOffering("cbr-early", "p5en.48xlarge", 2, 4, "6000", t0)
	short := orderOffering("cbr-short", "p5.48xlarge", 2, 2, "2000", t0)
	// 2 days for 2000 is 2000×60/45600 = 2.63/h; 4 days for 6000 is 6000×60/(16×5730) = 3.93/h.
	p := PickForOrder([]Offering{cheapLate, short, cheapEarly}, Ceiling{PerAcceleratorHour, MustMoney("5")}, nil)
	if !p.Within || p.Buy.ID != "cbr-short" {
		t.Fatalf("picked %+v, want the lowest usable rate cbr-short", p)
	}
	p = PickForOrder([]Offering{cheapLate, cheapEarly}, Ceiling{PerAcceleratorHour, MustMoney("5")}, nil)
	if p.Buy.ID != "cbr-early" {
		t.Fatalf("picked %s, want the earlier start of two equal rates", p.Buy.ID)
	}
	p = PickForOrder([]Offering{cheapLate, short}, Ceiling{PerAcceleratorHour, MustMoney("2")}, nil)
	if p.Within || p.Best.ID != "cbr-short" || p.Why == "" {
		t.Fatalf("%+v: want nothing within a ceiling of 2, the best seen named, and why", p)
	}
	capped := MustMoney("1999.99")
	p = PickForOrder([]Offering{short}, Ceiling{PerAcceleratorHour, MustMoney("5")}, &capped)
	if p.Within {
		t.Fatal("bought over the order's cap")
	}
}

func TestWorstCaseIsTheCeilingOnTheLargestBlock(t *testing.T) {
	q := Query{InstanceTypes: []string{"p5.48xlarge", "p5en.48xlarge"}, Count: 2, Durations: DurationRange{MinDays: 2, MaxDays: 4}}
	// 16 accelerators × (96h − 30m) usable × $4 = 16 × 95.5 × 4 = 6112.
	if got := (Ceiling{PerAcceleratorHour, MustMoney("4")}).WorstCase(q, nil); got.Cmp(MustMoney("6112")) != 0 {
		t.Fatalf("worst case %s, want 6112.00", got)
	}
	capped := MustMoney("5000")
	if got := (Ceiling{PerAcceleratorHour, MustMoney("4")}).WorstCase(q, &capped); got.Cmp(capped) != 0 {
		t.Fatalf("worst case %s, want the cap 5000", got)
	}
	if got := (Ceiling{TotalFee, MustMoney("7000")}).WorstCase(q, nil); got.Cmp(MustMoney("7000")) != 0 {
		t.Fatalf("worst case %s, want the fee ceiling", got)
	}
}
