package flows

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/dialog/compare"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
	"github.com/gpublock/gpublock/ui/snapshot/snapshottest"
)

// ctrl+g writes the screen as an SVG into the current directory, named by what it shows
// and when, never over a file; a real parser reads it (rsvg-convert where installed, and
// required under GPUBLOCK_REQUIRE_SVG_RENDERER=1; Go's encoding/xml always), and its text
// holds the table's rows.
func TestSnapshotHoldsTheTable(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	opts := testOptions(nil)
	opts.NoColor = false
	m := update(ui.New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	offs := uitest.SyntheticOfferings(8)
	m = withResults(m, offs)

	save := func(m ui.Model) ui.Model {
		t.Helper()
		mm, cmd := m.Update(uitest.Key("ctrl+g"))
		if cmd == nil {
			t.Fatal("ctrl+g gave no command")
		}
		return update(mm.(ui.Model), cmd())
	}
	m = save(m)
	name := filepath.Join(dir, "gpublock-offerings-"+testNow.UTC().Format(model.LayoutFileStamp)+".svg")
	if !strings.Contains(m.Inspect().Flash, name) {
		t.Errorf("the status line does not say the path %s: %q", name, m.Inspect().Flash)
	}
	doc, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := snapshottest.Lines(t, doc)
	text := strings.Join(lines, "\n")
	for _, o := range offs {
		if !uitest.RowWithAll(text, o.InstanceType, o.AvailabilityZone, o.Fee.Dollars()) {
			t.Errorf("no line of the SVG holds the row %s %s %s:\n%s", o.InstanceType, o.AvailabilityZone, o.Fee.Dollars(), text)
		}
	}
	if !strings.Contains(string(doc), `fill="#`) || strings.Count(string(doc), "fill=") < 10 {
		t.Error("the SVG keeps no colours")
	}
	snapshottest.Render(t, doc)

	// A second picture in the same minute goes beside the first.
	before, _ := os.ReadFile(name)
	m = save(m)
	if after, _ := os.ReadFile(name); string(after) != string(before) {
		t.Error("the second picture was written over the first")
	}
	if !strings.Contains(m.Inspect().Flash, strings.TrimSuffix(name, ".svg")+"-2.svg") {
		t.Errorf("the second picture is not -2: %q", m.Inspect().Flash)
	}
}

// A search of the default form (p5.48xlarge in us-east-1, where the catalog has an
// on-demand price) shows the pricing columns as pricing.Compare has them; v opens the chart
// with its reading; two marked rows compare on one chart; B sorts by break-even.
func TestPricingFlow(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := readyScreen(t, testOptions(b), 200, 50)
	s.Press("enter")
	if s.FoundCount() < 2 {
		t.Fatal("the search found fewer than two offerings; the flow needs two to compare")
	}
	table := s.WaitText("Break-even")

	s.Press("v")
	chart := s.WaitText(pricing.UtilizationChartTitle)

	s.Press("m", "j", "m", "c")
	compare := s.WaitText("Compare 2 offerings")
	s.Press("esc")
	s.WaitFor("the compare chart to close", func(text string) bool { return !strings.Contains(text, "Compare 2 offerings") })

	s.Press("v", "esc", "B")
	s.WaitText("Break-even▲")
	m := final(s)

	// Sorted by break-even: the exact utilizations never fall, and rows without one are last.
	if col, desc := m.Inspect().Search.Table().Sort(); col != offerings.ColBreakEven || desc {
		t.Fatalf("sort %s desc=%v, want break-even ascending", offerings.ColumnName(col), desc)
	}
	var prev pricing.Comparison
	seenNone := false
	for i := 0; i < m.Inspect().Search.Table().Visible(); i++ {
		rc := m.Inspect().Search.Table().RowComparison(i)
		switch {
		case !rc.BreakEvenUtilization.Valid():
			seenNone = true
		case seenNone:
			t.Errorf("row %d has a break-even after rows without one", i)
		case i > 0 && rc.BreakEvenUtilization.Cmp(prev.BreakEvenUtilization) < 0:
			t.Errorf("row %d break-even %s is below the row before it (%s)", i, rc.BreakEvenUtilization, prev.BreakEvenUtilization)
		}
		prev = rc
	}

	// The first row, as it was when the table was first drawn (sorted by start).
	// (The table's slices are shared by copies: this re-sorts m.Inspect().Search.Table(), after its order is checked.)
	first := m.Inspect().Search.Table()
	first.SortBy(offerings.ColStart)
	c := pricing.Compare(nil, first.Row(0))
	if c.NoOnDemand || !c.BreakEvenUtilization.Valid() {
		t.Fatalf("no on-demand comparison for %s in %s: %s", c.Offering.InstanceType, c.Offering.Region, c.NoOnDemandReason)
	}
	var row string
	for _, l := range strings.Split(table, "\n") {
		if strings.Contains(l, c.Offering.Fee.Dollars()) && strings.Contains(l, c.Offering.Start.UTC().Format("Jan 02 15:04")) {
			row = l
			break
		}
	}
	// The core columns of the priority (offerings/columns.go): the on-demand rate is in the detail.
	for _, want := range []string{c.Offering.InstanceHourlyRate().Rate(), fmt.Sprintf("%d%% %s", c.BreakEvenPercent(), pricing.BreakEvenBar(c, 5))} {
		if row == "" || !strings.Contains(row, want) {
			t.Errorf("the row of %s lacks %q: %q\n%s", c.Offering.ID, want, row, table)
		}
	}

	// The chart is of the row under the cursor then, the first one; its reading is under it.
	flat := strings.Join(strings.Fields(chart), " ")
	for _, want := range []string{pricing.CostChartTitle, "Chart · v details", firstWords(c.Reading(), 6)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the chart lacks %q:\n%s", want, chart)
		}
	}

	// Both marked offerings have a legend on the compare chart.
	for _, want := range []string{"A " + c.Offering.InstanceType + " " + c.Offering.Region, "B " + c.Offering.InstanceType, "cheapest per accelerator-hour"} {
		if !strings.Contains(compare, want) {
			t.Errorf("the compare chart lacks %q:\n%s", want, compare)
		}
	}
	if n := len(m.Inspect().Search.Table().Marked()); n != 2 {
		t.Errorf("%d offerings marked, want 2", n)
	}
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// chartStates are the states of the charts, for TestEverySizeFits.
func chartStates(base, results ui.Model) map[string]ui.Model {
	return map[string]ui.Model{
		"chart":          update(results, uitest.Key("j"), uitest.Key("v")),
		"chart-narrowed": update(results, uitest.Key("tab"), uitest.Key("v"), uitest.Key("esc")),
		// Marked in the results: in the detail pane j and G scroll the detail.
		"compare": updateOpen(results, uitest.Key("m"), uitest.Key("j"), uitest.Key("m"), uitest.Key("j"), uitest.Key("m"), uitest.Key("c")),
		"marked":  update(results, uitest.Key("m"), uitest.Key("G"), uitest.Key("m")),
		"nothing-marked": func() ui.Model {
			m := base
			return update(focusResults(nil, m), uitest.Key("v"), uitest.Key("c"), uitest.Key("m"))
		}(),
	}
}

// c opens the compare chart of the marked offerings over the screen, and esc closes it. The
// chart's keys on the screen are ui/screen/search's TestChartKeys.
func TestCompareChartOpensAndCloses(t *testing.T) {
	base := ui.New(testOptions(nil))
	states := chartStates(base, withResults(base, uitest.SyntheticOfferings(500)))
	if _, ok := states["compare"].Inspect().Dialog.(compare.Model); !ok {
		t.Fatal("c with three marked offerings opened no compare chart")
	}
	if n := len(states["compare"].Inspect().Dialog.(compare.Model).Compared()); n != 3 {
		t.Errorf("the compare chart has %d offerings, want 3", n)
	}
	if d := update(states["compare"], uitest.Key("esc")).Inspect().Dialog; d != nil {
		t.Fatal("esc does not close the compare chart")
	}
}

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
	s := readyScreen(t, opts, 160, 48)
	s.Press("ctrl+s")
	s.WaitText("Nothing to export")
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("nothing to export, yet the directory holds %q", files)
	}
	fillForm(s)
	searchFound(s)
	feeSortedIn(s, "us-east-2")
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
	s := readyScreen(t, testOptions(b), 160, 48)
	searchFound(s)
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
	s := readyScreen(t, testOptions(b), 160, 48)
	searchFound(s)
	s.Press("/")
	s.Type("no-such-offering")
	s.Press("enter", "ctrl+s")
	s.WaitText("the filter hides every offering")
	final(s)
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("the directory holds %q", files)
	}
}

