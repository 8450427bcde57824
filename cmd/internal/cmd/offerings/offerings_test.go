package offerings

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

func TestOfferingsJSON(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", "json")...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(rows) == 0 {
		t.Fatal("no offerings")
	}
	regions := map[string]bool{}
	for _, r := range rows {
		for _, k := range []string{"CapacityBlockOfferingId", "InstanceType", "AvailabilityZone", "InstanceCount", "StartDate", "EndDate",
			"CapacityBlockDurationHours", "CapacityBlockDurationMinutes", "UpfrontFee", "CurrencyCode", "Tenancy", "Region"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("row lacks %s: %v", k, r)
			}
		}
		fee, ok := r["UpfrontFee"].(string)
		if !ok {
			t.Fatalf("UpfrontFee is %T, want the exact decimal string", r["UpfrontFee"])
		}
		if m, err := model.ParseMoney(fee); err != nil || m.IsZero() {
			t.Errorf("UpfrontFee %q", fee)
		}
		if _, err := time.Parse(time.RFC3339, r["StartDate"].(string)); err != nil {
			t.Errorf("StartDate %v", r["StartDate"])
		}
		if r["InstanceType"] != "p5.48xlarge" || r["InstanceCount"] != float64(1) {
			t.Errorf("row %v", r)
		}
		regions[r["Region"].(string)] = true
	}
	if !regions["us-east-1"] || !regions["us-west-2"] || len(regions) != 2 {
		t.Errorf("regions %v", regions)
	}
}

func TestOfferingsTableAndCSVHaveTheSameRows(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, js, _ := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "all", "-o", "json")...)
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(js), &rows) != nil || len(rows) == 0 {
		t.Fatalf("json run: exit %d\n%s", code, js)
	}

	code, table, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "all")...)
	if code != 0 || errs != "" {
		t.Fatalf("table: exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if !strings.HasPrefix(lines[0], "REGION") || len(lines)-1 != len(rows) {
		t.Fatalf("table has %d rows, json %d:\n%s", len(lines)-1, len(rows), table)
	}
	for _, r := range rows {
		if !strings.Contains(table, r["CapacityBlockOfferingId"].(string)) {
			t.Errorf("table lacks %v", r["CapacityBlockOfferingId"])
		}
	}

	code, csvOut, _ := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "all", "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if code != 0 || err != nil || len(recs)-1 != len(rows) || recs[0][0] != "Region" {
		t.Fatalf("csv: exit %d, %v, %d records", code, err, len(recs))
	}
}

// A region that fails is named on stderr with its explanation, what the others found is
// still printed, and the exit status says the results are incomplete.
func TestOfferingsRegionErrorsGoToStderr(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(ec2sim.Faults{Down: []string{"us-west-2"}})
	code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", "json")...)
	if code != 1 {
		t.Errorf("exit %d with one region down, want 1: the results are incomplete", code)
	}
	if !strings.Contains(errs, "gpublock offerings: us-west-2: EC2 is unavailable") || strings.Contains(errs, "us-east-1") ||
		!strings.Contains(errs, "incomplete: us-west-2 failed") {
		t.Errorf("stderr %q", errs)
	}
	var rows []printers.OfferingJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("the answering region's offerings: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Region != "us-east-1" {
			t.Errorf("row of %s, want us-east-1 only", r.Region)
		}
	}
}

func TestOfferingsBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	base := []string{"offerings", "--endpoint-url", cs.URL}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--duration", "2d"}, "--type"},
		{[]string{"--type", "m5.large", "--duration", "2d"}, "--type"},
		{[]string{"--type", "p5.48xlarge"}, "--duration"},
		{[]string{"--type", "p5.48xlarge", "--duration", "15d"}, "--duration"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--count", "65"}, "--count"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "-o", "xml"}, "-o"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--region", "mars-1"}, "--region"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--from", "soon"}, "--from"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--to", "2027-06-01"}, "--to"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--from", "2026-11-20"}, "--from"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--concurrency", "0"}, "--concurrency"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--region-concurrency", "-1"}, "--region-concurrency"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--rate-headroom", "95"}, "--rate-headroom"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--max-spend", "-5"}, "--max-spend"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "extra"}, "extra"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--bogus"}, "bogus"},
	}
	for _, tc := range cases {
		code, out, errs := cli.Run(append(base, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 naming %s", tc.args, code, errs, out, tc.want)
		}
	}
	code, _, errs := cli.Run("offerings", "--endpoint-url", "ftp://x", "--type", "p5.48xlarge", "--duration", "2d")
	if code != 2 || !strings.Contains(errs, "--endpoint-url") {
		t.Errorf("ftp endpoint: exit %d, %q", code, errs)
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Errorf("bad usage made %d EC2 calls", n)
	}
	if code, out, errs := cli.Run("offerings", "-h"); code != 0 || errs != "" || !strings.Contains(out, "USAGE") {
		t.Errorf("-h: exit %d, stderr %q", code, errs)
	}
}

func TestOfferingsWithoutCredentialsFails(t *testing.T) {
	cmdtest.Env(t)
	code, out, errs := cli.Run("offerings", "--type", "p5.48xlarge", "--duration", "2d", "--region", "us-east-1", "--to", "+2w")
	if code != 1 || out != "" || !strings.Contains(errs, "No AWS credentials") || !strings.Contains(errs, "--demo") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestOfferingsDemo(t *testing.T) {
	cmdtest.Env(t)
	cli.ListOfferings(t, "--demo", "--type", "p5.48xlarge", "--duration", "2d", "--region", "us-east-1", "--to", "+2w")
}

// FuzzOfferingsFlags: whatever the arguments, parsing never panics, and what it accepts
// is a query whose every field is in range.
func FuzzOfferingsFlags(f *testing.F) {
	for _, s := range []string{
		"--type p5.48xlarge --duration 2d",
		"--type p5.48xlarge,p5en.48xlarge --count 64 --duration 2d-7d --from +1d --to +3w --region all -o csv",
		"--type u-p6e-gb200x72 --duration 182d --region us-east-1",
		"--type p5.48xlarge --duration 0d-0d --count -1 --to 2026-13-45",
		"--duration 48h --type , --region ,,, -o JSON --max-spend 1e9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, _, err := parseOfferings(strings.Fields(line), io.Discard)
		if err != nil {
			return
		}
		q, err := a.Query(time.Now().UTC())
		if err != nil {
			t.Fatalf("accepted %q, then the query failed: %v", line, err)
		}
		if q.Count < model.MinCount || q.Count > model.MaxCount || len(q.Durations.Days()) == 0 || len(q.InstanceTypes) == 0 {
			t.Fatalf("accepted %q as %+v", line, q)
		}
	})
}

func TestOfferingsUltraServerJSONUsesAWSFields(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--type", "u-p6e-gb200x72", "--duration", "1d-3d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15", "--region", "us-east-1", "-o", "json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("exit %d, stderr %q, stdout %s", code, errs, out)
	}
	for _, r := range rows {
		if r["InstanceType"] != "p6e-gb200.36xlarge" || r["InstanceCount"] != float64(18) || r["UltraserverType"] != "u-p6e-gb200x72" || r["UltraserverCount"] != float64(1) {
			t.Errorf("row %v", r)
		}
	}
}

// An empty search says so on stderr, with the window's times marked UTC like every other
// time the commands print, and leaves stdout empty.
func TestOfferingsNoneSaysUTC(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "p5.48xlarge",
		"--duration", "2d", "--from", "2026-12-03T00:00:00Z", "--to", "2026-12-04T00:00:00Z")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "no offerings") || !strings.Contains(errs, "2026-12-03 00:00 UTC – 2026-12-04 00:00 UTC") {
		t.Errorf("stderr %q: want the window in UTC", errs)
	}
}

// fourWeeksOf is the search of 2-day blocks of typ in us-east-1 over the first four weeks
// of the emulator's clock.
func fourWeeksOf(typ string) []string {
	return []string{"--region", "us-east-1", "--type", typ, "--duration", "2d", "--from", "2026-12-01T08:00:00Z", "--to", "2026-12-29"}
}

