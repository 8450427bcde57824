package pricing

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Every type the emulator sells, in every region that sells it, has an on-demand row: a
// price, or an explicit "none" or "unknown".
func TestCatalogCoversEveryTypeAndRegion(t *testing.T) {
	cat := Embedded()
	for _, typ := range model.Catalog() {
		if len(typ.Regions) == 0 {
			t.Errorf("%s: model lists no region", typ.Name)
		}
		for _, region := range typ.Regions {
			row, ok := cat.OnDemand(typ.Name, region)
			if !ok {
				t.Errorf("%s in %s: no on-demand row", typ.Name, region)
				continue
			}
			switch row.Status {
			case StatusPrice:
				if row.Hourly.Micros() <= 0 {
					t.Errorf("%s in %s: price row without a price", typ.Name, region)
				}
			case StatusNone, StatusUnknown:
				if !row.Hourly.IsZero() {
					t.Errorf("%s in %s: %s row carries a price", typ.Name, region, row.Status)
				}
			default:
				t.Errorf("%s in %s: status %q", typ.Name, region, row.Status)
			}
			if row.Source == "" || row.Time().IsZero() {
				t.Errorf("%s in %s: row without source or date: %+v", typ.Name, region, row)
			}
		}
	}
}

func TestCatalogRowsAreSourcedAndDated(t *testing.T) {
	rows := Embedded().Rows()
	if len(rows) < 50 {
		t.Fatalf("embedded catalog has %d rows", len(rows))
	}
	for _, r := range rows {
		if r.Source == "" || r.Date == "" || r.Time().IsZero() {
			t.Errorf("row without source or date: %+v", r)
		}
		if r.HasPrice() && r.Reliability == "" {
			t.Errorf("price row without reliability: %+v", r)
		}
		if strings.Contains(r.Source, "guide") && r.Reliability != ReliabilityUnconfirmed {
			t.Errorf("third-party guide figure not marked unconfirmed: %+v", r)
		}
	}
}

