package offerings

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// tableLine is the line of a table that holds the offering id.
func tableLine(t *testing.T, table, id string) string {
	t.Helper()
	for _, l := range strings.Split(table, "\n") {
		if strings.HasSuffix(l, "  "+id) {
			return l
		}
	}
	t.Fatalf("no line for %s in\n%s", id, table)
	return ""
}

// onDemandOf is a table line's ON-DEMAND and BREAK-EVEN cells: the two before the id.
func onDemandOf(line string) (od, be string) {
	f := strings.Fields(line)
	return f[len(f)-3], f[len(f)-2]
}

// wantBreakEven is the BREAK-EVEN cell of a json row, worked out from its figures alone: the
// share rounded up to a whole percent, or never when it is past the usable hours.
func wantBreakEven(r printers.OfferingJSON) string {
	if r.BreakEvenUtilization == nil {
		return "—"
	}
	// the utilization is of the usable hours: above 1 the block never wins
	u := *r.BreakEvenUtilization
	if u > 1 {
		return "never"
	}
	return fmt.Sprintf("%d%%", int(math.Ceil(u*100-1e-9)))
}

// The table shows each offering's on-demand rate and break-even after $/INST-HOUR, the same
// figures as the json, and a dash for both where no on-demand price is known (trn2 in
// us-west-2); the new columns line up under their headers.
func TestOfferingsTableOnDemandColumns(t *testing.T) {
	cs := cmdtest.StartSim(t)
	args := cmdtest.OfferingsArgs(cs.URL, "--type", "p5.48xlarge,trn2.48xlarge", "--region", "us-east-1,us-west-2")
	rows, _ := offeringsJSON(t, append(args, "-o", "json"))
	code, table, errs := cli.Run(args...)
	if code != 0 || errs != "" {
		t.Fatalf("table: exit %d, stderr %q", code, errs)
	}
	header := strings.SplitN(table, "\n", 2)[0]
	if !strings.Contains(header, "$/INST-HOUR  ON-DEMAND  BREAK-EVEN  OFFERING") {
		t.Fatalf("header %q", header)
	}
	// Right-aligned cells end where their header ends; the id starts where OFFERING does.
	odEnd := utf8.RuneCountInString(header[:strings.Index(header, "ON-DEMAND")+len("ON-DEMAND")])
	beEnd := utf8.RuneCountInString(header[:strings.Index(header, "BREAK-EVEN")+len("BREAK-EVEN")])
	idAt := utf8.RuneCountInString(header[:strings.Index(header, "OFFERING")])
	priced, unpriced := 0, 0
	for _, r := range rows {
		line := tableLine(t, table, r.CapacityBlockOfferingId)
		od, be := onDemandOf(line)
		wantOD := "—"
		if r.OnDemandHourlyPrice != nil {
			wantOD = r.OnDemandHourlyPrice.Rate()
			priced++
		} else {
			unpriced++
		}
		if od != wantOD || be != wantBreakEven(r) {
			t.Errorf("%s: ON-DEMAND %q BREAK-EVEN %q, want %q %q (json %v)", r.CapacityBlockOfferingId, od, be, wantOD, wantBreakEven(r), r.BreakEvenUtilization)
		}
		runes := []rune(line)
		if string(runes[idAt:]) != r.CapacityBlockOfferingId || runes[odEnd-1] == ' ' || runes[odEnd] != ' ' || runes[beEnd-1] == ' ' || runes[beEnd] != ' ' {
			t.Errorf("misaligned under %q:\n%q", header, line)
		}
	}
	if priced == 0 || unpriced == 0 {
		t.Fatalf("%d rows with an on-demand price, %d without; the test needs both", priced, unpriced)
	}
	if !strings.Contains(table, "%  cbr-") {
		t.Errorf("no break-even in percent in\n%s", table)
	}
}

// A block dearer than on-demand says never, not a share above 100%; the price comes from the
// cache of prices --refresh, as in every other output.
func TestOfferingsTableBreakEvenNever(t *testing.T) {
	cs := cmdtest.StartSim(t)
	writePriceCache(t, pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p5.48xlarge", Region: "us-west-2", Status: pricing.StatusPrice,
		Hourly: model.MustMoney("10"), Source: pricing.SourcePriceListAPI, Date: "2026-11-29", DateNote: "fetched"})
	code, table, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-west-2")...)
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if code != 0 || errs != "" || len(lines) < 2 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, table)
	}
	for _, l := range lines[1:] {
		if od, be := onDemandOf(l); od != "$10.000" || be != "never" {
			t.Errorf("ON-DEMAND %q BREAK-EVEN %q, want $10.000 never: %q", od, be, l)
		}
	}
}

// An UltraServer's on-demand rate is shown per member instance, like its $/INST-HOUR, so the
// two columns compare; the break-even is the json's.
func TestOfferingsTableUltraServerOnDemandPerInstance(t *testing.T) {
	cs := cmdtest.StartSim(t)
	// 18 instances: $1,800 per UltraServer-hour is $100 per instance-hour.
	writePriceCache(t, pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "u-p6e-gb200x72", Region: "us-east-1", Status: pricing.StatusPrice,
		Hourly: model.MustMoney("1800"), Source: pricing.SourcePriceListAPI, Date: "2026-11-29", DateNote: "fetched"})
	args := []string{"offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "u-p6e-gb200x72", "--duration", "2d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-29"}
	rows, _ := offeringsJSON(t, append(args, "-o", "json"))
	code, table, _ := cli.Run(args...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, r := range rows {
		if r.OnDemandHourlyPrice == nil || r.OnDemandHourlyPrice.String() != "1800.00" {
			t.Fatalf("%s: json OnDemandHourlyPrice %v, want the cached 1800 per UltraServer-hour", r.CapacityBlockOfferingId, r.OnDemandHourlyPrice)
		}
		od, be := onDemandOf(tableLine(t, table, r.CapacityBlockOfferingId))
		if od != "$100.000" || be != wantBreakEven(r) {
			t.Errorf("%s: ON-DEMAND %q BREAK-EVEN %q, want $100.000 %q", r.CapacityBlockOfferingId, od, be, wantBreakEven(r))
		}
	}
}

func writePriceCache(t *testing.T, rows ...pricing.Row) {
	t.Helper()
	path, err := pricing.DefaultCachePath()
	if err != nil {
		t.Fatal(err)
	}
	if err := pricing.WriteCache(path, rows, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), filelock.WriteAtomic); err != nil {
		t.Fatal(err)
	}
}
