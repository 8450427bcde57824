// Package uitest is what the UI's tests share: a fixed clock, the environment the root hands
// a dialog, an offering and a block whose every figure is fixed, keys by name, and the check
// that a view fits its terminal. Only tests import it.
package uitest

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// The tests' clock and local time zone, the root's tests' too.
var (
	Now = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	Loc = time.FixedZone("PST", -8*3600)
)

// Account is the account a known identity is in.
const Account = "123456789012"

// Env is what the root hands a dialog drawn in a body of size, with no backend, no colour,
// a SIMULATED dress and, when known, the identity in Account: EnvAt(Now) in Loc, polling
// every 3 seconds.
func Env(size screen.Rect, known bool) dialog.Env {
	env := EnvAt(Now)
	env.Location, env.Poll, env.Size = Loc, 3*time.Second, size
	if known {
		env.Identity = program.Identity{Identity: source.Identity{Account: Account}, Known: true}
	}
	return env
}

// EnvAt is what the root hands a dialog whose clock reads now, in UTC, with no backend, no
// colour, a SIMULATED dress, no identity, no size, polling each second, on ReaderWall.
func EnvAt(now time.Time) dialog.Env {
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC,
		Wall: ReaderWall(now)}
	return dialog.Env{Context: pc, Poll: time.Second}
}

// ReaderWall is the wall clock of a person who reads before every key, from now on: each
// reading is past the confirmation's dwell.
func ReaderWall(now time.Time) func() time.Time {
	return spend.NewFakeClock(now, 2*model.ConfirmDwell).Now
}

// Context is the program's context as the screens' tests give it: the clock at Now, UTC,
// a 160×48 terminal, no backend (a test sets its own).
func Context(readOnly bool) *program.Context {
	return &program.Context{Ctx: context.Background(), Theme: theme.New(false), ReadOnly: readOnly,
		Clock: program.NewClock(func() time.Time { return Now }), Location: time.UTC, Width: 160, Height: 48}
}

// Offering is an offering whose every figure is fixed, for goldens and sizes.
func Offering() model.Offering {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return model.Offering{ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48,
		Fee: model.MustMoney("6211.123456"), Currency: "USD", Tenancy: "default"}
}

// Block is Offering's block, in state.
func Block(state model.BlockState) model.Block {
	o := Offering()
	return model.Block{ReservationID: "cr-0123456789abcdef0", BlockID: "cb-0123456789abcdef0", Region: o.Region,
		AvailabilityZone: o.AvailabilityZone, InstanceType: o.InstanceType, Platform: "Linux/UNIX", TotalCount: 2,
		AvailableCount: 2, State: state, Start: o.Start, End: o.End}
}

// AltKey is alt and a key: alt+2 switches screens even from a text field.
func AltKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModAlt} }

// namedKeys are the keys Key knows by name.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"esc":       {Code: tea.KeyEscape},
	"space":     {Code: tea.KeySpace, Text: " "},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
	"backspace": {Code: tea.KeyBackspace},
}

// Key is a key by name: enter, tab, shift+tab, esc, space, up, down, left, right, pgup,
// pgdown, backspace, ctrl+X, or one character.
func Key(k string) tea.KeyPressMsg {
	if msg, ok := namedKeys[k]; ok {
		return msg
	}
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// Click is a left click on the cell at x, y.
func Click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

// Wheel is a turn of the wheel over the cell at x, y: down, or up.
func Wheel(x, y int, down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

// Listed is at(0) to at(n-1) joined by commas: a table's rows by ID, in their order, for a
// test to compare with the order it wants.
func Listed(n int, at func(i int) string) string {
	out := make([]string, n)
	for i := range out {
		out[i] = at(i)
	}
	return strings.Join(out, ",")
}

// Step is keys to press, by name and apart by spaces, and the order a list is in after them,
// as Listed gives it; What names the step in a failure.
type Step struct{ Keys, Want, What string }

// Steps presses each step's keys into m in turn, through press, and fails t unless list
// then gives the step's order.
func Steps[M any](t testing.TB, m M, press func(M, ...string) M, list func(M) string, steps []Step) M {
	t.Helper()
	for _, s := range steps {
		m = press(m, strings.Fields(s.Keys)...)
		if got := list(m); got != s.Want {
			t.Errorf("%s (%s): %s, want %s", s.What, s.Keys, got, s.Want)
		}
	}
	return m
}

// Sizes are the terminal sizes every view must fit: 20×5 to 400×120 in steps, and the
// sizes at the layouts' edges.
func Sizes() [][2]int {
	var out [][2]int
	for w := 20; w <= 400; w += 29 {
		for h := 5; h <= 120; h += 9 {
			out = append(out, [2]int{w, h})
		}
	}
	return append(out, [][2]int{{80, 24}, {160, 48}, {59, 15}, {60, 16}, {119, 29}, {120, 30}, {400, 120}, {1, 1}}...)
}

// Walk runs cmd and the commands it batches, one after another, handing each message to
// take, which may give a command to run after (next) or end the walk (done).
func Walk(cmd tea.Cmd, take func(msg tea.Msg) (next tea.Cmd, done bool)) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if batch, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, batch...)
			continue
		}
		next, done := take(msg)
		if done {
			return
		}
		queue = append(queue, next)
	}
}