// The figures of the reference, spot-checked so a slip in the CSV is caught.
func TestCatalogFiguresFromReference(t *testing.T) {
	cat := Embedded()
	for _, tc := range []struct {
		kind         Kind
		typ, region  string
		want, source string
		date         string
	}{
		{KindOnDemand, "p5.48xlarge", "us-east-1", "55.04", "datareceipts", "2026-11-09"},
		{KindOnDemand, "p4d.24xlarge", "us-east-1", "21.957642", "datareceipts", "2026-11-09"},
		{KindOnDemand, "p4de.24xlarge", "us-east-1", "27.44705", "datareceipts", "2026-11-09"},
		{KindOnDemand, "p5en.48xlarge", "us-west-2", "63.296", "dstack PR #4110", "2026-08"},
		// from the public datasets (tsaol/aws-gpu, generated from instances.vantage.sh): the
		// file and commit are in the note
		{KindOnDemand, "p5.48xlarge", "eu-north-1", "58.8928", "tsaol/aws-gpu; data/p5_instances.js", "2026-08-26"},
		{KindOnDemand, "p5.4xlarge", "ap-northeast-1", "8.6", "tsaol/aws-gpu; data/p5_instances.js", "2026-08-26"},
		{KindOnDemand, "p5en.48xlarge", "ap-south-1", "75.9552", "tsaol/aws-gpu; data/p5en_instances.js", "2026-08-26"},
		{KindOnDemand, "p4d.24xlarge", "us-west-2", "21.95764", "tsaol/aws-gpu; data/p4d_instances.js", "2026-08-26"},
		{KindOnDemand, "p6-b300.48xlarge", "us-east-1", "142.416", "tsaol/aws-gpu; data/p6-b300_instances.js", "2026-08-26"},
		{KindOnDemand, "trn1.32xlarge", "us-east-2", "21.5", "tsaol/aws-gpu; data/trn1_instances.js", "2026-08-26"},
		// the AWS page's snapshots (capacity-block-prices-2026.md) win over the unconfirmed
		// October figures, which are derived from them
		{KindCapacityBlock, "p5.48xlarge", "us-east-1", "41.528", "AWS Capacity Block pricing page; snapshot", "2026-07-22"},
		{KindCapacityBlock, "p5.48xlarge", "ap-northeast-1", "37.76", "AWS Capacity Block pricing page; snapshot", "2026-07-22"},
		{KindCapacityBlock, "p6-b300.48xlarge", "us-west-2", "112.32", "AWS Capacity Block pricing page; snapshot", "2026-07-22"},
		{KindCapacityBlock, "trn1.32xlarge", "ap-southeast-4", "9.532", "AWS Capacity Block pricing page", "2026-07-22"},
		{KindCapacityBlock, "p4de.24xlarge", "us-east-2", "20.369", "derived, not published", "2026-10"}, // no snapshot there
		{KindCapacityBlock, "u-p6e-gb200x72", "us-east-1", "761.904", "third-party guide", "2026-10"},
	} {
		r, ok := cat.best(tc.kind, tc.typ, tc.region)
		if !ok || !r.HasPrice() || r.Hourly.String() != model.MustMoney(tc.want).String() ||
			!strings.Contains(r.Source+"; "+r.Note, tc.source) || r.Date != tc.date {
			t.Errorf("%s %s %s = %+v, want %s from %s on %s", tc.kind, tc.typ, tc.region, r, tc.want, tc.source, tc.date)
		}
	}
	// the historic launch price is kept, but does not win over the newer figure
	var launch bool
	for _, r := range cat.Rows() {
		if r.Kind == KindOnDemand && r.InstanceType == "p5.48xlarge" && r.Hourly == model.MustMoney("98.32") && r.Date == "2023-07-27" {
			launch = true
		}
	}
	if !launch {
		t.Error("the 2023 launch price of p5.48xlarge is missing")
	}
	// p6-b200 was first sold only as Capacity Blocks; where a later source prices it on-demand,
	// that figure wins, and where none does the "none" row still stands.
	if r, _ := cat.OnDemand("p6-b200.48xlarge", "us-east-1"); r.Hourly != model.MustMoney("113.9328") {
		t.Errorf("p6-b200 on-demand in us-east-1 = %+v, want 113.9328", r)
	}
	if r, _ := cat.OnDemand("p6-b200.48xlarge", "eu-north-1"); r.Status != StatusNone {
		t.Errorf("p6-b200 on-demand in eu-north-1 = %+v, want status none", r)
	}
	if r, _ := cat.OnDemand("trn2.48xlarge", "us-west-2"); r.Status != StatusUnknown {
		t.Errorf("trn2 on-demand = %+v, want status unknown", r)
	}
	if sp := cat.SavingsPlans("p5.48xlarge", "us-east-1"); len(sp) != 0 {
		t.Errorf("Savings Plans figures appeared from nowhere: %+v", sp)
	}
	if r, ok := cat.CapacityBlockRate("p4d.24xlarge", "us-east-2"); !ok || r.Hourly != model.MustMoney("11.80") {
		t.Errorf("p4d us-east-2 published rate = %+v; the 2026-07-22 snapshot is newer than 2025-01-01", r)
	}
	if acc, ok := mustBest(t, cat, KindCapacityBlock, "p5.48xlarge", "us-east-2").PerAccelerator(); !ok || acc != model.MustMoney("5.191") {
		t.Errorf("per-accelerator = %v, want 41.528 ÷ 8 = 5.191", acc)
	}
}

func mustBest(t *testing.T, c *Catalog, k Kind, typ, region string) Row {
	t.Helper()
	r, ok := c.best(k, typ, region)
	if !ok {
		t.Fatalf("no %s row for %s %s", k, typ, region)
	}
	return r
}

