package flows

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/dialog/extend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
	"github.com/gpublock/gpublock/ui/theme"
)

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// q is a letter while typing in a text field and quits elsewhere; ctrl+c always quits.
func TestQuitKeys(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	// The program starts on the type list, whose filter opens with /: until then q quits.
	if _, cmd := m.Update(uitest.Key("q")); !isQuit(cmd) {
		t.Error("q did not quit on the type list before / opened its filter")
	}
	m = update(m, uitest.Key("/"))
	mm, cmd := m.Update(uitest.Key("q"))
	if isQuit(cmd) {
		t.Fatal("q quit while typing in the type filter")
	}
	if v := ansi.Strip(mm.(ui.Model).View().Content); !strings.Contains(v, "/ q") {
		t.Errorf("q did not go into the filter:\n%s", v)
	}
	if _, cmd := m.Update(uitest.Key("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c did not quit")
	}
	m = withResults(m, uitest.SyntheticOfferings(10))
	if focusedPane(m) != searchscreen.PaneResults {
		t.Fatalf("focus %d after a search, want the results", focusedPane(m))
	}
	if _, cmd := m.Update(uitest.Key("q")); !isQuit(cmd) {
		t.Error("q did not quit in the results")
	}
	m = update(m, uitest.Key("/"))
	if _, cmd := m.Update(uitest.Key("q")); isQuit(cmd) {
		t.Error("q quit while typing a filter")
	}
}

// At start the focus is on the type list: 2 opens the blocks screen (issue 7) instead of
// going into the type filter, which / opens; 1 comes back.
func TestDigitsSwitchScreensAtStart(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, uitest.Key("2"))
	if m.Inspect().Screen != ui.Blocks {
		t.Fatalf("2 at start did not open the blocks screen (screen %s)", m.Inspect().Screen)
	}
	m = update(m, uitest.Key("1"))
	if m.Inspect().Screen != ui.Search || focusedPane(m) != searchscreen.PaneForm {
		t.Fatalf("1 did not come back to the search form (screen %s, focus %d)", m.Inspect().Screen, focusedPane(m))
	}
	if status := statusOf(update(m, uitest.Key("p"))); !strings.Contains(status, "Press / to filter the types") {
		t.Errorf("a letter typed at the list without / says nothing: %q", status)
	}
	m = update(m, uitest.Key("/"), uitest.Key("p"), uitest.Key("6"))
	if v := ansi.Strip(m.View().Content); m.Inspect().Screen != ui.Search || !strings.Contains(v, "/ p6") || !strings.Contains(v, "q is a letter") {
		t.Errorf("after /, p6 did not go into the type filter (screen %s):\n%s", m.Inspect().Screen, v)
	}
	if foot, status := lastLine(m), statusOf(m); !strings.Contains(foot, "enter/tab keep filter") || strings.Contains(foot, "enter search") || strings.Contains(status, "enter searches") {
		t.Errorf("while filtering the types, enter keeps the filter; the footer says %q, the status %q", foot, status)
	}
	if v := ansi.Strip(update(m, uitest.Key("enter")).View().Content); !strings.Contains(v, "/ p6") || strings.Contains(v, "Typing: q is a letter") {
		t.Errorf("enter did not close the filter keeping p6:\n%s", v)
	}
}