// The watch against the emulator, through the whole program: its rounds, its bell and its
// desktop notifications. The screen's own rounds are ui/screen/search's watch tests.

// watchStates are the watch's states for the sizes test. Each is built from a search of its
// own: a round's rows replace the table's in the arrays its copies share. The watch runs
// every millisecond, so that its round starts from the tick its own timer sends.
func watchStates(t *testing.T) map[string]ui.Model {
	opts := testOptions(nil)
	opts.WatchEvery = time.Millisecond
	base := ui.New(opts)
	watching := func() (ui.Model, tea.Cmd) {
		mm, cmd := withResults(base, uitest.SyntheticOfferings(500)).Update(uitest.Key("w"))
		return mm.(ui.Model), cmd
	}
	// running is the watch's round under way, and the id its search's messages carry.
	running := func() (ui.Model, int) {
		m, timer := watching()
		return startedSearchBy(m, watchTick(t, timer))
	}
	m, id := running()
	offs := uitest.SyntheticOfferings(520)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	news := update(m, searchscreen.EventsMsg{ID: id, Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	on, _ := watching()
	round, _ := running()
	return map[string]ui.Model{
		"watching":          on,
		"watch round":       round,
		"watch news":        news,
		"watch news detail": update(news, uitest.Key("G"), uitest.Key("d")),
	}
}

// watchTick is the tick among the messages cmd sends.
func watchTick(t *testing.T, cmd tea.Cmd) (tick searchscreen.WatchTickMsg) {
	t.Helper()
	found := false
	uitest.Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		tick, found = msg.(searchscreen.WatchTickMsg)
		return nil, found
	})
	if !found {
		t.Fatal("w set no timer for the watch's round")
	}
	return tick
}