// The table's $/INST-HOUR column is per instance on every row: an UltraServer's fee is
// spread over its member instances, not shown per UltraServer under that header.
func TestOfferingsTableUltraServerRatePerInstance(t *testing.T) {
	cs := cmdtest.StartSim(t)
	search := fourWeeksOf("u-p6e-gb200x72")
	rows := cli.Offerings(t, cs.URL, search...)
	code, table, _ := cli.Run(append([]string{"offerings", "--endpoint-url", cs.URL}, search...)...)
	if code != 0 {
		t.Fatalf("table: exit %d", code)
	}
	for _, r := range rows {
		fee, _ := model.ParseMoney(r.UpfrontFee)
		minutes := int64(r.CapacityBlockDurationHours*60 + r.CapacityBlockDurationMinutes)
		perInstance := fee.MulRat(60, 18*minutes).Rate()
		var line string
		for _, l := range strings.Split(table, "\n") {
			if strings.Contains(l, r.CapacityBlockOfferingId) {
				line = l
			}
		}
		if !strings.Contains(line, " "+perInstance+" ") {
			t.Errorf("row %q: want %s per instance-hour (fee %s over 18 instances)", line, perInstance, r.UpfrontFee)
		}
	}
}

// A region that does not sell the type is named on stderr with the regions that do, and
// the search still succeeds with nothing on stdout but the empty array.
func TestOfferingsTypeNotSoldInRegion(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--region", "us-west-2", "--type", "u-p6e-gb200x36",
		"--duration", "2d", "--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15", "-o", "json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "us-west-2: u-p6e-gb200x36 not sold here (sold in us-east-1)") {
		t.Errorf("stderr %q: want the region named with where the type is sold", errs)
	}
}

// The csv describes an UltraServer offering as the json does (AWS's fields: the member
// instance type and count, plus UltraserverType and UltraserverCount).
func TestOfferingsCSVUltraServerMatchesJSON(t *testing.T) {
	cs := cmdtest.StartSim(t)
	search := fourWeeksOf("u-p6e-gb200x36")
	rows := cli.Offerings(t, cs.URL, search...)
	for _, r := range csvOf(t, append([]string{"offerings", "--endpoint-url", cs.URL}, search...), rows) {
		rec := r.cell
		got := strings.Join([]string{rec["CapacityBlockOfferingId"], rec["InstanceType"], rec["InstanceCount"], rec["UltraserverType"], rec["UltraserverCount"]}, "|")
		want := strings.Join([]string{r.json.CapacityBlockOfferingId, "p6e-gb200.36xlarge", "9", "u-p6e-gb200x36", "1"}, "|")
		if got != want {
			t.Errorf("csv %s, want %s", got, want)
		}
	}
}

// AWS's 8-week limit is on the start: a long block that starts within it ends later, and the
// default window lets the search find it.
func TestOfferingsLongBlocksPastEightWeeks(t *testing.T) {
	cs := cmdtest.StartSim(t)
	rows := cli.Offerings(t, cs.URL, "--type", "p5.48xlarge", "--duration", "9w", "--region", "us-east-1")
	limit := cs.Emulator.Now().Add(model.MaxLeadTime)
	for _, r := range rows {
		start, end := cmdtest.MustTime(t, r.StartDate), cmdtest.MustTime(t, r.EndDate)
		if r.CapacityBlockDurationHours != 9*7*24 || !start.Before(limit) || !end.After(limit) {
			t.Errorf("offering %s: %d hours from %s to %s; want 9 weeks starting before %s", r.CapacityBlockOfferingId, r.CapacityBlockDurationHours, start, end, limit)
		}
	}
	// A --to past 8 weeks plus the length is still refused, before any call.
	calls := cs.Calls.Load()
	code, _, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "9w", "--region", "us-east-1", "--to", "+18w")
	if code != 2 || !strings.Contains(errs, "8 weeks plus the block's length") || cs.Calls.Load() != calls {
		t.Errorf("--to +18w for a 9-week block: exit %d, stderr %q, %d calls", code, errs, cs.Calls.Load()-calls)
	}
}

