package flows

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
)

// pressReport sends a key to the root and runs what the report screen starts (its read)
// until it is done; the spinner's tick is run and dropped, and no other screen's command is
// started by the keys the tests press here.
func pressReport(t *testing.T, m ui.Model, k tea.KeyPressMsg) ui.Model {
	t.Helper()
	mm, cmd := m.Update(k)
	m = mm.(ui.Model)
	uitest.Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		if !reportscreen.Owns(msg) {
			return nil, false
		}
		mm, next := m.Update(msg)
		m = mm.(ui.Model)
		return next, false
	})
	return m
}

// 4 shows the report screen, which reads the report from the program's backend and draws
// the figures `gpublock report` prints; [ and ] go round every screen through it; its keys
// are in the footer and in help.
func TestReportScreen(t *testing.T) {
	b := &uitest.ReportBackend{In: uitest.ReportInput()}
	m := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = pressReport(t, m, uitest.Key("4"))
	if m.Inspect().Screen != ui.Report || b.Reads() != 1 || m.Inspect().Report.Busy() {
		t.Fatalf("4: screen %s, %d reads", m.Inspect().Screen, b.Reads())
	}
	from, to := m.Inspect().Report.Window()
	in := uitest.ReportInput()
	in.From, in.To, in.Now, in.TagKeys = from, to, to, []string{"team", "project"}
	pricing.PriceReport(pricing.Embedded(), &in)
	r := report.Build(in)
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"Report · 2026-01-01 to 2026-12-01 09:00 UTC (now)", "Paid " + r.Paid.Known.Dollars() + " in 2 payments",
		r.Months[9].Label + " ", r.Months[9].Amount.String(), r.Months[10].Amount.String(),
		r.Reservations[0].CostPerAcceleratorHour.Rate(), r.Reservations[0].IdleCost.String(), "plan-nov"} {
		if !strings.Contains(view, want) {
			t.Errorf("the report screen lacks %q:\n%s", want, view)
		}
	}
	if !r.Reservations[0].CostPerAcceleratorHour.Known || !r.Reservations[0].IdleCost.Known {
		t.Fatal("the block's costs are unknown: the test would pass on dashes")
	}
	if foot := lastLine(m); !strings.Contains(foot, "< window a month earlier") || !strings.Contains(foot, "? help") {
		t.Errorf("footer %q", foot)
	}
	// Help lists the screen's keys and the screens' with 4 among them.
	h := ansi.Strip(update(m, uitest.Key("?")).View().Content)
	for _, want := range []string{"Report screen", "4  report screen", "last 12 ⇄ 3 months", "read again"} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
	// r reads again, through the root.
	if m = pressReport(t, m, uitest.Key("r")); b.Reads() != 2 {
		t.Errorf("r: %d reads", b.Reads())
	}
	// The screens go round through the report both ways; coming back does not read again.
	// The advisor's form takes [ and digits as letters: alt+4 switches from it.
	for _, step := range []struct {
		key  tea.KeyPressMsg
		want ui.ScreenName
	}{{uitest.Key("]"), ui.Search}, {uitest.Key("["), ui.Report}, {uitest.Key("["), ui.Advisor}, {uitest.AltKey('4'), ui.Report},
		{uitest.Key("1"), ui.Search}, {uitest.Key("2"), ui.Blocks}, {uitest.Key("]"), ui.Advisor}, {uitest.AltKey('2'), ui.Blocks},
		{uitest.Key("4"), ui.Report}} {
		m = update(m, step.key)
		if m.Inspect().Screen != step.want {
			t.Fatalf("%s: screen %s, want %s", step.key, m.Inspect().Screen, step.want)
		}
	}
	if b.Reads() != 2 || m.Inspect().Report.Busy() {
		t.Errorf("coming back read again: %d reads", b.Reads())
	}
}

// The program's own backend, the emulator's: the report it cannot read yet is said as such.
func TestReportScreenOnTheEmulator(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	o, blk := boughtBlock(t, sourcestest.ClientOf(t, b))
	m := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = pressReport(t, m, uitest.AltKey('4'))
	view := ansi.Strip(m.View().Content)
	if strings.Contains(view, "could not be read") {
		t.Fatalf("the report was not read:\n%s", view)
	}
	for _, want := range []string{blk.ReservationID, "Paid " + o.Fee.Dollars() + " in 1 payment"} {
		if !strings.Contains(view, want) {
			t.Errorf("the report screen does not show %q:\n%s", want, view)
		}
	}
}

// Every state of the report screen fits every size in the root's frame.
func TestReportScreenFits(t *testing.T) {
	b := &uitest.ReportBackend{In: uitest.ReportInput()}
	base := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 80, Height: 24})
	loading := update(base, uitest.Key("4"))
	loaded := pressReport(t, base, uitest.Key("4"))
	states := map[string]ui.Model{
		"loading": loading,
		"loaded":  loaded,
		"tags":    update(loaded, uitest.Key("tab"), uitest.Key("tab"), uitest.Key("tab")),
		"help":    update(loaded, uitest.Key("?")),
	}
	for name, m := range states {
		for _, sz := range sizes() {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}
