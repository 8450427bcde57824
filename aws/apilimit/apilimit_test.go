package apilimit

import (
	"testing"
	"time"
)

func TestBucketBurstThenRefill(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b := NewBucket(Limit{Burst: 10, Rate: 0.15}, t0)
	for i := 0; i < 10; i++ {
		if !b.Take(t0) {
			t.Fatalf("token %d of the burst refused", i+1)
		}
	}
	if b.Take(t0) {
		t.Fatal("an 11th token at once")
	}
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	if b.Take(at(6.6)) {
		t.Error("a token before 1/0.15 s")
	}
	if !b.Take(at(6.7)) || b.Take(at(6.7)) {
		t.Error("want exactly one token after 6.7 s")
	}
	if got := b.Tokens(at(1e6)); got != 10 {
		t.Errorf("after a long pause %v tokens, want the burst of 10", got)
	}
}

func TestEC2TableCategories(t *testing.T) {
	tab := EC2()
	for _, tc := range []struct {
		action     string
		unfiltered bool
		want       Limit
	}{
		{"DescribeCapacityBlockOfferings", false, Limit{10, 0.15}},
		{"PurchaseCapacityBlock", false, Limit{10, 0.15}},
		{"DescribeCapacityReservations", false, Limit{100, 20}},
		{"DescribeInstances", true, Limit{50, 10}},
		{"DescribeInstances", false, Limit{100, 20}},
		{"RunInstances", false, Limit{5, 2}},
		{"CreateCapacityReservation", false, Limit{50, 5}},
	} {
		if got := tab.For(tc.action, tc.unfiltered); got != tc.want {
			t.Errorf("%s (unfiltered %v): %v, want %v", tc.action, tc.unfiltered, got, tc.want)
		}
	}
}

func TestTableFormatParseAndScale(t *testing.T) {
	tab := EC2().Scaled(10)
	back, err := Parse(tab.Format())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"DescribeCapacityBlockOfferings", "RunInstances", "DescribeSubnets", "TerminateInstances"} {
		if got, want := back.For(a, false), tab.For(a, false); got != want {
			t.Errorf("%s: %v after a round trip, want %v", a, got, want)
		}
	}
	if got := tab.For("DescribeCapacityBlockOfferings", false); got != (Limit{10, 1.5}) {
		t.Errorf("scaled ×10: %v, want 10/1.5", got)
	}
	for _, bad := range []string{"", "DescribeX 0 1\n*non-mutating 1 1\n*unfiltered 1 1\n*mutating 1 1", "*non-mutating 1 1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestBound(t *testing.T) {
	l := Limit{Burst: 10, Rate: 2}
	rtt := 300 * time.Millisecond
	if got := l.Bound(6, rtt); got != rtt {
		t.Errorf("6 calls within the burst: %v, want one round trip", got)
	}
	if got := l.Bound(30, rtt); got != 10*time.Second+rtt {
		t.Errorf("30 calls: %v, want 20 refills at 2/s plus a round trip", got)
	}
}
