package offerings

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// offeringsJSON runs gpublock offerings -o json and decodes it, keeping the raw objects too
// (to tell a null from a missing field).
func offeringsJSON(t *testing.T, args []string) ([]printers.OfferingJSON, []map[string]json.RawMessage) {
	t.Helper()
	code, out, errs := cli.Run(args...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []printers.OfferingJSON
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != len(rows) {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) == 0 {
		t.Fatal("no offerings")
	}
	return rows, raw
}

// Where the catalog has an on-demand price (p5.48xlarge in us-east-1 and us-west-2) the JSON
// carries it, the effective rates that give back the fee, and fee ÷ (on-demand × count ×
// hours) as the break-even; where it has none (trn2.48xlarge in us-west-2) nothing is guessed.
func TestOfferingsJSONPricing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	args := cmdtest.OfferingsArgs(cs.URL, "--type", "p5.48xlarge,trn2.48xlarge", "--region", "us-east-1,us-west-2", "--count", "2")
	rows, raw := offeringsJSON(t, append(args, "-o", "json"))
	if od, ok := pricing.Embedded().OnDemand("trn2.48xlarge", "us-west-2"); ok && od.HasPrice() {
		t.Fatal("the embedded catalog now prices trn2.48xlarge in us-west-2; the test needs a pair without a price")
	}
	priced, unpriced := 0, 0
	for i, r := range rows {
		fee, err := model.ParseMoney(r.UpfrontFee)
		if err != nil {
			t.Fatal(err)
		}
		typ, ok := model.LookupType(r.InstanceType)
		if !ok {
			t.Fatalf("%s: unknown type %q", r.CapacityBlockOfferingId, r.InstanceType)
		}
		minutes := int64(r.CapacityBlockDurationHours*60 + r.CapacityBlockDurationMinutes)
		units := int64(r.InstanceCount)
		// The rates are rounded to the micro-dollar: × units × hours they give the fee back
		// within half a micro-dollar per unit-hour.
		back := new(big.Rat).Mul(big.NewRat(r.EffectiveHourlyPrice.Micros(), 1), big.NewRat(units*minutes, 60))
		diff := new(big.Rat).Sub(back, big.NewRat(fee.Micros(), 1))
		if lim := big.NewRat(units*minutes, 120); new(big.Rat).Abs(diff).Cmp(lim) > 0 {
			t.Errorf("%s: EffectiveHourlyPrice %s × %d × %d min = %s µ$, fee %s", r.CapacityBlockOfferingId, r.EffectiveHourlyPrice, units, minutes, back.FloatString(0), fee)
		}
		acc := int64(typ.Accelerators) * units
		backAcc := float64(r.AcceleratorHourlyPrice.Micros()) * float64(acc*minutes) / 60
		if math.Abs(backAcc-float64(fee.Micros())) > float64(acc*minutes)/120+1 {
			t.Errorf("%s: AcceleratorHourlyPrice %s does not give the fee back", r.CapacityBlockOfferingId, r.AcceleratorHourlyPrice)
		}
		if r.PriceUnit != "instance" {
			t.Errorf("%s: PriceUnit %q", r.CapacityBlockOfferingId, r.PriceUnit)
		}
		od, ok := pricing.Embedded().OnDemand(r.InstanceType, r.Region)
		if ok && od.HasPrice() {
			priced++
			if r.OnDemandHourlyPrice == nil || *r.OnDemandHourlyPrice != od.Hourly {
				t.Fatalf("%s: OnDemandHourlyPrice %v, want %s", r.CapacityBlockOfferingId, r.OnDemandHourlyPrice, od.Hourly)
			}
			// of the usable hours: instances stop 30 minutes before the end
			want := float64(fee.Micros()) / (float64(od.Hourly.Micros()) * float64(units) * float64(minutes-30) / 60)
			if r.BreakEvenUtilization == nil || math.Abs(*r.BreakEvenUtilization-want) > 1e-12 {
				t.Errorf("%s: BreakEvenUtilization %v, want fee/(on-demand × count × usable hours) = %v", r.CapacityBlockOfferingId, *r.BreakEvenUtilization, want)
			}
			if !strings.Contains(r.PriceSource, od.Source) || !strings.Contains(r.PriceSource, od.Date) || r.NoOnDemandReason != "" {
				t.Errorf("%s: PriceSource %q (want %s, %s), reason %q", r.CapacityBlockOfferingId, r.PriceSource, od.Source, od.Date, r.NoOnDemandReason)
			}
			continue
		}
		unpriced++
		if _, present := raw[i]["OnDemandHourlyPrice"]; present {
			t.Errorf("%s: an on-demand price where the catalog has none: %s", r.CapacityBlockOfferingId, raw[i]["OnDemandHourlyPrice"])
		}
		if string(raw[i]["BreakEvenUtilization"]) != "null" {
			t.Errorf("%s: BreakEvenUtilization %s, want null", r.CapacityBlockOfferingId, raw[i]["BreakEvenUtilization"])
		}
		if want := "no on-demand price known for " + r.InstanceType + " in " + r.Region; !strings.Contains(r.NoOnDemandReason, want) {
			t.Errorf("%s: NoOnDemandReason %q, want %q", r.CapacityBlockOfferingId, r.NoOnDemandReason, want)
		}
	}
	if priced == 0 || unpriced == 0 {
		t.Fatalf("%d offerings with an on-demand price and %d without; the test needs both", priced, unpriced)
	}

	// The CSV has the same figures in the same columns' names.
	code, out, _ := cli.Run(append(args, "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs)-1 != len(rows) {
		t.Fatalf("csv: exit %d, %v, %d records for %d offerings", code, err, len(recs)-1, len(rows))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	byID := map[string]printers.OfferingJSON{}
	for _, r := range rows {
		byID[r.CapacityBlockOfferingId] = r
	}
	for _, rec := range recs[1:] {
		j, ok := byID[rec[col["CapacityBlockOfferingId"]]]
		if !ok {
			t.Fatalf("csv row %v is not in the json", rec)
		}
		wantOD, wantBE := "", ""
		if j.OnDemandHourlyPrice != nil {
			wantOD = j.OnDemandHourlyPrice.String()
		}
		if j.BreakEvenUtilization != nil {
			wantBE = jsonNumber(*j.BreakEvenUtilization)
		}
		got := []string{rec[col["EffectiveHourlyPrice"]], rec[col["AcceleratorHourlyPrice"]], rec[col["OnDemandHourlyPrice"]], rec[col["BreakEvenUtilization"]], rec[col["PriceSource"]]}
		want := []string{j.EffectiveHourlyPrice.String(), j.AcceleratorHourlyPrice.String(), wantOD, wantBE, j.PriceSource}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("csv %s: %v, json %v", j.CapacityBlockOfferingId, got, want)
		}
	}
}

func jsonNumber(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// A price fetched by gpublock prices --refresh (the cache under XDG_CACHE_HOME) is what
// offerings are compared with.
func TestOfferingsUsesThePriceCache(t *testing.T) {
	cs := cmdtest.StartSim(t)
	path, err := pricing.DefaultCachePath()
	if err != nil {
		t.Fatal(err)
	}
	fetched := pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p5.48xlarge", Region: "us-west-2", Status: pricing.StatusPrice,
		Hourly: model.MustMoney("60.5"), Source: pricing.SourcePriceListAPI, Date: "2026-11-29", DateNote: "fetched"}
	if err := pricing.WriteCache(path, []pricing.Row{fetched}, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), filelock.WriteAtomic); err != nil {
		t.Fatal(err)
	}
	rows, _ := offeringsJSON(t, cmdtest.OfferingsArgs(cs.URL, "--region", "us-west-2", "-o", "json"))
	for _, r := range rows {
		if r.OnDemandHourlyPrice == nil || r.OnDemandHourlyPrice.String() != "60.50" || !strings.HasPrefix(r.PriceSource, pricing.SourcePriceListAPI) {
			t.Errorf("%s: OnDemandHourlyPrice %v from %q, want 60.50 from the cache", r.CapacityBlockOfferingId, r.OnDemandHourlyPrice, r.PriceSource)
		}
		if r.BreakEvenUtilization == nil {
			t.Errorf("%s: no break-even with a cached price", r.CapacityBlockOfferingId)
		}
	}
}

// A damaged cache is named once, with what to do, and the search goes on with the
// embedded prices.
func TestOfferingsSaysOnceWhichPriceCacheIsDamaged(t *testing.T) {
	cs := cmdtest.StartSim(t)
	path, err := pricing.DefaultCachePath()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1", "-o", "json")...)
	if code != 0 || !strings.HasPrefix(out, "[") || strings.Count(errs, path) != 1 || !strings.Contains(errs, "delete it and refresh again") ||
		!strings.Contains(errs, "using the embedded prices") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}
