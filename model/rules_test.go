package model

import (
	"strings"
	"testing"
	"time"
)

func TestValidDurations(t *testing.T) {
	days := ValidDurationDays()
	if len(days) != 14+24 || days[0] != 1 || days[13] != 14 || days[14] != 21 || days[len(days)-1] != 182 {
		t.Fatalf("durations = %v", days)
	}
	for _, d := range days {
		if !ValidDuration(d) {
			t.Errorf("%d listed but not valid", d)
		}
	}
	for _, d := range []int{0, -1, 15, 20, 22, 28 + 1, 183, 189} {
		if ValidDuration(d) {
			t.Errorf("%d days accepted", d)
		}
	}
	if got := DurationsBetween(10, 30); len(got) != 7 || got[4] != 14 || got[5] != 21 || got[6] != 28 {
		t.Errorf("DurationsBetween(10,30) = %v", got)
	}
}

func TestParseDuration(t *testing.T) {
	ok := map[string]DurationRange{
		"2d": {2, 2}, "48h": {2, 2}, "3w": {21, 21}, "2d-7d": {2, 7}, "1w-4w": {7, 28}, " 14D ": {14, 14}, "26w": {182, 182},
	}
	for in, want := range ok {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "2", "15d", "36h", "0d", "-2d", "2x", "27w", "7d-2d", "15d-20d", "d", "2d-"} {
		_, err := ParseDuration(bad)
		if err == nil {
			t.Errorf("ParseDuration(%q) accepted", bad)
			continue
		}
		if !strings.Contains(err.Error(), bad) && bad != "" {
			t.Errorf("ParseDuration(%q) error does not name the value: %v", bad, err)
		}
	}
	if FormatDays(21) != "3w" || FormatDays(14) != "14d" || FormatDays(2) != "2d" {
		t.Error("FormatDays")
	}
}

func TestParseDate(t *testing.T) {
	now := time.Date(2026, 11, 29, 19, 44, 0, 0, time.UTC)
	cases := map[string]time.Time{
		"2026-12-03":                time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC),
		"2026-12-03T11:30:00Z":      time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC),
		"2026-12-03T12:30:00+01:00": time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC),
		"now":                       now,
		"+2w":                       now.AddDate(0, 0, 14),
		"+10d":                      now.AddDate(0, 0, 10),
		"+36h":                      now.Add(36 * time.Hour),
	}
	for in, want := range cases {
		got, err := ParseDate(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "+2", "+x3d", "2026-13-01", "03/12/2026", "+2y"} {
		if _, err := ParseDate(bad, now); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
}

func TestNextBoundary(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, time.UTC) }
	if got := NextBoundary(at(9, 0)); !got.Equal(at(11, 30)) {
		t.Errorf("before 11:30: %v", got)
	}
	if got := NextBoundary(at(11, 30)); !got.Equal(at(11, 30)) {
		t.Errorf("at 11:30: %v", got)
	}
	if got := NextBoundary(at(12, 0)); !got.Equal(at(11, 30).AddDate(0, 0, 1)) {
		t.Errorf("after 11:30: %v", got)
	}
}

func TestCatalog(t *testing.T) {
	want := []string{"p4d.24xlarge", "p4de.24xlarge", "p5.4xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge",
		"p6-b200.48xlarge", "p6-b300.48xlarge", "trn1.32xlarge", "trn2.48xlarge", "u-p6e-gb200x36", "u-p6e-gb200x72"}
	cat := Catalog()
	if len(cat) != len(want) {
		t.Fatalf("catalog has %d types, want %d", len(cat), len(want))
	}
	for i, name := range want {
		ty, ok := LookupType(name)
		if !ok || cat[i].Name != name {
			t.Fatalf("type %s missing or out of order", name)
		}
		if ty.Accelerators <= 0 || ty.AcceleratorGiB <= 0 || ty.VCPUs <= 0 || ty.MemoryGiB <= 0 || ty.NetworkGbps <= 0 || len(ty.Regions) == 0 {
			t.Errorf("%s has an empty figure: %+v", name, ty)
		}
	}
	p5, _ := LookupType("p5.48xlarge")
	if p5.AcceleratorModel != "H100" || p5.Accelerators != 8 || p5.AcceleratorMemoryGiB() != 640 {
		t.Errorf("p5.48xlarge = %+v", p5)
	}
	if gb, _ := LookupType("u-p6e-gb200x72"); !gb.UltraServer || gb.Instances != 18 || gb.Accelerators != 72 {
		t.Errorf("u-p6e-gb200x72 = %+v", gb)
	}
	cat[0].Name = "changed" // Catalog hands out a copy
	if _, ok := LookupType("p4d.24xlarge"); !ok {
		t.Fatal("Catalog() leaked its backing array")
	}
	if got := RegionsSelling("p5e.48xlarge", "trn2.48xlarge"); strings.Join(got, ",") != "us-east-2,us-west-2" {
		t.Errorf("RegionsSelling = %v", got)
	}
	if len(Regions()) < 8 {
		t.Errorf("Regions = %v", Regions())
	}
}

func TestOfferingRates(t *testing.T) {
	o := Offering{InstanceType: "p5.48xlarge", Count: 2, DurationHours: 48, Fee: MustMoney("9168.00")}
	if got := o.HourlyRate().String(); got != "95.50" {
		t.Errorf("HourlyRate = %s", got)
	}
	if got := o.AcceleratorHourlyRate().String(); got != "11.9375" {
		t.Errorf("AcceleratorHourlyRate = %s", got)
	}
	near := Offering{InstanceType: "p5.48xlarge", Count: 1, DurationHours: 2, DurationMinutes: 35, Fee: MustMoney("155.00")}
	if near.Duration() != 2*time.Hour+35*time.Minute || near.HourlyRate().String() != "60.00" {
		t.Errorf("near-term: %v %s", near.Duration(), near.HourlyRate())
	}
	if (Offering{InstanceType: "nope", Count: 1, DurationHours: 1}).AcceleratorHourlyRate() != (Money{}) {
		t.Error("unknown type should have no accelerator rate")
	}
	b := Block{End: time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)}
	if b.TerminationAt().Format("15:04") != "11:00" || b.WarningAt().Format("15:04") != "10:50" {
		t.Errorf("termination %v warning %v", b.TerminationAt(), b.WarningAt())
	}
}

func TestExtensionAsOffering(t *testing.T) {
	b := Block{Region: "us-east-2", AvailabilityZone: "us-east-2a", InstanceType: "p5.48xlarge", TotalCount: 4}
	offs := []ExtensionOffering{
		{ID: "cbe-2", Fee: MustMoney("900.00"), DurationHours: 24},
		{ID: "cbe-1", Fee: MustMoney("800.00"), DurationHours: 24, Count: 2, InstanceType: "p5e.48xlarge"},
	}
	cheap := CheapestExtension(offs)
	if cheap.ID != "cbe-1" {
		t.Fatalf("cheapest = %s", cheap.ID)
	}
	o := offs[0].AsOffering(b)
	if o.InstanceType != "p5.48xlarge" || o.Count != 4 || o.Region != "us-east-2" || o.AvailabilityZone != "us-east-2a" || o.Fee != MustMoney("900") {
		t.Fatalf("defaults from the block: %+v", o)
	}
	if o := cheap.AsOffering(b); o.InstanceType != "p5e.48xlarge" || o.Count != 2 {
		t.Fatalf("the offering's own type and count win: %+v", o)
	}
}