func TestPanesHelpAndBack(t *testing.T) {
	m := withResults(update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), uitest.SyntheticOfferings(10))
	m = update(m, uitest.Key("tab"))
	if focusedPane(m) != searchscreen.PaneDetail {
		t.Errorf("tab from the results: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("tab"))
	if focusedPane(m) != searchscreen.PaneForm || focusedField(m) != searchform.Source {
		t.Errorf("tab from the detail: focus %d, field %d", focusedPane(m), focusedField(m))
	}
	m = update(m, uitest.Key("shift+tab"))
	if focusedPane(m) != searchscreen.PaneDetail {
		t.Errorf("shift+tab from the form's first field: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("esc"))
	if focusedPane(m) != searchscreen.PaneResults {
		t.Errorf("esc from the detail: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("?"))
	if v := ansi.Strip(m.View().Content); m.Inspect().Dialog == nil || !strings.Contains(v, "Sort (again reverses)") || !strings.Contains(v, "sort by upfront fee") {
		t.Fatalf("? shows no full help:\n%s", v)
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "? help") {
		t.Error("no short help in the footer")
	}
	m = update(m, uitest.Key("j"))
	if m.Inspect().Dialog != nil || m.Inspect().Search.Table().Cursor() != 0 {
		t.Errorf("a key did not just close the help (dialog %v, cursor %d)", m.Inspect().Dialog, m.Inspect().Search.Table().Cursor())
	}
	m = update(m, uitest.Key("esc"))
	if focusedPane(m) != searchscreen.PaneForm {
		t.Errorf("esc from the results: focus %d", focusedPane(m))
	}
}

// The header shows the time in UTC, and beside it the local time only where it differs.
func TestHeaderClock(t *testing.T) {
	for _, c := range []struct {
		loc  *time.Location
		want string
	}{{testLoc, "09:00 UTC · 01:00 PST"}, {time.UTC, "09:00 UTC"}} {
		opts := testOptions(nil)
		opts.Location = c.loc
		m := update(ui.New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
		head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
		if !strings.HasSuffix(strings.TrimSpace(head), c.want) || strings.Count(head, "UTC") != 1 {
			t.Errorf("in %v the header is %q, want it to end with %q", c.loc, head, c.want)
		}
	}
}

// The blocks screen asks for its dialogs with a message; the root opens the first one asked
// for, and a second key typed before it opened (l after e) does not replace it.
func TestBlocksDialogAskedTwiceOpensTheFirst(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}, uitest.AltKey('2'))
	active := model.Block{ReservationID: "cr-active", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 1, State: model.StateActive, Start: testNow.Add(-time.Hour), End: testNow.Add(30 * time.Hour)}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{active}, Now: testNow}})
	mm, askExtend := m.Update(uitest.Key("e"))
	m = mm.(ui.Model)
	mm, askLaunch := m.Update(uitest.Key("l"))
	m = mm.(ui.Model)
	if m.Inspect().Dialog != nil || askExtend == nil || askLaunch == nil {
		t.Fatalf("e and l: dialog %T before their messages, commands %v %v", m.Inspect().Dialog, askExtend, askLaunch)
	}
	m = update(m, askExtend())
	if _, ok := m.Inspect().Dialog.(extend.Model); !ok {
		t.Fatalf("e opened %T, want the extend dialog", m.Inspect().Dialog)
	}
	m = update(m, askLaunch())
	if _, ok := m.Inspect().Dialog.(extend.Model); !ok {
		t.Errorf("l typed before the extend dialog opened replaced it with %T", m.Inspect().Dialog)
	}
}

func TestConnectFailure(t *testing.T) {
	opts := testOptions(nil)
	opts.Connect = func(context.Context) (ui.Connection, error) {
		return ui.Connection{}, errors.New("The AWS configuration could not be loaded: bad profile.")
	}
	s := newScreen(t, ui.New(opts), 120, 30)
	text := s.WaitText("NOT CONNECTED")
	if !strings.Contains(text, "Could not connect: The AWS configuration could not be loaded") {
		t.Errorf("the error is not on screen:\n%s", text)
	}
	s.Press("enter")
	s.WaitText("Not connected, so nothing can be searched")
	s.Press("q")
	m := s.TM.FinalModel(t).(ui.Model)
	if m.Err() == nil || searched(m) {
		t.Errorf("err=%v searched=%v", m.Err(), searched(m))
	}
}

// Read-only mode is said in the header on every screen, beside SIMULATED or LIVE, so that
// the missing buy and extend keys are not taken for a fault; without it the header does not
// say it.
func TestHeaderSaysReadOnly(t *testing.T) {
	for _, ro := range []bool{true, false} {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		opts := actionTestOptions(b)
		opts.ReadOnly = ro
		s := newScreen(t, ui.New(opts), 100, 30)
		text := s.WaitText("123456789012")
		head := strings.SplitN(text, "\n", 2)[0]
		if strings.Contains(head, "READ-ONLY") != ro {
			t.Errorf("read-only %v: header %q", ro, head)
		}
		s.Press("2")
		text = s.WaitText("refresh")
		if head := strings.SplitN(text, "\n", 2)[0]; strings.Contains(head, "READ-ONLY") != ro {
			t.Errorf("read-only %v, blocks screen: header %q", ro, head)
		}
		final(s)
	}
}

// The header names the most severe warning, not only how many there are: a block
// terminating beside one expiring reads "✖ TERMINATING (2 warnings)", never "▲ 2 warnings",
// at every size.
func TestHeaderNamesTheMostSevereWarning(t *testing.T) {
	blk := func(i int, end time.Duration) model.Block {
		e := testNow.Add(end)
		return model.Block{ReservationID: fmt.Sprintf("cr-%017x", i), BlockID: fmt.Sprintf("cb-%017x", i), Region: "us-east-1",
			AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1, RunningCount: 1, State: model.StateActive,
			Start: e.Add(-48 * time.Hour), End: e, Interconnect: "ok",
			Instances: []model.Instance{{ID: fmt.Sprintf("i-%017x", i), State: "running", LaunchTime: e.Add(-48 * time.Hour)}}}
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := blocksListed(testOptions(nil), source.BlockList{Blocks: []model.Block{blk(1, 35*time.Minute), blk(2, 10*time.Minute)}, Now: testNow}, sz[0], sz[1])
		head := ansi.Strip(strings.SplitN(m.View().Content, "\n", 2)[0])
		if !strings.Contains(head, "✖ TERMINATING (2 warnings)") {
			t.Errorf("%dx%d: the header does not name the terminating block first: %q", sz[0], sz[1], head)
		}
	}
}

// colourSGR matches an SGR sequence that sets a foreground or background colour.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)

func TestNoColourHasNoColour(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		opts := testOptions(nil)
		opts.NoColor = noColor
		m := withResults(ui.New(opts), uitest.SyntheticOfferings(50))
		m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
		view := m.View().Content
		has := colourSGR.MatchString(view)
		if noColor && has {
			t.Errorf("--no-color frame has colour: %q", colourSGR.FindString(view))
		}
		if !noColor && !has {
			t.Error("the colour frame has no colour")
		}
		// Without colour the focused pane and the selected row still stand out.
		if noColor && (!strings.Contains(view, "┏") || !strings.Contains(view, "\x1b[7m")) {
			t.Error("without colour the focused pane (heavy border) or the selected row (reverse) is not marked")
		}
	}
}

