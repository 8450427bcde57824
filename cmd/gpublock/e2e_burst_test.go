//go:build unix

package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

var e2eFoundAnyRE = regexp.MustCompile(`Found (\d+) offerings? in`)

// e2eBought is what was bought, read where it is kept, not from the screen: the blocks
// the backend lists and the journal's entries.
func e2eBought(t *testing.T, env []string, backend ...string) ([]e2eBlock, []map[string]any) {
	t.Helper()
	code, out, errs := e2eRun(t, env, append([]string{"blocks", "-o", "json"}, backend...)...)
	var rows []e2eBlock
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("gpublock blocks -o json: exit %d, stderr %q\n%s", code, errs, out)
	}
	code, out, errs = e2eRun(t, env, append([]string{"journal", "--no-settle", "-o", "json"}, backend...)...)
	var entries []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil {
		t.Fatalf("gpublock journal -o json: exit %d, stderr %q\n%s", code, errs, out)
	}
	return rows, entries
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
	text = term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	time.Sleep(2 * model.ConfirmDwell)
	if text = term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		t.Fatalf("the burst bought:\n%s", text)
	}
	term.closeDialog("Buy a Capacity Block")

	// The word sent the moment the dry run's answer is drawn: still inside the dwell.
	term.press(keyEnter)
	term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	term.press("buy" + keyEnter)
	term.waitText("typed before the confirmation was readable were discarded; type buy now.")
	time.Sleep(2 * model.ConfirmDwell)
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
	time.Sleep(model.ConfirmDwell)
	if text = term.screen(); strings.Contains(text, "BOUGHT") || strings.Contains(text, "Buying") {
		t.Fatalf("the paste bought:\n%s", text)
	}
	term.closeDialog("Buy a Capacity Block")

	// The positive control: typed after the dwell, buy buys.
	term.press(keyEnter)
	term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)")
	term.readTheFacts()
	term.typeText("buy")
	term.press(keyEnter)
	text = term.waitText("BOUGHT: the Capacity Block is yours.")
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
