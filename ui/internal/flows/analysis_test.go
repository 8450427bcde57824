package flows

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
)

// pressAdvisor sends a key to the root and runs, one after another, the advisor's commands
// it starts (its searches, page by page) until they are done; other commands are left alone.
func pressAdvisor(t *testing.T, m ui.Model, k tea.KeyPressMsg) ui.Model {
	t.Helper()
	return uitest.Press(m, k, uitest.ScreenRuns(advisorui.Owns))
}

func typeAdvisor(t *testing.T, m ui.Model, s string) ui.Model {
	for _, r := range s {
		m = pressAdvisor(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

// advisorAt opens the advisor screen, sets the regions to us-east-1,us-west-2 and runs the
// form's default job (1 × p5.48xlarge, 48 hours, now to the latest end) against the emulator.
func advisorAt(t *testing.T, w, h int, colour bool, formGolden bool) ui.Model {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	return advisorOn(t, b, w, h, colour, formGolden)
}

// advisorOn is advisorAt on backend b.
func advisorOn(t *testing.T, b source.Backend, w, h int, colour bool, formGolden bool) ui.Model {
	opts := testOptions(b)
	opts.NoColor = !colour
	m := update(ui.New(opts), tea.WindowSizeMsg{Width: w, Height: h})
	m = pressAdvisor(t, m, uitest.AltKey('3'))
	if m.Inspect().Screen != ui.Advisor {
		t.Fatalf("screen %s", m.Inspect().Screen)
	}
	for i := 0; i < 11; i++ {
		m = pressAdvisor(t, m, uitest.Key("tab"))
	}
	m = pressAdvisor(t, m, tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	m = typeAdvisor(t, m, "us-east-1,us-west-2")
	if formGolden {
		t.Run("form", func(t *testing.T) {
			view := m.View().Content
			plain := ansi.Strip(view)
			for _, want := range []string{"Advisor", "▸ Regions", "us-east-1,us-west-2", "Utilization %", "[ ] no"} {
				if !strings.Contains(plain, want) {
					t.Errorf("lacks %q:\n%s", want, plain)
				}
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
	m = pressAdvisor(t, m, uitest.Key("enter"))
	if m.Inspect().Advisor.Running() {
		t.Fatal("the search is still running")
	}
	return m
}

func TestAdvisorScreenGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, colour := range []bool{false, true} {
			name := fmt.Sprintf("%dx%d", size.w, size.h)
			if colour {
				name += "-colour"
			}
			t.Run(name, func(t *testing.T) {
				m := advisorAt(t, size.w, size.h, colour, true)
				for _, tab := range []string{"steps", "chart", "calendar"} {
					t.Run(tab, func(t *testing.T) {
						view := m.View().Content
						plain := ansi.Strip(view)
						lines := strings.Split(plain, "\n")
						if len(lines) != size.h {
							t.Errorf("%d lines at height %d", len(lines), size.h)
						}
						for i, l := range lines {
							if w := ansi.StringWidth(l); w > size.w {
								t.Errorf("line %d is %d wide: %q", i, w, l)
							}
						}
						for _, want := range []string{"Job: 1 × p5.48xlarge (8 H100)", "Capacity Block", "On-demand", "SageMaker Training Plans: not searched"} {
							if !strings.Contains(plain, want) {
								t.Errorf("lacks %q:\n%s", want, plain)
							}
						}
						switch tab {
						case "chart":
							if !strings.Contains(plain, "cost the same at") && !strings.Contains(plain, "do not cross") {
								t.Errorf("the chart has no reading:\n%s", plain)
							}
						case "calendar":
							if !strings.Contains(plain, "per accelerator-hour") || !strings.Contains(plain, "us-west-2") {
								t.Errorf("no calendar:\n%s", plain)
							}
						}
						if colour != strings.Contains(view, "\x1b[38") {
							t.Errorf("colour %v, but the view's foreground colours say otherwise", colour)
						}
						golden.RequireEqual(t, []byte(view))
					})
					m = pressAdvisor(t, m, tea.KeyPressMsg{Code: 'v', Text: "v"})
				}
			})
		}
	}
}

// The advisor's answer on the screen is the CLI's: the same ranking and the same steps,
// from pricing/advisor; enter on the recommended block opens the purchase dialog on it.
func TestAdvisorScreenBuys(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := advisorOn(t, cheapBlock{b}, 160, 48, false, false)
	a := m.Inspect().Advisor
	o, ok := a.Selected()
	if !ok {
		t.Fatal("no option selected")
	}
	plain := ansi.Strip(m.View().Content)
	if !strings.Contains(plain, "★ 1  "+o.Kind.Title()) {
		t.Fatalf("the first row is not the recommended %s:\n%s", o.Kind.Title(), plain)
	}
	if o.Offering == nil || o.Offering.Offering.ID != cheapBlockID {
		t.Fatalf("the recommended option is %s, not the block a dollar buys", o.Kind)
	}
	m = pressAdvisor(t, m, uitest.Key("enter"))
	d, isPurchase := m.Inspect().Dialog.(purchase.Model)
	if !isPurchase {
		t.Fatalf("dialog %T", m.Inspect().Dialog)
	}
	if v := ansi.Strip(d.View(160, 45)); !strings.Contains(v, "Offering       "+o.Offering.Offering.ID) {
		t.Errorf("the dialog is not on the option's %s:\n%s", o.Offering.Offering.ID, v)
	}
}

// Bad input says what is wrong, under the form, and searches nothing.
func TestAdvisorScreenBadInput(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = pressAdvisor(t, m, uitest.AltKey('3'))
	for i := 0; i < 4; i++ {
		m = pressAdvisor(t, m, uitest.Key("tab"))
	}
	m = pressAdvisor(t, m, tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	m = typeAdvisor(t, m, "140")
	m = pressAdvisor(t, m, uitest.Key("enter"))
	plain := ansi.Strip(m.View().Content)
	if !strings.Contains(plain, "✗ utilization: \"140\": a whole percent from 1 to 100") || m.Inspect().Advisor.Running() {
		t.Errorf("no message:\n%s", plain)
	}
}

// Help on the advisor screen lists its keys; the footer names them; [ and ] go round the
// screens both ways.
func TestAdvisorScreenKeys(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, uitest.AltKey('3'))
	if !strings.Contains(ansi.Strip(m.View().Content), "enter advise") {
		t.Errorf("footer:\n%s", ansi.Strip(m.View().Content))
	}
	// help opens from the form's text fields too: none of them takes a "?"
	m = update(m, uitest.Key("?"))
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"Advisor screen", "advisor screen", "steps ⇄ chart ⇄ calendar"} {
		if !strings.Contains(view, want) {
			t.Errorf("help lacks %q:\n%s", want, view)
		}
	}
	m = update(m, uitest.Key("esc"))
	// brackets are letters in a text field: from a yes/no field they switch screens
	for i := 0; i < 5; i++ {
		m = update(m, uitest.Key("tab"))
	}
	if m.Inspect().Typing {
		t.Fatal("the Interruptible field takes letters")
	}
	for _, step := range []struct {
		key  string
		want ui.ScreenName
	}{{"]", ui.Report}, {"]", ui.Search}, {"[", ui.Report}, {"[", ui.Advisor}, {"[", ui.Blocks}, {"]", ui.Advisor}} {
		m = update(m, uitest.Key(step.key))
		if m.Inspect().Screen != step.want {
			t.Fatalf("%s: screen %s, want %s", step.key, m.Inspect().Screen, step.want)
		}
	}
}

// --screen advisor opens the program on the advisor's form, whose status line is its own.
func TestStartOnAdvisor(t *testing.T) {
	opts := testOptions(nil)
	opts.StartOnAdvisor = true
	m := update(ui.New(opts), tea.WindowSizeMsg{Width: 120, Height: 40})
	if m.Inspect().Screen != ui.Advisor {
		t.Fatalf("opened on screen %s, want the advisor", m.Inspect().Screen)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "enter advise") {
		t.Errorf("the advisor's keys are not in the footer:\n%s", v)
	}
}

const cheapBlockID = "cb-cheapest000000000"

// cheapBlock adds to each search's answer a block that costs a dollar, in the query's first
// region, for its type, count and shortest length: whatever the seeded market holds, the
// advisor recommends a block, this one.
type cheapBlock struct{ source.Backend }

func (c cheapBlock) Search(ctx context.Context, q model.Query) <-chan source.SearchEvent {
	in := c.Backend.Search(ctx, q)
	out := make(chan source.SearchEvent)
	go func() {
		defer close(out)
		if len(q.Regions) > 0 && len(q.InstanceTypes) > 0 {
			start := time.Date(q.Start.Year(), q.Start.Month(), q.Start.Day(), 11, 30, 0, 0, time.UTC)
			if start.Before(q.Start) {
				start = start.AddDate(0, 0, 1)
			}
			days := max(1, q.Durations.MinDays)
			o := model.Offering{ID: cheapBlockID, Source: model.SourceCapacityBlock, Region: q.Regions[0],
				AvailabilityZone: q.Regions[0] + "a", InstanceType: q.InstanceTypes[0], Count: max(1, q.Count),
				Start: start, End: start.AddDate(0, 0, days), DurationHours: days * 24,
				Fee: model.MustMoney("1"), Currency: "USD", Tenancy: "default"}
			select {
			case out <- source.SearchEvent{Region: o.Region, Offerings: []model.Offering{o}}:
			case <-ctx.Done():
				return
			}
		}
		for e := range in {
			select {
			case out <- e:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// pressReport sends a key to the root and runs what the report screen starts (its read)
// until it is done; the spinner's tick is run and dropped, and no other screen's command is
// started by the keys the tests press here.
func pressReport(t *testing.T, m ui.Model, k tea.KeyPressMsg) ui.Model {
	t.Helper()
	return uitest.Press(m, k, func(msg tea.Msg) (bool, bool) { return reportscreen.Owns(msg), true })
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
	o, blk := sourcestest.BuyFirstBlock(t, sourcestest.ClientOf(t, b), testNow)
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
