//go:build unix

package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/ui/dialog/spend"
)

var e2eFoundAnyRE = regexp.MustCompile(`Found (\d+) offerings? in`)

// e2eNothingBought fails the test when the emulator lists a block or the journal holds an
// entry: what was bought is read where it is kept, not from the screen.
func e2eNothingBought(t *testing.T, env []string, backend ...string) {
	t.Helper()
	code, out, errs := e2eRun(t, env, append([]string{"blocks", "-o", "json"}, backend...)...)
	var rows []e2eBlock
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("gpublock blocks -o json: exit %d, stderr %q\n%s", code, errs, out)
	}
	if len(rows) != 0 {
		t.Errorf("%d blocks were bought: %+v", len(rows), rows)
	}
	code, out, errs = e2eRun(t, env, append([]string{"journal", "--no-settle", "-o", "json"}, backend...)...)
	var entries []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil {
		t.Fatalf("gpublock journal -o json: exit %d, stderr %q\n%s", code, errs, out)
	}
	if len(entries) != 0 {
		t.Errorf("the journal holds %d entries: %v", len(entries), entries)
	}
}

// Against an emulator that answers at once, enter (open the purchase), buy, enter sent
// as one burst buys nothing, and neither does buy, enter sent the moment the dry run's
// answer is drawn: the keys came before the facts could be read, and are discarded with a
// line that says so. A bracketed paste of "buy\r" after the dwell buys nothing either.
func TestE2EBurstAndPasteBuyNothing(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	env := e2eEnv(t, sim, t.TempDir())
	// --demo: the emulator in the process, whose dry run answers before the next key is read.
	term := startE2ETerm(t, env, 120, 40, nil, "--demo")
	term.waitText("SIMULATED", "account 123456789012", "›Types")
	term.press(keyEnter)
	text := term.waitFor("the end of the search", e2eFoundAnyRE.MatchString)
	if n := e2eFoundAnyRE.FindStringSubmatch(text)[1]; n == "0" {
		t.Fatalf("the search found nothing:\n%s", text)
	}

	// One write: a terminal sends a burst typed ahead (or scripted) like this.
	term.press(keyEnter + "buy" + keyEnter)
	// The keys after the first reach the dialog or, when it opens after them, the screen
	// beneath: either way none of them may confirm.
	text = term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	time.Sleep(2 * spend.Dwell)
	if text = term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		t.Fatalf("the burst bought:\n%s", text)
	}
	term.closeDialog("Buy a Capacity Block")

	// The word sent the moment the dry run's answer is drawn: still inside the dwell.
	term.press(keyEnter)
	term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	term.press("buy" + keyEnter)
	term.waitText("typed before the confirmation was readable were discarded; type buy now.")
	time.Sleep(2 * spend.Dwell)
	if text = term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		t.Fatalf("the word typed with the answer bought:\n%s", text)
	}
	term.closeDialog("Buy a Capacity Block")

	// A paste after the dwell: it is neither typed nor confirms.
	term.press(keyEnter)
	term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	term.readTheFacts()
	term.press("\x1b[200~buy\r\x1b[201~")
	term.waitText("A paste never confirms")
	term.press(keyEnter)
	term.waitText("Type buy, then enter; esc cancels.")
	time.Sleep(spend.Dwell)
	if text = term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		t.Fatalf("the paste bought:\n%s", text)
	}
	term.closeDialog("Buy a Capacity Block")
	term.press("q")
	if code, _ := term.exit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	e2eNothingBought(t, env, "--demo")
}
