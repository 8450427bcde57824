package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func segmentedOffering() Offering {
	start := time.Date(2026, 12, 10, 11, 30, 0, 0, time.UTC)
	return Offering{
		ID: "cb-seg", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", Count: 16,
		Start: start, End: start.Add(48 * time.Hour), DurationHours: 48, Fee: MustMoney("24000.000001"), Currency: "USD",
		Parts: []Part{
			{AvailabilityZone: "us-east-1a", AvailabilityZoneID: "use1-az1", InstanceType: "p5.48xlarge", Count: 8,
				Start: start, End: start.Add(48 * time.Hour), Hours: 48, Fee: MustMoney("12000.000001"), Currency: "USD"},
			{AvailabilityZone: "us-east-1b", AvailabilityZoneID: "use1-az2", InstanceType: "p5.48xlarge", Count: 8,
				Start: start, End: start.Add(48 * time.Hour), Hours: 48, Fee: MustMoney("12000"), Currency: "USD"},
		},
	}
}

func TestSegmentedRatesOverSegments(t *testing.T) {
	o := segmentedOffering()
	if !o.Segmented() || o.Reservations() != 2 {
		t.Fatalf("Segmented %v, Reservations %d; want true, 2", o.Segmented(), o.Reservations())
	}
	// 16 instances × 48 h = 768 instance-hours; 24000.000001 / 768 = 31.250000001…, to the micro-dollar.
	if got := o.InstanceMinutes(); got != 768*60 {
		t.Fatalf("InstanceMinutes = %d, want %d", got, 768*60)
	}
	if got := o.HourlyRate().String(); got != "31.25" {
		t.Fatalf("HourlyRate = %s, want 31.25", got)
	}
	// 8 GPUs each, 16 instances side by side: 128 accelerators held at once.
	if got := o.Accelerators(); got != 128 {
		t.Fatalf("Accelerators = %d, want 128", got)
	}
	if got := o.AcceleratorHourlyRate().String(); got != "3.90625" {
		t.Fatalf("AcceleratorHourlyRate = %s, want 3.90625", got)
	}
	// Each segment loses its own 30 minutes: 2 × 8 × (48 h − 30 min).
	if got := o.UsableInstanceMinutes(30); got != 2*8*(48*60-30) {
		t.Fatalf("UsableInstanceMinutes = %d", got)
	}
}

func TestConsecutiveSegmentsHoldTheLargest(t *testing.T) {
	o := segmentedOffering()
	o.Parts[1].Start, o.Parts[1].End = o.Parts[0].End, o.Parts[0].End.Add(24*time.Hour)
	o.Parts[1].Hours, o.Parts[1].Count, o.Parts[1].Minutes = 23, 4, 30
	if got := o.Accelerators(); got != 64 {
		t.Fatalf("Accelerators of consecutive segments = %d, want the larger, 64", got)
	}
	// 8 × 48 h + 4 × 23 h 30 min.
	if got, want := o.InstanceMinutes(), int64(8*48*60+4*(23*60+30)); got != want {
		t.Fatalf("InstanceMinutes = %d, want %d", got, want)
	}
}

func TestSegmentsFeeMustAgree(t *testing.T) {
	o := segmentedOffering()
	if p := o.SegmentsProblem(); p != "" {
		t.Fatalf("fees that agree to the micro-dollar refused: %s", p)
	}
	o.Parts[1].Fee = MustMoney("12000.000002")
	p := o.SegmentsProblem()
	if !strings.Contains(p, "24,000.000003") && !strings.Contains(p, "24000.000003") {
		t.Fatalf("a micro-dollar's disagreement not refused with the sum: %q", p)
	}
	o = segmentedOffering()
	o.Parts[0].Currency = "EUR"
	if o.SegmentsProblem() == "" {
		t.Fatal("a segment in another currency not refused")
	}
	plain := segmentedOffering()
	plain.Parts = nil
	plain.Fee = MustMoney("1")
	if plain.SegmentsProblem() != "" || plain.Segmented() || plain.Reservations() != 1 {
		t.Fatal("a plain offering is not plain")
	}
}

func TestPurchaseFactsListEverySegment(t *testing.T) {
	o := segmentedOffering()
	f := PurchaseFacts(o, "111122223333", BreakEven{NoOnDemand: true}, time.FixedZone("CET", 3600))
	if got := f.Value("Reservations"); !strings.HasPrefix(got, "2:") {
		t.Fatalf("Reservations = %q", got)
	}
	s2 := f.Value("Segment 2")
	for _, want := range []string{"us-east-1b (use1-az2)", "p5.48xlarge × 8", "2026-12-10 11:30 UTC", "2026-12-10 12:30 CET", "48 h", "$12,000.00 USD"} {
		if !strings.Contains(s2, want) {
			t.Errorf("Segment 2 %q lacks %q", s2, want)
		}
	}
	if got := f.Value("Region · zone"); got != "us-east-1 · us-east-1a+us-east-1b" {
		t.Errorf("Region · zone = %q", got)
	}
	if f.Value("Refused") != "" {
		t.Errorf("agreeing fees refused: %q", f.Value("Refused"))
	}
	o.Fee = MustMoney("1")
	if PurchaseFacts(o, "", BreakEven{NoOnDemand: true}, nil).Value("Refused") == "" {
		t.Error("the confirmation does not say a disagreeing fee is refused")
	}
}

