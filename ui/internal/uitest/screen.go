package uitest

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
)

// Screen runs a model in teatest and reads what a terminal would show with x/vt: the
// harness of the tests that drive the whole program by its keys.
type Screen struct {
	T   testing.TB
	TM  *teatest.TestModel
	Emu *vt.Emulator
	// Raw is everything the program wrote, for what a screen does not show (OSC 52, OSC 9).
	Raw []byte
}

// NewScreen starts m in a terminal of w×h.
func NewScreen(t testing.TB, m tea.Model, w, h int) *Screen {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	emu := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, emu) // the emulator answers terminal queries; nobody needs them
	// The output is not a tty, so LF does not return the carriage: LNM makes it.
	emu.Write([]byte("\x1b[20h"))
	return &Screen{T: t, TM: tm, Emu: emu}
}

// WaitFor reads the program's output into the terminal until cond holds for the screen.
// The time limit only keeps a broken test from hanging; nothing is asserted about speed.
func (s *Screen) WaitFor(what string, cond func(screen string) bool) string {
	s.T.Helper()
	buf := make([]byte, 64<<10)
	out := s.TM.Output()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, _ := out.Read(buf)
		if n > 0 {
			s.Emu.Write(buf[:n])
			s.Raw = append(s.Raw, buf[:n]...)
		}
		text := s.Emu.String()
		if cond(text) {
			return text
		}
		if time.Now().After(deadline) {
			s.T.Fatalf("waiting for %s; the screen is:\n%s", what, text)
		}
		if n == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// WaitText waits for sub on the screen.
func (s *Screen) WaitText(sub string) string {
	s.T.Helper()
	return s.WaitFor("\""+sub+"\"", func(text string) bool { return strings.Contains(text, sub) })
}

// WaitMatch waits for sub on the screen and returns the screen and re's submatches in it,
// failing the test when re finds nothing there: sub says the outcome is drawn, re reads
// its id or figure.
func (s *Screen) WaitMatch(sub string, re *regexp.Regexp) (string, []string) {
	s.T.Helper()
	text := s.WaitText(sub)
	m := re.FindStringSubmatch(text)
	if m == nil {
		s.T.Fatalf("%q is on the screen, but nothing that %s matches:\n%s", sub, re, text)
	}
	return text, m
}

// Press sends keys by name (Key).
func (s *Screen) Press(keys ...string) {
	for _, k := range keys {
		s.TM.Send(Key(k))
	}
}

// Type sends each character as a key.
func (s *Screen) Type(text string) { s.TM.Type(text) }

// WaitRaw reads the program's output until cond holds for everything it wrote: a clipboard
// write or a notification may reach the terminal a frame before or after its text.
func (s *Screen) WaitRaw(what string, cond func(raw []byte) bool) {
	s.T.Helper()
	s.WaitFor(what, func(string) bool { return cond(s.Raw) })
}

// Final quits and returns the final model, with Raw holding all the program wrote.
func (s *Screen) Final() tea.Model {
	s.T.Helper()
	s.Press("ctrl+c")
	m := s.TM.FinalModel(s.T, teatest.WithFinalTimeout(30*time.Second))
	rest, _ := io.ReadAll(s.TM.Output())
	s.Raw = append(s.Raw, rest...)
	return m
}

// FoundRE reads the search's end on the screen: "Found 12 offerings".
var FoundRE = regexp.MustCompile(`Found (\d+) offerings?\b`)

// FoundCount waits for the end of the search and returns how many offerings it found.
func (s *Screen) FoundCount() int {
	s.T.Helper()
	text := s.WaitFor("the end of the search", func(text string) bool { return FoundRE.MatchString(text) })
	n, _ := strconv.Atoi(FoundRE.FindStringSubmatch(text)[1])
	return n
}

// SearchAndOpen runs the form's default search, waits for it, and opens the purchase dialog
// on the first row.
func (s *Screen) SearchAndOpen() {
	s.T.Helper()
	s.WaitText(Account)
	s.Press("enter")
	if s.FoundCount() == 0 {
		s.T.Fatal("the search found nothing")
	}
	s.Press("enter")
	s.WaitText("Buy a Capacity Block")
}

// WaitLengths waits until the extend dialog lists every length AWS answered for, so that
// the keys pressed next move through the whole list.
func (s *Screen) WaitLengths() string {
	s.T.Helper()
	return s.WaitFor("every length answered", func(text string) bool {
		return strings.Contains(text, "choose the length") && !strings.Contains(text, "Still asking")
	})
}

// MustContain reports each of subs the screen's text lacks.
func MustContain(t testing.TB, text string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(text, sub) {
			t.Errorf("the screen lacks %q:\n%s", sub, text)
		}
	}
}

// RowOf is the line of the blocks table that shows the reservation id; a narrow table
// leaves the id out, and then the tests have one block, shown with its type.
func RowOf(text, id string) string {
	first := ""
	for _, l := range strings.Split(text, "\n") {
		if !strings.Contains(l, "p5.48xlarge ×") || strings.Contains(l, "·") || strings.Contains(l, ": ") {
			continue // not a row of the table: the detail and the status lines have these
		}
		if strings.Contains(l, id) {
			return l
		}
		if first == "" {
			first = l
		}
	}
	return first
}

// DialogBox is the dialog's box on the screen, from its top border to its bottom one, or
// "" when none is drawn.
func DialogBox(screen string) string {
	lines := strings.Split(screen, "\n")
	from, to := -1, -1
	for i, l := range lines {
		switch {
		case from < 0 && (strings.Contains(l, "╭") || strings.Contains(l, "╔")):
			from = i
		case from >= 0 && (strings.Contains(l, "╰") || strings.Contains(l, "╚")):
			to = i
		}
	}
	if from < 0 || to < from {
		return ""
	}
	return strings.Join(lines[from:to+1], "\n")
}

// RowWithAll reports whether a line of text holds every one of subs.
func RowWithAll(text string, subs ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		ok := true
		for _, sub := range subs {
			ok = ok && strings.Contains(l, sub)
		}
		if ok {
			return true
		}
	}
	return false
}