func TestModeBadge(t *testing.T) {
	for _, sim := range []bool{true, false} {
		opts := testOptions(nil)
		opts.Simulated = sim
		m := update(ui.New(opts), tea.WindowSizeMsg{Width: 120, Height: 30})
		header := strings.SplitN(m.View().Content, "\n", 2)[0]
		plain := ansi.Strip(header)
		if sim != strings.Contains(plain, "SIMULATED") || sim == strings.Contains(plain, " LIVE ") {
			t.Errorf("simulated=%v, header %q", sim, plain)
		}
	}
	// The two badges are drawn differently, in colour and without.
	for _, noColor := range []bool{false, true} {
		a, b := ui.New(ui.Options{NoColor: noColor, Simulated: true}), ui.New(ui.Options{NoColor: noColor})
		if a.Inspect().Theme.Simulated.Render("X") == b.Inspect().Theme.Live.Render("X") {
			t.Errorf("noColor=%v: SIMULATED and LIVE badges look the same", noColor)
		}
	}
}

// The terminal's answer to the background query recolours the whole frame: the body text
// of the dark palette (#E6EDF3) is gone from a frame drawn for a white terminal.
func TestBackgroundChoosesThePalette(t *testing.T) {
	// The body text of the dark palette, and the muted grey of the light one (the light
	// body text's colour is also the SIMULATED badge's, in both).
	const darkText, lightMuted = "38;2;230;237;243", "38;2;87;96;106"
	opts := testOptions(nil)
	opts.NoColor = false
	m := update(withResults(ui.New(opts), uitest.SyntheticOfferings(20)), tea.WindowSizeMsg{Width: 160, Height: 48})
	if view := m.View().Content; !strings.Contains(view, darkText) {
		t.Fatal("before the terminal answers, the frame is not drawn in the dark palette")
	}
	m = update(m, tea.BackgroundColorMsg{Color: color.White})
	view := m.View().Content
	if strings.Contains(view, darkText) || !strings.Contains(view, lightMuted) || !strings.Contains(view, "38;2;31;35;40") {
		t.Errorf("on a white terminal: dark body text %v, light muted text %v", strings.Contains(view, darkText), strings.Contains(view, lightMuted))
	}
	m = update(m, tea.BackgroundColorMsg{Color: color.Black})
	if view := m.View().Content; !strings.Contains(view, darkText) {
		t.Error("back on a black terminal the frame is not dark again")
	}

	// --theme dark keeps the dark palette on a white terminal.
	if err := theme.Set("dark"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { theme.Set("auto") })
	m = update(withResults(ui.New(opts), uitest.SyntheticOfferings(20)), tea.WindowSizeMsg{Width: 160, Height: 48}, tea.BackgroundColorMsg{Color: color.White})
	if view := m.View().Content; !strings.Contains(view, darkText) || strings.Contains(view, lightMuted) {
		t.Error("--theme dark gave way to the terminal's white background")
	}
}

// At 80×24 the help is taller than the box: the arrows and page keys scroll it to the end
// (the sort and screen keys), and any other key still closes it.
func TestHelpScrollsWhenCut(t *testing.T) {
	m := update(withResults(ui.New(testOptions(nil)), uitest.SyntheticOfferings(5)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Key("?"))
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "Blocks screen") || !strings.Contains(v, "scroll") {
		t.Fatalf("the help fits 80x24 or does not say it scrolls:\n%s", v)
	}
	for range 20 {
		m = update(m, tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	v := ansi.Strip(m.View().Content)
	// The end: the last line of the keys is the box's last (the blocks' sort keys close it).
	var first, last, total int
	_, err := fmt.Sscanf(v[max(0, strings.Index(v, "lines ")):], "lines %d–%d of %d", &first, &last, &total)
	if m.Inspect().Dialog == nil || err != nil || last != total || !strings.Contains(v, "sort by reservation id") {
		t.Fatalf("page down did not reach the end of the help (lines %d–%d of %d, %v):\n%s", first, last, total, err, v)
	}
	m = update(m, tea.KeyPressMsg{Code: tea.KeyUp})
	if m.Inspect().Dialog == nil {
		t.Fatal("up closed the help")
	}
	if m = update(m, uitest.Key("j")); m.Inspect().Dialog != nil {
		t.Error("j did not close the help")
	}
}
