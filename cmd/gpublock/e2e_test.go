package main

// End-to-end tests of the real binary: a person's whole loop (search, sort, chart, buy,
// find the block, launch into it, extend it) in the TUI on a pseudo-terminal, and the same
// loop with the commands, both against `gpublock sim`. They guard the restructures that
// move code between packages: what a person sees and gets must not change.

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// e2eStart is the emulator's clock when a test starts; it stands still unless moved.
var e2eStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

var (
	// A row of the offerings table at 120 columns: zone, type, start, length, fee, $/acc-h.
	offeringRowRE = regexp.MustCompile(`│([a-z]+-[a-z]+-\d[a-z])\s+(\S+)\s+(\w{3} \d\d \d\d:\d\d)\s+(\S+)\s+(\$[\d,]+\.\d\d)\s+\$(\d+\.\d{3})\s+│`)
	e2eFoundRE    = regexp.MustCompile(`Found (\d+) offerings in 3 regions`)
	e2eReceiptRE  = regexp.MustCompile(`Reservation\s+(cr-[0-9a-f]{17})`)
	e2eInstanceRE = regexp.MustCompile(`(i-[0-9a-f]{17})\s+pending`)
	e2eExtFeeRE   = regexp.MustCompile(`Upfront fee\s+\$([\d,]+\.\d\d) USD, for the added time`)
	e2eUTCRE      = regexp.MustCompile(`(?m)^\s*┆\s*(Start|End)\s+(\d{4}-\d\d-\d\d \d\d:\d\d) UTC`)
)

func (term *e2eTerm) typeText(s string) {
	for _, c := range s {
		term.press(string(c))
	}
}

// closeDialog presses esc and waits until the dialog's mark has left the screen: a key
// typed right after a lone esc would be read as alt+key, on any terminal.
func (term *e2eTerm) closeDialog(mark string) {
	term.t.Helper()
	term.press(keyEsc)
	term.waitFor("the dialog with "+strconv.Quote(mark)+" to close", func(s string) bool { return !strings.Contains(s, mark) })
}

func dollars(t *testing.T, s string) model.Money {
	t.Helper()
	m, err := model.ParseMoney(strings.NewReplacer("$", "", ",", "").Replace(s))
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return m
}

func e2eUTC(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UTC()
}