var (
	watchRoundRE = regexp.MustCompile(`Watch round (\d+) at`)
	watchingRE   = regexp.MustCompile(`watching · (next \d\d:\d\d UTC|searching…)`)
)

// waitRound waits for the status line to tell of a round after round n, and returns its
// number and the screen.
func waitRound(s *screen, n int) (int, string) {
	s.T.Helper()
	var got int
	text := s.WaitFor("watch round "+strconv.Itoa(n+1), func(text string) bool {
		m := watchRoundRE.FindStringSubmatch(text)
		if m == nil {
			return false
		}
		got, _ = strconv.Atoi(m[1])
		return got > n
	})
	return got, text
}

// Against the emulator: a watch over every region selling p5.48xlarge, one of them down.
// When it comes back, the next round finds its offerings, and only those ring, once, with
// the words of the notification; the rounds after find nothing new and ring nothing. Nothing
// is bought.
func TestWatchRingsOnceForNewOfferings(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-west-2"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := readyScreen(t, opts, 160, 48)
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	before := s.FoundCount()
	s.WaitText("1 region failed")
	s.Press("w")
	text := s.WaitText("watching")
	s.Press("x") // no key: it clears the answer to w, so the status line tells the rounds
	if !watchingRE.MatchString(text) {
		t.Errorf("the header does not say when the watch runs next:\n%s", text)
	}
	n, text := waitRound(s, 0)
	if !strings.Contains(text, "nothing new") {
		t.Errorf("a round of the same answer found news:\n%s", text)
	}
	sim.SetFaults(ec2sim.Faults{})
	s.WaitRaw("the notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })
	s.Press("x")
	// The round that rang, or one after it; then two more, which ring nothing.
	n, _ = waitRound(s, n)
	n, _ = waitRound(s, n)
	rounds, last := waitRound(s, n)
	m := final(s)

	if got := bytes.Count(s.Raw, []byte(osc9)); got != 1 {
		t.Errorf("%d desktop notifications, want 1", got)
	}
	if got := bytes.Count(s.Raw, []byte{'\a', '\x1b', ']', '9'}); got != 1 {
		t.Errorf("%d bells before a notification, want 1", got)
	}
	var west []model.Offering
	for i := 0; i < m.Inspect().Search.Table().Len(); i++ {
		if o := m.Inspect().Search.Table().Row(i); o.Region == "us-west-2" {
			west = append(west, o)
		}
	}
	if len(west) == 0 || m.Inspect().Search.Table().Len() != before+len(west) {
		t.Fatalf("after the region came back: %d rows, %d of them us-west-2's; before it %d", m.Inspect().Search.Table().Len(), len(west), before)
	}
	low := west[0].Fee
	for _, o := range west {
		if o.Fee.Cmp(low) < 0 {
			low = o.Fee
		}
	}
	want := "gpublock: " + strconv.Itoa(len(west)) + " new p5.48xlarge offerings in us-west-2 (from " + low.Dollars() + ")"
	if !bytes.Contains(s.Raw, []byte(osc9+want)) {
		i := bytes.Index(s.Raw, []byte(osc9))
		t.Errorf("the notification is not %q: %q", want, s.Raw[i:min(len(s.Raw), i+120)])
	}
	// The screen says the watch is on, and which round it ran last.
	if on := watchingRE.MatchString(last); !on || rounds < 3 {
		t.Errorf("watch on=%v after %d rounds:\n%s", on, rounds, last)
	}
	list, err := b.Blocks(context.Background(), model.RegionsSelling("p5.48xlarge"))
	if err != nil || len(list.Blocks) != 0 {
		t.Errorf("the watch left %d blocks (err %v); it must buy nothing", len(list.Blocks), err)
	}
}

// With notifications off (n, on the search screen too) a round's news is shown, silently.
func TestWatchNotificationsOff(t *testing.T) {
	// EC2 down, STS up: no identity error arrives later to take the flash waited for.
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"ec2:us-east-1"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitText("SIMULATED")
	s.Press("enter")
	s.WaitText("failed in every region")
	s.Press("n", "w")
	s.WaitText("notifications are off")
	sim.SetFaults(ec2sim.Faults{})
	text := s.WaitText("new p5.48xlarge offering")
	m := final(s)
	if m.Inspect().Search.Table().Len() == 0 || !strings.Contains(text, "Offerings · ") {
		t.Errorf("the round's offerings are not in the table:\n%s", text)
	}
	if bytes.Contains(s.Raw, []byte(osc9)) || bytes.Count(s.Raw, []byte{'\a'}) > bytes.Count(s.Raw, []byte("\x1b]")) {
		t.Error("a bell or a notification with notifications off")
	}
}
