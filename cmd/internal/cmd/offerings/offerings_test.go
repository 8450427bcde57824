package offerings

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
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
	code, out, errs := cli.Run("offerings", "--demo", "--type", "p5.48xlarge", "--duration", "2d", "--region", "us-east-1", "--to", "+2w", "-o", "json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
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

// The table's $/INST-HOUR column is per instance on every row: an UltraServer's fee is
// spread over its member instances, not shown per UltraServer under that header.
func TestOfferingsTableUltraServerRatePerInstance(t *testing.T) {
	cs := cmdtest.StartSim(t)
	args := []string{"offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "u-p6e-gb200x72", "--duration", "2d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-29"}
	code, out, errs := cli.Run(append(args, "-o", "json")...)
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("exit %d, %q\n%s", code, errs, out)
	}
	code, table, _ := cli.Run(args...)
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
	args := []string{"offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "u-p6e-gb200x36", "--duration", "2d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-29"}
	code, out, _ := cli.Run(append(args, "-o", "json")...)
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("json: exit %d\n%s", code, out)
	}
	code, out, _ = cli.Run(append(args, "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs)-1 != len(rows) {
		t.Fatalf("csv: exit %d, %v, %d records", code, err, len(recs))
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
		j := byID[rec[col["CapacityBlockOfferingId"]]]
		got := strings.Join([]string{rec[col["CapacityBlockOfferingId"]], rec[col["InstanceType"]], rec[col["InstanceCount"]], rec[col["UltraserverType"]], rec[col["UltraserverCount"]]}, "|")
		want := strings.Join([]string{j.CapacityBlockOfferingId, "p6e-gb200.36xlarge", "9", "u-p6e-gb200x36", "1"}, "|")
		if got != want {
			t.Errorf("csv %s, want %s", got, want)
		}
	}
}

// AWS's 8-week limit is on the start: a long block that starts within it ends later, and the
// default window lets the search find it.
func TestOfferingsLongBlocksPastEightWeeks(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "9w", "--region", "us-east-1", "-o", "json")
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("a 9-week search: exit %d, stderr %q, stdout %s", code, errs, out)
	}
	limit := cs.Emulator.Now().Add(model.MaxLeadTime)
	for _, r := range rows {
		start, end := cmdtest.MustTime(t, r.StartDate), cmdtest.MustTime(t, r.EndDate)
		if r.CapacityBlockDurationHours != 9*7*24 || !start.Before(limit) || !end.After(limit) {
			t.Errorf("offering %s: %d hours from %s to %s; want 9 weeks starting before %s", r.CapacityBlockOfferingId, r.CapacityBlockDurationHours, start, end, limit)
		}
	}
	// A --to past 8 weeks plus the length is still refused, before any call.
	calls := cs.Calls.Load()
	code, _, errs = cli.Run("offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "9w", "--region", "us-east-1", "--to", "+18w")
	if code != 2 || !strings.Contains(errs, "8 weeks plus the block's length") || cs.Calls.Load() != calls {
		t.Errorf("--to +18w for a 9-week block: exit %d, stderr %q, %d calls", code, errs, cs.Calls.Load()-calls)
	}
}
