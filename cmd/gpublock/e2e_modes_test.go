//go:build unix

package main

// End-to-end tests of the ways a terminal may be: accessible mode, NO_COLOR and TERM=dumb,
// keys sent in a burst or pasted, and the palette the terminal's background picks.

import (
	"fmt"
	"image/color"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/vt"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/theme"
)

// The accessible mode, asked for by $ACCESSIBLE as charmbracelet/huh's forms read it, on a
// real terminal: a search, a purchase dialog, the blocks screen and the advisor draw no
// spinner, no box drawing, block or braille character in any frame the program writes, and
// say their money facts in words.
func TestE2EAccessibleMode(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	env := append(e2eEnv(t, sim, t.TempDir()), a11y.EnvVar+"=1")
	term := startE2ETerm(t, env, 120, 40, nil, "--demo")
	term.waitText("SIMULATED", "account 123456789012", "Types")

	// A search: the focused row said as a sentence, each figure named.
	term.searchBlocks()
	text := term.waitText("row 1 of ", "source Block", "upfront fee $", "break-even utilization ")
	if !strings.Contains(text, "> ") {
		t.Errorf("the focused row is not marked in words' place of its colour:\n%s", text)
	}

	// The purchase dialog: the fee in words, the typed confirmation as ever.
	text = term.purchaseDialog("Type buy and press enter")
	for _, want := range []string{"SIMULATED — nothing real", "Upfront fee    $", "This cannot be cancelled"} {
		if !strings.Contains(text, want) {
			t.Errorf("the purchase dialog lacks %q:\n%s", want, text)
		}
	}
	term.confirmBuy("Upfront fee    $")
	term.closeDialog("BOUGHT:")

	// The blocks screen: the block as a sentence, its warning a word, its fee named.
	term.press("2")
	text = term.waitText("block 1 of 1: warning ", "fee paid $", "PAY PENDING")

	// The advisor: its table, then its chart and calendar said in sentences.
	term.press("3")
	term.waitText("Advisor", "Type or class")
	term.press(keyEnter)
	term.waitText("Recommended:", "> ")
	term.press("v")
	term.waitText("Capacity Block costs $", "for this job.")
	term.press("v")
	term.waitText("per accelerator-hour, upfront fee $", "Day under the cursor:")

	term.press("\x03")
	if code, _ := term.exit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	raw := term.rawBytes()
	if len(raw) < 1000 {
		t.Fatalf("the program wrote only %d bytes", len(raw))
	}
	seen := map[rune]int{}
	for s := string(raw); s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		if a11y.IsGraphic(r) {
			seen[r]++
		}
		s = s[n:]
	}
	if len(seen) > 0 {
		var list []string
		for r, n := range seen {
			list = append(list, fmt.Sprintf("%c U+%04X ×%d", r, r, n))
		}
		t.Errorf("the accessible mode drew spinner, box-drawing, block or braille characters: %s", strings.Join(list, ", "))
	}
}

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourSGR reports whether an SGR's parameters set a colour (30–49, 90–107), as opposed
// to a weight or a reset.
func colourSGR(params string) bool {
	for _, p := range strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' }) {
		switch {
		case len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9'):
			return true
		case len(p) == 3 && p[0] == '1' && p[1] == '0':
			return true
		}
	}
	return false
}

// The commands on a terminal never depend on colour or drawing characters: under
// NO_COLOR they print no colour, under TERM=dumb no escape sequence at all (not even a
// query of the terminal's colours), and in neither a box-drawing, block or braille
// character.
func TestE2ECommandsPlainUnderNoColorAndDumb(t *testing.T) {
	home := t.TempDir()
	base := []string{
		"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
	}
	commands := [][]string{
		{"help"},
		{"help", "offerings"},
		{"offerings", "--demo", "--type", "p5.48xlarge", "--duration", "2d"},
		{"advise", "--demo", "--type", "p5.48xlarge", "--instances", "1", "--hours", "48"},
		{"report", "--demo"},
		{"offerings", "--demo", "--type", "nope"},
	}
	for _, term := range []string{"NO_COLOR=1 TERM=xterm-256color", "TERM=dumb"} {
		for _, args := range commands {
			t.Run(term+" "+strings.Join(args, " "), func(t *testing.T) {
				env := append(append([]string(nil), base...), strings.Fields(term)...)
				tm := startE2ETerm(t, env, 120, 40, nil, args...)
				_, raw := tm.exit()
				out := string(raw)
				if len(strings.TrimSpace(out)) < 20 {
					t.Fatalf("printed almost nothing: %q", out)
				}
				if strings.ContainsFunc(out, a11y.IsGraphic) {
					t.Errorf("a drawing character in:\n%s", out)
				}
				if term == "TERM=dumb" {
					if i := strings.IndexByte(out, 0x1b); i >= 0 {
						t.Errorf("an escape sequence on a dumb terminal at %d: %q", i, out[i:min(len(out), i+20)])
					}
					return
				}
				for _, m := range sgrRE.FindAllStringSubmatch(out, -1) {
					if colourSGR(m[1]) {
						t.Errorf("colour under NO_COLOR: %q", m[0])
						break
					}
				}
			})
		}
	}
}

// e2eBought is what was bought, read where it is kept, not from the screen: the blocks
// the backend lists and the journal's entries.
func e2eBought(t *testing.T, env []string, backend ...string) ([]e2eBlock, []map[string]any) {
	t.Helper()
	return e2eRunJSON[[]e2eBlock](t, env, append([]string{"blocks", "-o", "json"}, backend...)...),
		e2eRunJSON[[]map[string]any](t, env, append([]string{"journal", "--no-settle", "-o", "json"}, backend...)...)
}