// cli runs `gpublock offerings` as the program does, with `gpublock sim` to serve it.
var cli = cmdtest.NewCLI(NewCmdOfferings, cmdtest.Cmd(sim.NewCmdSim))

// parseOfferings reads and checks every flag that can be checked without the backend, as
// the command does, for the tests of parsing.
func parseOfferings(args []string, stderr io.Writer) (*Options, cmdutil.OutputFormat, error) {
	var got *Options
	var format cmdutil.OutputFormat
	err := cmdtest.ParseCommand(args, stderr, func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdOfferings(f, func(a *Options) error {
			got, format = a, a.Format
			return nil
		})
	})
	return got, format, err
}

// offerings --all-zones also searches the zones the account has not opted in to: the
// Atlanta Local Zone's p5 blocks show then, with their ZoneType, and never without it.
func TestOfferingsAllZones(t *testing.T) {
	cs := cmdtest.StartSim(t)
	localRows := func(extra ...string) int {
		t.Helper()
		n := 0
		for d := 0; d < 30 && n == 0; d++ {
			from := cmdtest.SimStart.Add(time.Duration(d) * 24 * time.Hour)
			args := append([]string{"offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "p5.48xlarge",
				"--duration", "1d", "--from", from.Format(time.RFC3339), "--to", from.Add(7 * 24 * time.Hour).Format(time.RFC3339), "-o", "json"}, extra...)
			for _, r := range cmdtest.RunJSON[[]struct{ AvailabilityZone, ZoneType string }](t, cli, args...) {
				switch r.ZoneType {
				case "local-zone":
					n++
				case "availability-zone":
				default:
					t.Fatalf("row in %s has ZoneType %q", r.AvailabilityZone, r.ZoneType)
				}
			}
		}
		return n
	}
	if n := localRows(); n != 0 {
		t.Errorf("%d Local Zone rows without --all-zones", n)
	}
	if n := localRows("--all-zones"); n == 0 {
		t.Error("no Local Zone row with --all-zones in 30 days")
	}
}

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
	args := append([]string{"offerings", "--endpoint-url", cs.URL}, fourWeeksOf("u-p6e-gb200x72")...)
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
	for _, r := range csvOf(t, args, rows) {
		rec, j := r.cell, r.json
		wantOD, wantBE := "", ""
		if j.OnDemandHourlyPrice != nil {
			wantOD = j.OnDemandHourlyPrice.String()
		}
		if j.BreakEvenUtilization != nil {
			wantBE = jsonNumber(*j.BreakEvenUtilization)
		}
		got := []string{rec["EffectiveHourlyPrice"], rec["AcceleratorHourlyPrice"], rec["OnDemandHourlyPrice"], rec["BreakEvenUtilization"], rec["PriceSource"]}
		want := []string{j.EffectiveHourlyPrice.String(), j.AcceleratorHourlyPrice.String(), wantOD, wantBE, j.PriceSource}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("csv %s: %v, json %v", j.CapacityBlockOfferingId, got, want)
		}
	}
}

// csvRecord is a record of the CSV, column by column, and the offering of the JSON it names.
type csvRecord struct {
	cell map[string]string
	json printers.OfferingJSON
}

// csvOf runs args with -o csv and pairs each record with the offering of rows (the JSON of
// the same search) it names; a record of none, or not one a row, fails the test.
func csvOf(t *testing.T, args []string, rows []printers.OfferingJSON) []csvRecord {
	t.Helper()
	code, out, _ := cli.Run(append(args[:len(args):len(args)], "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs)-1 != len(rows) {
		t.Fatalf("csv: exit %d, %v, %d records for %d offerings", code, err, len(recs)-1, len(rows))
	}
	byID := map[string]printers.OfferingJSON{}
	for _, r := range rows {
		byID[r.CapacityBlockOfferingId] = r
	}
	var paired []csvRecord
	for _, rec := range recs[1:] {
		cell := map[string]string{}
		for i, h := range recs[0] {
			cell[h] = rec[i]
		}
		j, ok := byID[cell["CapacityBlockOfferingId"]]
		if !ok {
			t.Fatalf("csv row %v is not in the json", rec)
		}
		paired = append(paired, csvRecord{cell, j})
	}
	return paired
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