func TestGroupOfAPurchase(t *testing.T) {
	tag := func(id string) map[string]string { return map[string]string{PurchaseTag: id} }
	bs := []Block{
		{ReservationID: "cr-b", Region: "us-east-1", AvailabilityZone: "us-east-1b", Tags: tag("gpb-1")},
		{ReservationID: "cr-x", Region: "us-east-1", AvailabilityZone: "us-east-1a", Tags: tag("gpb-2")},
		{ReservationID: "cr-a", Region: "us-east-1", AvailabilityZone: "us-east-1a", Tags: tag("gpb-1")},
		{ReservationID: "cr-o", Region: "us-east-1", AvailabilityZone: "us-east-1a"},
	}
	g := Group(bs, bs[0])
	if GroupIDs(g) != "cr-a,cr-b" {
		t.Fatalf("Group = %s, want cr-a,cr-b", GroupIDs(g))
	}
	if GroupMark(bs, bs[0]) != "2 of 2" || GroupMark(bs, bs[1]) != "" || GroupMark(bs, bs[3]) != "" {
		t.Fatalf("marks %q %q %q", GroupMark(bs, bs[0]), GroupMark(bs, bs[1]), GroupMark(bs, bs[3]))
	}
}

func TestSpreadLaunch(t *testing.T) {
	g := []Block{{ReservationID: "cr-a", State: StateActive, AvailableCount: 8}, {ReservationID: "cr-b", State: StateActive, AvailableCount: 2}}
	for _, c := range []struct {
		count int
		want  string
	}{{1, "[1 0]"}, {3, "[2 1]"}, {10, "[8 2]"}, {5, "[3 2]"}} {
		got, err := SpreadLaunch(g, c.count)
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("SpreadLaunch(%d) = %v, %v; want %s", c.count, got, err, c.want)
		}
	}
	if _, err := SpreadLaunch(g, 11); err == nil || !strings.Contains(err.Error(), "10 instances free") {
		t.Errorf("11 over 10 free: %v", err)
	}
}

// Before their start the reservations' whole counts are free (AWS reports none available
// while a payment is pending), and consecutive segments each take the whole count in
// their own window, since the count is how many run at once.
func TestSpreadLaunchOverWindows(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	later := start.AddDate(0, 0, 7)
	g := []Block{
		{ReservationID: "cr-a", AvailabilityZone: "us-east-1a", State: StatePaymentPending, TotalCount: 4, Start: start},
		{ReservationID: "cr-b", AvailabilityZone: "us-east-1b", State: StateScheduled, TotalCount: 4, Start: start},
		{ReservationID: "cr-c", AvailabilityZone: "us-east-1c", State: StateScheduled, TotalCount: 8, AvailableCount: 8, Start: later},
	}
	got, err := SpreadLaunch(g, 6)
	if err != nil || fmt.Sprint(got) != "[3 3 6]" {
		t.Fatalf("SpreadLaunch(6) = %v, %v; want [3 3 6]", got, err)
	}
	if _, err := SpreadLaunch(g, 9); err == nil || !strings.Contains(err.Error(), "8 instances free") {
		t.Errorf("9 over a later window of 8: %v", err)
	}
	shares, err := GroupLaunch(g, 1)
	if err != nil || len(shares) != 2 || shares[0].Block.ReservationID != "cr-a" || shares[1].Block.ReservationID != "cr-c" {
		t.Fatalf("GroupLaunch(1) = %+v, %v; want 1 into cr-a, 1 into cr-c", shares, err)
	}
	if w := ShareWords(shares); w != "1 into cr-a (us-east-1a), 1 into cr-c (us-east-1c)" {
		t.Errorf("ShareWords = %q", w)
	}
	// A group is in the order its windows run, then by zone.
	tagged := []Block{
		{ReservationID: "cr-z", AvailabilityZone: "us-east-1a", Start: later},
		{ReservationID: "cr-y", AvailabilityZone: "us-east-1b", Start: start},
	}
	for i := range tagged {
		tagged[i].Source, tagged[i].Region, tagged[i].Tags = SourceCapacityBlock, "us-east-1", map[string]string{PurchaseTag: "gpb-1"}
	}
	if ids := GroupIDs(Group(tagged, tagged[0])); ids != "cr-y,cr-z" {
		t.Errorf("Group of consecutive reservations = %s, want cr-y,cr-z", ids)
	}
}
