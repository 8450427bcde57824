package flows

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
	"github.com/gpublock/gpublock/ui"
)

// cmdCSVHeader is the header gpublock offerings -o csv writes (cmd/gpublock's tests guard
// its output); the TUI's file must read the same in a spreadsheet.
const cmdCSVHeader = "Region,AvailabilityZone,InstanceType,InstanceCount,StartDate,EndDate," +
	"CapacityBlockDurationHours,CapacityBlockDurationMinutes,UpfrontFee,CurrencyCode,Tenancy,CapacityBlockOfferingId," +
	"PriceUnit,EffectiveHourlyPrice,AcceleratorHourlyPrice,OnDemandHourlyPrice,BreakEvenUtilization,PriceSource," +
	"UltraserverType,UltraserverCount,CapacityBlockOfferingSegments"

var wroteRE = regexp.MustCompile(`Wrote (\d+) offerings? to`)

// exportPrices is a catalog whose H200 on-demand prices in us-east-2 are no catalog's, so
// that a file compared with any other catalog than the table's cannot pass.
func exportPrices(t *testing.T) (*pricing.Catalog, model.Money) {
	t.Helper()
	od, err := model.ParseMoney("77.77")
	if err != nil {
		t.Fatal(err)
	}
	cat := pricing.Embedded()
	for _, typ := range []string{"p5e.48xlarge", "p5en.48xlarge"} {
		cat = cat.With(pricing.Row{Kind: pricing.KindOnDemand, InstanceType: typ, Region: "us-east-2", Status: pricing.StatusPrice,
			Hourly: od, Source: pricing.SourcePriceListAPI, Date: "2026-11-30"})
	}
	return cat, od
}

// ctrl+s writes the table as shown (filtered, sorted) in the format of gpublock offerings
// -o csv, compared with the table's own catalog; before a search there is nothing to write.
func TestExportCSV(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	cat, od := exportPrices(t)
	opts := testOptions(b)
	opts.Prices = cat
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitText("123456789012")
	s.Press("ctrl+s")
	s.WaitText("Nothing to export")
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("nothing to export, yet the directory holds %q", files)
	}
	fillForm(s)
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the search found nothing; the export needs offerings")
	}
	s.Press("F")
	s.WaitText("Upfront fee▲")
	s.Press("/")
	s.Type("us-east-2")
	s.Press("enter")
	s.WaitText("filtered from")
	s.Press("ctrl+s")
	text := s.WaitFor("the export's answer", func(text string) bool { return wroteRE.MatchString(text) })
	said, _ := strconv.Atoi(wroteRE.FindStringSubmatch(text)[1])
	m := final(s)

	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	want := filepath.Join(dir, "gpublock-offerings-20261201-090000.csv") // testNow, UTC
	if len(files) != 1 || files[0] != want {
		t.Fatalf("the directory holds %q, want only %s", files, want)
	}
	f, err := os.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != cmdCSVHeader {
		t.Fatalf("header %q, want gpublock offerings -o csv's %q", recs, cmdCSVHeader)
	}
	rows := recs[1:]
	n, total := m.Inspect().Search.Table().Visible(), m.Inspect().Search.Table().Len()
	if n == 0 || n >= total || len(rows) != n || said != n {
		t.Fatalf("the file has %d rows, the flash said %d; the table shows %d of %d (want a filtered, non-empty table, all of it in the file)", len(rows), said, n, total)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	withOD := 0
	for i, r := range rows {
		o := m.Inspect().Search.Table().Row(i)
		if r[col["CapacityBlockOfferingId"]] != o.ID || r[col["UpfrontFee"]] != o.Fee.String() || r[col["Region"]] != "us-east-2" {
			t.Errorf("row %d: id %s fee %s in %s; the table shows %s fee %s", i, r[col["CapacityBlockOfferingId"]], r[col["UpfrontFee"]], r[col["Region"]], o.ID, o.Fee)
		}
		if got, wantRec := strings.Join(r, ","), strings.Join(export.CSVRecord(o, pricing.Compare(cat, o)), ","); got != wantRec {
			t.Errorf("row %d:\n got %s\nwant %s", i, got, wantRec)
		}
		if r[col["OnDemandHourlyPrice"]] == od.String() {
			withOD++
		}
		if i > 0 && o.Fee.Cmp(m.Inspect().Search.Table().Row(i-1).Fee) < 0 {
			t.Errorf("row %d fee %s below the row before it in a fee-ascending sort", i, o.Fee)
		}
	}
	if withOD == 0 {
		t.Errorf("no row has the table's catalog's on-demand price %s", od)
	}
}

// A directory the file cannot be created in gives the reason, and leaves no file behind.
func TestExportUnwritable(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// root writes into a read-only directory, so as root the directory is removed instead.
	if os.Geteuid() == 0 {
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the default search found nothing")
	}
	s.Press("ctrl+s")
	text := s.WaitText("cannot write the CSV")
	if strings.Contains(text, "Wrote") {
		t.Errorf("the screen says both:\n%s", text)
	}
	// The reason, from the file system (wrapped, the words may fall on two lines).
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "no such file or directory") && !strings.Contains(flat, "permission denied") {
		t.Errorf("the error does not say why:\n%s", text)
	}
	final(s)
	for _, d := range []string{dir, parent} {
		if files, _ := filepath.Glob(filepath.Join(d, "*.csv")); len(files) != 0 {
			t.Errorf("%s holds %q after a failed export", d, files)
		}
	}
}

// A filter that hides every row leaves nothing to export, and no file.
func TestExportFilteredEmpty(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the default search found nothing")
	}
	s.Press("/")
	s.Type("no-such-offering")
	s.Press("enter", "ctrl+s")
	s.WaitText("the filter hides every offering")
	final(s)
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("the directory holds %q", files)
	}
}