// The TUI's whole loop on a 120×40 terminal.
func TestE2ETUI(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	env := e2eEnv(t, sim, t.TempDir())
	term := startE2ETerm(t, env, 120, 40, nil)
	term.waitText("SIMULATED", "account 123456789012", "›Types")

	// Two types: H200 besides the default H100, chosen through the type filter.
	term.press("/")
	term.typeText("h200")
	term.press(" ")
	term.waitText("[x] p5e.48xlarge")
	term.press(keyEsc)
	term.waitText("Types    p5.48xlarge, p5e.48xlarge", "[ ] p4d.24xlarge")

	// Three regions: the home region and the two that sell both types.
	term.press(keyTab, keyTab, keyTab, keyTab, keyTab)
	term.waitText("›Regions")
	for range 7 {
		term.press(keyDown)
	}
	term.press(" ", keyDown, " ")
	text := term.waitText("Regions  3 chosen")
	for _, r := range []string{"[x] us-east-1", "[x] us-east-2", "[x] us-west-2", "[ ] eu-west-2"} {
		if !strings.Contains(text, r) {
			t.Errorf("the region list lacks %q:\n%s", r, text)
		}
	}
	term.press(keyEnter)
	text = term.waitFor("the end of the search", e2eFoundRE.MatchString)
	if n, _ := strconv.Atoi(e2eFoundRE.FindStringSubmatch(text)[1]); n < 2 {
		t.Fatalf("the search found %d offerings; the loop needs some to sort:\n%s", n, text)
	}
	for _, r := range []string{"us-east-1       ok", "us-east-2       ok", "us-west-2       ok"} {
		if !strings.Contains(text, r) {
			t.Errorf("the regions pane lacks %q:\n%s", r, text)
		}
	}

	// Sorted by $ per accelerator-hour, from the first row.
	term.press("A", "g")
	text = term.waitText("sorted by $ per accelerator-hour ▲", "$/acc-h▲", "Offerings · 1 of ")
	rows := offeringRowRE.FindAllStringSubmatch(text, -1)
	if len(rows) < 2 {
		t.Fatalf("%d offering rows on the screen:\n%s", len(rows), text)
	}
	for i := 1; i < len(rows); i++ {
		prev, _ := strconv.ParseFloat(rows[i-1][6], 64)
		cur, _ := strconv.ParseFloat(rows[i][6], 64)
		if cur < prev {
			t.Errorf("row %d ($%s/acc-h) is below the row before it ($%s) in an ascending sort", i, rows[i][6], rows[i-1][6])
		}
	}
	zone, fee, rate := rows[0][1], rows[0][5], rows[0][6]
	region := zone[:len(zone)-1]
	term.waitText(region+" · "+zone, "Upfront fee "+fee+" USD", "$"+rate+" per accelerator-hour")

	// The chart of the cheapest offering.
	term.press("v")
	term.waitText("Chart · v details", "Cumulative cost vs hours used", "= block "+fee+" upfront")

	// Buy it: the dialog states what is bought; typing buy buys it.
	term.press(keyEnter)
	text = term.waitText("Buy a Capacity Block", "✓ allowed (ec2:PurchaseCapacityBlock)", "Type buy and press enter")
	for _, want := range []string{"Account        123456789012", "Region · zone  " + region + " · " + zone, "UPFRONT FEE    " + fee + " USD",
		"$" + rate + " per accelerator-hour", "This cannot be cancelled", "SIMULATED"} {
		if !strings.Contains(text, want) {
			t.Errorf("the purchase dialog lacks %q:\n%s", want, text)
		}
	}
	term.typeText("buy")
	term.press(keyEnter)
	text = term.waitText("BOUGHT: the Capacity Block is yours.", "payment-pending")
	m := e2eReceiptRE.FindStringSubmatch(text)
	times := e2eUTCRE.FindAllStringSubmatch(text, -1)
	if m == nil || len(times) != 2 || !strings.Contains(text, "Upfront fee    "+fee+" USD") {
		t.Fatalf("the receipt lacks the reservation, its start and end, or the fee %s:\n%s", fee, text)
	}
	id, start, end := m[1], e2eUTC(t, times[0][2]), e2eUTC(t, times[1][2])

	// The blocks screen lists it, waiting for its payment.
	term.closeDialog("Receipt")
	term.press("2")
	term.waitText(id+" · p5.48xlarge × 1 · "+zone+" · payment-pending", "PAY PENDING", "Fee paid      "+fee)

	// The emulator's clock moves an hour past the start: the block is active.
	at := start.Add(time.Hour)
	sim.setClock(t, at)
	term.press("r")
	text = term.waitText("as of "+at.Format("15:04:05")+" UTC", id+" · p5.48xlarge × 1 · "+zone+" · active")
	if rowWith(text, "active", "p5.48xlarge × 1", start.Format("Jan 02 15:04"), end.Format("Jan 02 15:04"), "0/1") == "" {
		t.Errorf("no active row with the block's start, end and no instance running:\n%s", text)
	}

	// Launch into it.
	term.press("l")
	term.waitText("Launch into a block", id+" · "+region+" · "+zone, "✓ allowed (ec2:RunInstances)", "Type launch")
	term.typeText("launch")
	term.press(keyEnter)
	text = term.waitText("LAUNCHED 1 instance into " + id)
	inst := e2eInstanceRE.FindStringSubmatch(text)
	if inst == nil {
		t.Fatalf("no launched instance on the screen:\n%s", text)
	}
	term.closeDialog("LAUNCHED")

	// Extend it by a day.
	term.press("e")
	term.waitText("Extend "+id, "choose the length")
	term.press(keyEnter)
	newEnd := end.Add(24 * time.Hour)
	text = term.waitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)", "Type extend", "New end      "+newEnd.Format("2006-01-02 15:04")+" UTC")
	em := e2eExtFeeRE.FindStringSubmatch(text)
	if em == nil {
		t.Fatalf("no extension fee in the dialog:\n%s", text)
	}
	extFee := dollars(t, em[1])
	term.typeText("extend")
	term.press(keyEnter)
	term.waitText("EXTENSION BOUGHT, payment pending: " + id)
	term.closeDialog("EXTENSION BOUGHT")

	// Ten minutes on, the payment has gone through and the instance is up: the new end,
	// the running instance and both fees.
	at = at.Add(10 * time.Minute)
	sim.setClock(t, at)
	term.press("r")
	paid := dollars(t, fee).Add(extFee).Dollars()
	text = term.waitText("as of "+at.Format("15:04:05")+" UTC", inst[1]+"  running", "Fee paid      "+paid, "Extensions (1)")
	if rowWith(text, "active", "p5.48xlarge × 1", start.Format("Jan 02 15:04"), newEnd.Format("Jan 02 15:04"), "1/1") == "" {
		t.Errorf("no active row with the new end %s and one instance running:\n%s", newEnd.Format("Jan 02 15:04"), text)
	}

	// q quits with status 0 and gives the terminal back as it was.
	term.press("q")
	code, raw := term.exit()
	if code != 0 {
		t.Errorf("exit status %d after q", code)
	}
	e2eAssertRestored(t, term, raw)
}

// e2eAssertRestored checks what the program wrote last: it left the alternate screen and
// showed the cursor again, after its last frame.
func e2eAssertRestored(t *testing.T, term *e2eTerm, raw []byte) {
	t.Helper()
	enter := bytes.LastIndex(raw, []byte("\x1b[?1049h"))
	leave := bytes.LastIndex(raw, []byte("\x1b[?1049l"))
	show := bytes.LastIndex(raw, []byte("\x1b[?25h"))
	hide := bytes.LastIndex(raw, []byte("\x1b[?25l"))
	if enter < 0 || leave < enter || show < hide {
		t.Errorf("the terminal was not restored (alternate screen entered at %d, left at %d; cursor hidden at %d, shown at %d); the end of the output: %q",
			enter, leave, hide, show, raw[max(0, len(raw)-300):])
	}
	term.mu.Lock()
	alt, hidden := term.emu.IsAltScreen(), term.emu.CursorHidden()
	term.mu.Unlock()
	if alt || hidden {
		t.Errorf("after the exit the terminal is on the alternate screen=%v, cursor hidden=%v", alt, hidden)
	}
	if bytes.Contains(raw, []byte("e2e-test-secret")) {
		t.Error("the secret key reached the terminal")
	}
}
