//go:build unix

package main

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpublock/gpublock/ui/a11y"
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
	term.press(keyEnter)
	text = term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)", "Type buy and press enter")
	for _, want := range []string{"SIMULATED — nothing real", "Upfront fee    $", "This cannot be cancelled"} {
		if !strings.Contains(text, want) {
			t.Errorf("the purchase dialog lacks %q:\n%s", want, text)
		}
	}
	term.readTheFacts()
	term.typeText("buy")
	term.press(keyEnter)
	term.waitText("BOUGHT: the Capacity Block is yours.", "Upfront fee    $")
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
