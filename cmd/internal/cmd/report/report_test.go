package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// Each bad flag is exit 2 with a line naming it, before anything is read.
func TestReportBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.svg")
	if err := os.WriteFile(existing, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", "yaml"}, `-o "yaml": allowed table, json or csv`},
		{[]string{"--from", "2026-13"}, `--from "2026-13": want a date such as 2026-11-01, or a month such as 2026-11`},
		{[]string{"--from", "2026-11-31"}, `--from "2026-11-31"`},
		{[]string{"--to", "yesterday"}, `--to "yesterday"`},
		{[]string{"--from", "2026-12", "--to", "2026-11"}, "--from 2026-12 is after --to 2026-11"},
		{[]string{"--from", "2026-11-05", "--to", "2026-11-04"}, "the window would be empty"},
		{[]string{"--from", "2027-01"}, "--from 2027-01 is not before now (2026-12-01 08:00 UTC)"},
		{[]string{"--by-tag", "team,,project"}, `--by-tag "team,,project": an empty key`},
		{[]string{"--from", "0001-01-01"}, "--from 0001-01-01 is before 2023-11"},
		{[]string{"--from", "2023-10"}, "--from 2023-10 is before 2023-11"},
		{[]string{"--to", "0000-12-31"}, "--to 0000-12-31 is before 2023-11"},
		{[]string{"--svg", ""}, "--svg \"\": give a file name"},
		{[]string{"--force"}, "--force is used with --svg FILE"},
		{[]string{"--svg", existing}, "exists; give another name, or --force"},
		{[]string{"--svg", filepath.Join(dir, "no", "such.svg")}, "does not exist"},
		{[]string{"--svg", dir}, "is a directory"},
		{[]string{"--region", "moon-1"}, `"moon-1" is not a Capacity Block region`},
		{[]string{"stray"}, "stray"},
	} {
		g := &given{}
		code, out, errs := runGiven(t, g, cs.URL, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
		if !g.from.IsZero() {
			t.Errorf("%v: the report was read", tc.args)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Errorf("the existing SVG was written over: %q", b)
	}
}

// The window asked for: the defaults on the backend's clock, both ends included, and never
// past now.
func TestReportWindow(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		from, to         string
		wantFrom, wantTo time.Time
		capped           bool
	}{
		{"", "", day("2026-01-01"), now, false},
		{"", "2026-11", day("2025-12-01"), day("2026-12-01"), false},
		{"", "2026-06-30", day("2025-07-01"), day("2026-07-01"), false},
		{"2026-11", "", day("2026-11-01"), now, false},
		{"2026-11", "2026-11", day("2026-11-01"), day("2026-12-01"), false},
		{"2026-11-03", "2026-11-03", day("2026-11-03"), day("2026-11-04"), false},
		{"2026-06", "2027-03", day("2026-06-01"), now, true},
	} {
		w, err := parseWindow(tc.from, tc.to)
		if err != nil {
			t.Fatalf("%q–%q: %v", tc.from, tc.to, err)
		}
		from, to, capped, err := w.resolve(now)
		if err != nil || !from.Equal(tc.wantFrom) || !to.Equal(tc.wantTo) || capped != tc.capped {
			t.Errorf("--from %q --to %q: [%s, %s) capped %v, %v; want [%s, %s) capped %v", tc.from, tc.to, from, to, capped, err,
				tc.wantFrom, tc.wantTo, tc.capped)
		}
	}
}