func TestPriceListRowsWinAndCSVRoundTrips(t *testing.T) {
	api := Row{Kind: KindOnDemand, InstanceType: "p5.48xlarge", Region: "ap-south-1", Status: StatusPrice,
		Hourly: model.MustMoney("61.23"), Source: SourcePriceListAPI, Date: "2026-11-29", DateNote: "fetched"}
	cat := Embedded().With(api)
	if r, _ := cat.OnDemand("p5.48xlarge", "ap-south-1"); r.Hourly != api.Hourly || r.Source != SourcePriceListAPI {
		t.Errorf("OnDemand = %+v, want the Price List row", r)
	}
	older := api
	older.Region, older.Date, older.Hourly = "us-east-1", "2020-01-01", model.MustMoney("1.5")
	if r, _ := Embedded().With(older).OnDemand("p5.48xlarge", "us-east-1"); r.Source != SourcePriceListAPI {
		t.Errorf("a fetched figure must beat quoted ones whatever their dates: %+v", r)
	}

	var b strings.Builder
	b.WriteString(strings.Join(CSVHeader(), ",") + "\n")
	for _, r := range Embedded().Rows() {
		b.WriteString(csvLine(r.Record()))
	}
	rows, err := ParseCSV(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(Embedded().Rows()) {
		t.Fatalf("round trip: %d rows, want %d", len(rows), len(Embedded().Rows()))
	}
	for i, r := range Embedded().Rows() {
		if rows[i].Record()[4] != r.Record()[4] || rows[i].Source != r.Source {
			t.Errorf("row %d: %v, want %v", i, rows[i].Record(), r.Record())
		}
	}
}

func csvLine(f []string) string {
	for i, s := range f {
		if strings.ContainsAny(s, ",\"") {
			f[i] = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return strings.Join(f, ",") + "\n"
}

func TestParseCSVRejectsBadRows(t *testing.T) {
	head := strings.Join(CSVHeader(), ",") + "\n"
	for _, line := range []string{
		"on-demand,p5.48xlarge,us-east-1,price,,,src,2026-01-01,,third-party,",    // price without figure
		"on-demand,p5.48xlarge,us-east-1,none,12.5,,src,2026-01-01,,third-party,", // none with figure
		"on-demand,p5.48xlarge,us-east-1,price,-1,,src,2026-01-01,,third-party,",  // negative
		"spot,p5.48xlarge,us-east-1,price,1,,src,2026-01-01,,third-party,",        // kind
		"on-demand,p5.48xlarge,us-east-1,price,1,,,2026-01-01,,third-party,",      // no source
		"on-demand,p5.48xlarge,us-east-1,price,1,,src,last year,,third-party,",    // date
		"on-demand,p5.48xlarge,us-east-1,price,1,,src,2026-01-01,,trust me,",      // reliability
		"on-demand,p5.48xlarge,us-east-1,price,1e3,,src,2026-01-01,,third-party,", // exponent
		"on-demand,p5.48xlarge,us-east-1,maybe,,,src,2026-01-01,,third-party,",    // status
		"on-demand,p5.48xlarge,us-east-1,price,1,,src,2026-01-01,,third-party",    // too few fields
	} {
		if _, err := ParseCSV(strings.NewReader(head + line + "\n")); err == nil {
			t.Errorf("accepted %q", line)
		}
	}
}

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ date, want string }{
		{"2026-11-29", "today"},
		{"2026-11-09", "20 days"},
		{"2026-10", "~1 month"},
		{"2026-11", "this month"},
		{"2026-08", "~3 months"},
		{"2026", "this year"},
		{"2025", "~1 year"},
		{"2025-01-01", "23 months"},
		{"2023-07-27", "3 years"},
		{"2026-12-09", "in 9 days"},
	} {
		if got := (Row{Date: tc.date}).Age(now); got != tc.want {
			t.Errorf("Age(%s) = %q, want %q", tc.date, got, tc.want)
		}
	}
}