// Press gives k to m and then, one after another, the messages of the commands it starts
// that take wants; take also says whether a wanted message's own commands run (follow).
// The rest are dropped: a test runs only the commands of what it is about.
func Press[M tea.Model](m M, k tea.Msg, take func(msg tea.Msg) (want, follow bool)) M {
	mm, cmd := m.Update(k)
	m = mm.(M)
	Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		want, follow := take(msg)
		if !want {
			return nil, false
		}
		mm, next := m.Update(msg)
		m = mm.(M)
		if !follow {
			next = nil
		}
		return next, false
	})
	return m
}

// OpensDialog is Press's take for a key that opens a dialog: the root's message to open it
// is wanted, the dialog's own calls are not run.
func OpensDialog(msg tea.Msg) (want, follow bool) {
	switch msg.(type) {
	case screen.OpenPurchase, screen.OpenLaunch, screen.OpenExtend, screen.OpenUse:
		return true, false
	}
	return false, false
}

// ScreenRuns is Press's take for a key on a screen whose commands owns tells: they run to
// the end (a search, page by page); a purchase dialog the screen opens is opened, without
// its dry run.
func ScreenRuns(owns func(tea.Msg) bool) func(tea.Msg) (want, follow bool) {
	return func(msg tea.Msg) (bool, bool) {
		if _, purchase := msg.(screen.OpenPurchase); purchase {
			return true, false
		}
		return owns(msg), true
	}
}

// Run feeds m's commands back into it through update until none is left, as a program
// would (each command's message, a batch's one by one).
func Run[M any](m M, update func(M, tea.Msg) (M, tea.Cmd), cmd tea.Cmd) M {
	Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		var next tea.Cmd
		m, next = update(m, msg)
		return next, false
	})
	return m
}

// EveryStateFits fails t unless each state of a dialog, sized to each of Sizes, draws
// within that size (and does not panic).
func EveryStateFits[D dialog.Dialog](t testing.TB, states map[string]D) {
	t.Helper()
	for name, d := range states {
		for _, sz := range Sizes() {
			dd, _, _ := d.Update(dialog.SizeMsg{W: sz[0], H: sz[1]})
			CheckFits(t, name, dd.View(sz[0], sz[1]), sz[0], sz[1])
		}
	}
}

// FootersName fails t unless the footer of each state named in want holds its text.
func FootersName[D dialog.Footer](t testing.TB, states map[string]D, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if got := states[name].Footer(); !strings.Contains(got, w) {
			t.Errorf("%s: footer %q, want %q", name, got, w)
		}
	}
}

// EveryState checks a dialog's states as every such dialog's test does: each fits every
// size (EveryStateFits), and the footer of each state named in footers holds its text
// (FootersName).
func EveryState[D interface {
	dialog.Dialog
	dialog.Footer
}](t *testing.T, states map[string]D, footers map[string]string) {
	t.Helper()
	t.Run("fits every size", func(t *testing.T) { EveryStateFits(t, states) })
	t.Run("footer names the keys", func(t *testing.T) { FootersName(t, states, footers) })
}

// CheckFits fails t unless view draws within w×h.
func CheckFits(t testing.TB, name, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Fatalf("%s at %dx%d: %d lines", name, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s at %dx%d: line %d is %d wide: %q", name, w, h, i, lw, ansi.Strip(l))
		}
	}
}

// ShowsFacts fails the test unless what (a dialog, by its name) shows facts in lines, each on
// its labelled row, in order, and says what cannot be undone when the facts name it.
func ShowsFacts(t testing.TB, what string, lines []string, facts model.Facts) {
	t.Helper()
	if miss := RowsInOrder(lines, facts.Lines); miss != "" {
		t.Errorf("%s lacks %q:\n%s", what, miss, ansi.Strip(strings.Join(lines, "\n")))
	}
	if !strings.Contains(ansi.Strip(strings.Join(lines, " ")), facts.Final) {
		t.Errorf("%s does not say %q", what, facts.Final)
	}
}

// RowsInOrder reports the first of facts that lines do not show as "label  value", in
// order, or "".
func RowsInOrder(lines []string, facts []model.Fact) string {
	text := ansi.Strip(strings.Join(lines, "\n"))
	at := 0
	for _, f := range facts {
		i := strings.Index(text[at:], f.Label)
		if i < 0 {
			return f.Label
		}
		rest := strings.TrimLeft(text[at+i+len(f.Label):], " ")
		if !strings.HasPrefix(rest, f.Value) {
			return f.Label + "  " + f.Value
		}
		at = len(text) - len(rest) + len(f.Value)
	}
	return ""
}

// FitsEverySize checks that m, sized to every terminal from 20×5 to 400×120 (and the usual
// sizes, and 1×1), draws within it.
func FitsEverySize(t testing.TB, name string, m tea.Model) {
	t.Helper()
	// The race detector makes each frame ten times slower, and the frames race with nothing:
	// under it the same range is swept more sparsely.
	wStep, hStep := 29, 9
	if RaceBuild {
		wStep, hStep = 47, 13
	}
	fits := func(w, h int) {
		mm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		CheckFits(t, name, mm.View().Content, w, h)
	}
	for w := 20; w <= 400; w += wStep {
		for h := 5; h <= 120; h += hStep {
			fits(w, h)
		}
	}
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {59, 15}, {60, 16}, {119, 29}, {120, 30}, {400, 120}, {1, 1}} {
		fits(sz[0], sz[1])
	}
}