// Against an emulator that answers at once, enter (open the purchase), buy, enter sent
// as one burst buys nothing, and neither does buy, enter sent the moment the dry run's
// answer is drawn: the keys came before the facts could be read, and are discarded with a
// line that says so. A bracketed paste of "buy\r" after the dwell buys nothing either.
// Then buy typed after the dwell buys, once: the check that finds exactly that one
// purchase is the check that found no other.
func TestE2EBurstAndPasteBuyNothing(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	env := e2eEnv(t, sim, t.TempDir())
	// --demo: the emulator in the process, whose dry run answers before the next key is read.
	term := startE2ETerm(t, env, 120, 40, nil, "--demo")
	term.waitText("SIMULATED", "account 123456789012", "›Types")
	text := term.searchBlocks()

	// One write: a terminal sends a burst typed ahead (or scripted) like this.
	term.press(keyEnter + "buy" + keyEnter)
	// The keys after the first reach the dialog or, when it opens after them, the screen
	// beneath: either way none of them may confirm.
	term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	term.boughtNothing(2*model.ConfirmDwell, "the burst")

	// The word sent the moment the dry run's answer is drawn: still inside the dwell.
	term.purchaseDialog()
	term.press("buy" + keyEnter)
	term.waitText("typed before the confirmation was readable were discarded; type buy now.")
	term.boughtNothing(2*model.ConfirmDwell, "the word typed with the answer")

	// A paste after the dwell: it is neither typed nor confirms.
	term.purchaseDialog()
	term.readTheFacts()
	term.press("\x1b[200~buy\r\x1b[201~")
	term.waitText("A paste never confirms")
	term.press(keyEnter)
	term.waitText("Type buy, then enter; esc cancels.")
	term.boughtNothing(model.ConfirmDwell, "the paste")

	// The positive control: typed after the dwell, buy buys.
	term.purchaseDialog()
	text = term.confirmBuy()
	m := e2eReceiptRE.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the receipt lacks the reservation:\n%s", text)
	}
	// Not "Receipt": the search's detail names the "Data Receipts" price dataset.
	term.closeDialog("BOUGHT: the Capacity Block is yours.")
	term.press("q")
	if code, _ := term.exit(); code != 0 {
		t.Errorf("exit %d", code)
	}

	rows, entries := e2eBought(t, env, "--demo")
	if len(rows) != 1 || rows[0].CapacityReservationId != m[1] {
		t.Errorf("want exactly the block bought after the dwell, %s; the backend lists %d: %+v", m[1], len(rows), rows)
	}
	requests, bought := map[string]bool{}, 0
	for _, e := range entries {
		if id, _ := e["RequestId"].(string); id != "" {
			requests[id] = true
		}
		if e["Action"] == "PurchaseCapacityBlock" && e["Outcome"] == "bought" && e["Result"] == m[1] {
			bought++
		}
	}
	if len(requests) != 1 || bought != 1 {
		t.Errorf("want the journal to hold one purchase, of %s; it holds %d request(s), %d bought: %v", m[1], len(requests), bought, entries)
	}
}

// cellColour is the foreground of the screen's first cell of sub on line y, or nil
// where sub is not shown or has no colour.
func (term *e2eTerm) cellColour(y int, sub string) (color.Color, bool) {
	lines := strings.Split(term.screen(), "\n")
	if y >= len(lines) {
		return nil, false
	}
	i := strings.Index(lines[y], sub)
	if i < 0 {
		return nil, false
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	c := term.emu.CellAt(utf8.RuneCountInString(lines[y][:i]), y)
	if c == nil {
		return nil, true
	}
	return c.Style.Fg, true
}

// The palette follows the terminal's background, which the emulated terminal reports when
// asked (OSC 11), unless --theme chose one; NO_COLOR still draws without colour.
func TestE2ETheme(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	light, dark := theme.BodyText(theme.Light), theme.BodyText(theme.Dark)
	for _, tc := range []struct {
		name string
		bg   color.Color
		args []string
		env  string
		want color.Color // nil: no colour at all
	}{
		{"white terminal", white, nil, "", light},
		{"black terminal", black, nil, "", dark},
		{"--theme dark on white", white, []string{"--theme", "dark"}, "", dark},
		{"--theme light on black", black, []string{"--theme", "light"}, "", light},
		{"NO_COLOR on white", white, nil, "NO_COLOR=1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := append(e2eEnv(t, sim, t.TempDir()), "COLORTERM=truecolor")
			if tc.env != "" {
				env = append(env, tc.env)
			}
			term := startE2ETerm(t, env, 120, 40, func(e *vt.Emulator) { e.SetDefaultBackgroundColor(tc.bg) }, tc.args...)
			var got color.Color
			term.waitFor(fmt.Sprintf("the header's body text in %v", tc.want), func(string) bool {
				c, shown := term.cellColour(0, "123456789012")
				got = c
				if !shown {
					return false
				}
				if tc.want == nil {
					return true
				}
				return c != nil && e2eSameColour(c, tc.want)
			})
			if tc.want == nil && got != nil {
				t.Errorf("with NO_COLOR the header's text has the colour %v", got)
			}
			term.press("q")
			if code, raw := term.exit(); code != 0 {
				t.Errorf("exit %d; the end of the output: %q", code, raw[max(0, len(raw)-200):])
			}
		})
	}
	if e2eSameColour(light, dark) {
		t.Fatal("the light and the dark palette have the same body text")
	}
}

func e2eSameColour(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar>>8 == br>>8 && ag>>8 == bg>>8 && ab>>8 == bb>>8
}