func TestReportTagKeys(t *testing.T) {
	for in, want := range map[string]string{"team,project": "team|project", " team , team,cost-centre": "team|cost-centre", "": ""} {
		got, err := tagKeys(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("tagKeys(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// givenInput is a block used half in us-east-1, one bought elsewhere in us-west-2, and a
// region that could not be read.
func givenInput() report.Input {
	start := time.Date(2026, 11, 10, 11, 30, 0, 0, time.UTC)
	return report.Input{
		Now: cmdtest.SimStart,
		Reservations: []report.Reservation{
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-aaa", InstanceType: "p5.48xlarge", Count: 2,
				Start: start, End: start.Add(48 * time.Hour), ReservedHours: 96, State: model.StateExpired, Tags: map[string]string{"team": "ml"},
				Payments: []report.Payment{{At: start.Add(-time.Hour), Kind: report.Purchase, Amount: model.MustMoney("4800"), Known: true, Origin: report.FromBoth}},
				Use:      report.Use{Known: true, ReservedHours: 96, UsedHours: 48}},
			{Account: "111111111111", Region: "us-west-2", Source: model.SourceCapacityBlock, ID: "cr-bbb", InstanceType: "p5.48xlarge", Count: 1,
				Start: start, End: start.Add(24 * time.Hour), ReservedHours: 24, State: model.StateExpired,
				Payments: []report.Payment{{At: start.Add(-2 * time.Hour), Kind: report.Purchase}},
				Use:      report.Use{Known: true, ReservedHours: 24, UsedHours: 0}},
		},
		Problems: []string{"eu-north-1: could not be read: the region is down"},
	}
}

func TestReportOutputs(t *testing.T) {
	cs := cmdtest.StartSim(t)
	g := &given{in: givenInput()}
	code, out, errs := runGiven(t, g, cs.URL, "-o", "json", "--from", "2026-11")
	if code != 0 || !strings.Contains(errs, "gpublock report: not read: eu-north-1: could not be read") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// A window that ends now is asked as one (a zero end): the backend's own now, inclusive.
	if !g.from.Equal(day("2026-11-01")) || !g.to.IsZero() {
		t.Errorf("asked [%s, %s), want from November up to now", g.from, g.to)
	}
	var doc struct {
		Paid            *string
		PaidKnown       string
		UnknownPayments int
		TagKeys         []string
		Reservations    []struct {
			ReservationId  string
			OnDemandHourly *string
			OnDemandCost   *string
			Cost           *string
			UsedHours      *float64
		}
		UnknownAmounts []struct{ ReservationId string }
		Problems       []string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Paid != nil || doc.PaidKnown != "4800.00" || doc.UnknownPayments != 1 || len(doc.UnknownAmounts) != 1 || doc.UnknownAmounts[0].ReservationId != "cr-bbb" ||
		len(doc.Problems) != 1 || strings.Join(doc.TagKeys, ",") != "team,project" || len(doc.Reservations) != 2 {
		t.Fatalf("report %+v", doc)
	}
	// the used hours are priced on-demand from the catalog, as the rest of the program does
	od, ok := pricing.Embedded().ReservationOnDemand(model.SourceCapacityBlock, "p5.48xlarge", "us-east-1")
	a := doc.Reservations[0]
	if !ok || a.OnDemandHourly == nil || *a.OnDemandHourly != od.String() || a.OnDemandCost == nil || *a.OnDemandCost != od.Mul(48).String() {
		t.Errorf("cr-aaa's on-demand: %v × 48 h, want %s", a.OnDemandCost, od)
	}
	if b := doc.Reservations[1]; b.Cost != nil || b.UsedHours == nil || *b.UsedHours != 0 {
		t.Errorf("cr-bbb: cost %v (want unknown), used %v (want 0)", b.Cost, b.UsedHours)
	}

	// --region narrows the report: the backend is asked for that region alone
	code, out, _ = runGiven(t, g, cs.URL, "-o", "csv", "--region", "us-east-1", "--by-tag", "team")
	if !slices.Equal(g.regions, []string{"us-east-1"}) {
		t.Errorf("asked regions %v, want us-east-1", g.regions)
	}
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "cr-aaa") || strings.Contains(out, "cr-bbb") ||
		!strings.Contains(strings.SplitN(out, "\n", 2)[0], "Tag:team") {
		t.Errorf("csv of us-east-1: exit %d\n%s", code, out)
	}
	// the CSV has no place for the sentence naming the unknown amounts: stderr has it
	if code, _, errs := runGiven(t, g, cs.URL, "-o", "csv"); code != 0 || !strings.Contains(errs, "1 payment of unknown amount, not counted in the totals: cr-bbb") {
		t.Errorf("csv: exit %d, stderr %q", code, errs)
	}
	code, out, _ = runGiven(t, g, cs.URL)
	if code != 0 || !strings.HasPrefix(out, "What was paid and what was used, 2026-01-01 00:00 UTC to 2026-12-01 08:00 UTC (now)") ||
		!strings.Contains(out, "PAYMENTS OF UNKNOWN AMOUNT") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
}

// Nothing read is exit 1 with nothing on stdout: an empty report would read as "nothing paid".
func TestReportNothingRead(t *testing.T) {
	cs := cmdtest.StartSim(t)
	g := &given{err: errors.New("no region answered")}
	for _, format := range []string{"table", "json", "csv"} {
		code, out, errs := runGiven(t, g, cs.URL, "-o", format)
		if code != 1 || out != "" || !strings.Contains(errs, "nothing could be read: no region answered") {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q", format, code, out, errs)
		}
	}
}

func TestReportSVGFile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	g := &given{in: givenInput()}
	path := filepath.Join(t.TempDir(), "spend.svg")
	code, _, errs := runGiven(t, g, cs.URL, "--svg", path, "-o", "json")
	if code != 0 || !strings.Contains(errs, "wrote the charts to "+path) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	first := wellFormed(t, path)
	if !bytes.Contains(first, []byte("cr-aaa")) {
		t.Error("the SVG lacks the reservation")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
	// kept without --force; written over with it
	g.in.Reservations = g.in.Reservations[:1]
	if code, _, errs := runGiven(t, g, cs.URL, "--svg", path); code != 2 || !strings.Contains(errs, "--force") {
		t.Errorf("again without --force: exit %d, %q", code, errs)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, first) {
		t.Error("the SVG changed without --force")
	}
	if code, _, errs := runGiven(t, g, cs.URL, "--svg", path, "--force"); code != 0 {
		t.Errorf("--force: exit %d, %q", code, errs)
	}
	if b := wellFormed(t, path); bytes.Contains(b, []byte("cr-bbb")) {
		t.Error("--force did not write over the SVG")
	}
}

// wellFormed reads the SVG file at path and fails the test unless it is well-formed XML
// with an svg root.
func wellFormed(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q", path, root)
	}
	return b
}

// cli runs `gpublock report` as the program does, with the commands its tests run to buy,
// extend and launch into what it reports on.
var cli = cmdtest.NewCLI(NewCmdReport, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks), cmdtest.Cmd(launch.NewCmdLaunch), cmdtest.Cmd(extend.NewCmdExtend))

// given is the report input a test's backend answers, or err.
type given struct {
	in      report.Input
	err     error
	regions []string // what it was asked
	from    time.Time
	to      time.Time
}

func (g *given) Report(_ context.Context, regions []string, from, to time.Time) (report.Input, error) {
	g.regions, g.from, g.to = regions, from, to
	in := g.in
	if len(regions) > 0 { // as a backend lists only the regions asked
		in.Reservations = slices.DeleteFunc(slices.Clone(in.Reservations), func(r report.Reservation) bool { return !slices.Contains(regions, r.Region) })
	}
	return in, g.err
}

// runGiven runs `gpublock report args...` against the emulator at url (for its clock), with
// g answering the report instead of the program's sources.
func runGiven(t *testing.T, g *given, url string, args ...string) (int, string, string) {
	t.Helper()
	c := cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdReport(f, func(o *Options) error {
			o.Reporter = func(*awsapi.Client) Reporter { return g }
			return cmdutil.CodeError(reportRun(context.Background(), o))
		})
	}}
	return c.Run(append([]string{"report", "--endpoint-url", url}, args...)...)
}
