//go:build unix

package main

// End-to-end tests of the real binary: a person's whole loop (search, sort, chart, buy,
// find the block, launch into it, extend it) in the TUI on a pseudo-terminal, and the same
// loop with the commands, both against `gpublock sim`. They guard the restructures that
// move code between packages: what a person sees and gets must not change.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

var (
	// A row of the offerings table at 120 columns: zone, type, start, length, fee, $/inst-h,
	// break-even (the core columns, columns.go).
	offeringRowRE = regexp.MustCompile(`│([a-z]+-[a-z]+-\d[a-z]?)\s+(\S+)\s+(\w{3} \d\d \d\d:\d\d)\s+(\S+)\s+(\$[\d,]+\.\d\d)\s+\$(\d+\.\d{3})\s+(?:\d+% \S+|never|—)\s*│`)
	e2eFoundRE    = regexp.MustCompile(`Found (\d+) offerings in 3 regions`)
	e2eReceiptRE  = regexp.MustCompile(`Reservation\s+(cr-[0-9a-f]{17})`)
	e2eInstanceRE = regexp.MustCompile(`(i-[0-9a-f]{17})\s+pending`)
	e2eExtFeeRE   = regexp.MustCompile(`Upfront fee\s+\$([\d,]+\.\d\d) USD, for the added time`)
	e2eUTCRE      = regexp.MustCompile(`(?m)^\s*┆\s*(Start|End)\s+(\d{4}-\d\d-\d\d \d\d:\d\d) UTC`)
)

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
	// The found line and the regions pane are drawn in one frame, but the terminal may be
	// read while that frame is half written: wait for the pane rather than look once.
	term.waitText("us-east-1       ok", "us-east-2       ok", "us-west-2       ok")

	// Sorted by $ per instance-hour, from the first row.
	term.press("H", "g")
	text = term.waitText("sorted by $ per instance-hour ▲", "$/inst-h▲", "Offerings · 1 of ")
	rows := offeringRowRE.FindAllStringSubmatch(text, -1)
	if len(rows) < 2 {
		t.Fatalf("%d offering rows on the screen:\n%s", len(rows), text)
	}
	for i := 1; i < len(rows); i++ {
		prev, _ := strconv.ParseFloat(rows[i-1][6], 64)
		cur, _ := strconv.ParseFloat(rows[i][6], 64)
		if cur < prev {
			t.Errorf("row %d ($%s/inst-h) is below the row before it ($%s) in an ascending sort", i, rows[i][6], rows[i-1][6])
		}
	}
	// The first column is the zone, or the region where the table is too narrow for both.
	place, fee := rows[0][1], rows[0][5]
	region := strings.TrimRight(place, "abcdefghijklmnopqrstuvwxyz")
	text = term.waitText(region+" · "+region, "Upfront fee "+fee+" USD")
	zone := regexp.MustCompile(regexp.QuoteMeta(region) + ` · (` + regexp.QuoteMeta(region) + `[a-z])`).FindStringSubmatch(text)[1]

	// The chart of the cheapest offering.
	term.press("v")
	term.waitText("Chart · v details", "Cumulative cost vs hours used", "= block "+fee+" upfront")

	// Buy it: the dialog states what is bought; typing buy buys it.
	text = term.purchaseDialog("Type buy and press enter")
	for _, want := range []string{"Account        123456789012", "Region · zone  " + region + " · " + zone, "Upfront fee    " + fee + " USD",
		"This cannot be cancelled", "SIMULATED"} {
		if !strings.Contains(text, want) {
			t.Errorf("the purchase dialog lacks %q:\n%s", want, text)
		}
	}
	text = term.confirmBuy("payment-pending")
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
	// At 120 columns the table keeps the warning, state, region, type and countdowns; the
	// detail of the selected row states the start, the end and the instances.
	if cmdtest.LineWith(text, "IDLE, PAID", "active", region, "p5.48xlarge × 1", "ends in ") == "" {
		t.Errorf("no active row of the block warning that no instance runs in it:\n%s", text)
	}
	for _, want := range e2eBlockDetail(start, end, 0) {
		if !strings.Contains(text, want) {
			t.Errorf("the block's detail lacks %q:\n%s", want, text)
		}
	}

	// Launch into it.
	term.press("l")
	term.waitText("Launch into a block", id+" · "+region+" · "+zone, "✓ allowed (ec2:RunInstances)", "Type launch")
	term.readTheFacts()
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
	// Every length is asked for at once and those offered are listed as they answer; the
	// shortest, a day, is selected.
	term.waitText("Extend "+id, "choose the length", "› 1d ")
	term.press(keyEnter)
	newEnd := end.Add(24 * time.Hour)
	text = term.waitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)", "Type extend", "New end      "+newEnd.Format("2006-01-02 15:04")+" UTC")
	em := e2eExtFeeRE.FindStringSubmatch(text)
	if em == nil {
		t.Fatalf("no extension fee in the dialog:\n%s", text)
	}
	extFee := dollars(t, em[1])
	term.readTheFacts()
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
	if cmdtest.LineWith(text, "active", region, "p5.48xlarge × 1", "ends in ") == "" || strings.Contains(text, "IDLE") {
		t.Errorf("no active row of the block, or it still warns that it is idle:\n%s", text)
	}
	for _, want := range e2eBlockDetail(start, newEnd, 1) {
		if !strings.Contains(text, want) {
			t.Errorf("the block's detail after the extension lacks %q:\n%s", want, text)
		}
	}

	// q quits with status 0 and gives the terminal back as it was.
	term.press("q")
	code, raw := term.exit()
	if code != 0 {
		t.Errorf("exit status %d after q", code)
	}
	if !bytes.Contains(raw, []byte(e2eMouseOn)) {
		t.Error("the TUI never turned the mouse reporting on")
	}
	e2eAssertRestored(t, term, raw)
}

// e2eMouseOn turns on the terminal's reports of clicks and of the wheel (cell motion).
const e2eMouseOn = "\x1b[?1002h"

// --no-mouse leaves the mouse to the terminal: the reporting is never turned on.
func TestE2ENoMouse(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	term := startE2ETerm(t, e2eEnv(t, sim, t.TempDir()), 120, 40, nil, "--no-mouse")
	term.waitText("SIMULATED", "account 123456789012")
	term.press("q")
	code, raw := term.exit()
	if code != 0 || bytes.Contains(raw, []byte(e2eMouseOn)) {
		t.Errorf("exit %d; mouse reporting turned on: %v", code, bytes.Contains(raw, []byte(e2eMouseOn)))
	}
	e2eAssertRestored(t, term, raw)
}

// e2eBlockDetail are the lines of a one-instance block's detail that state its window and
// the instances running in it.
func e2eBlockDetail(start, end time.Time, running int) []string {
	return []string{
		"Start         " + start.Format("Mon 2006-01-02 15:04") + " UTC",
		"End           " + end.Format("Mon 2006-01-02 15:04") + " UTC",
		fmt.Sprintf("Running       %d of 1 instances", running),
	}
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
	// The mouse reporting a frame turned on is turned off again.
	if on, off := bytes.LastIndex(raw, []byte(e2eMouseOn)), bytes.LastIndex(raw, []byte("\x1b[?1002l")); on >= 0 && off < on {
		t.Errorf("the mouse reporting was left on (on at %d, off at %d)", on, off)
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

// e2eOffering is an offering as `gpublock offerings -o json` prints it; the field names
// are the contract (AWS's own, plus gpublock's pricing), not the program's Go types.
type e2eOffering struct {
	CapacityBlockOfferingId, InstanceType, AvailabilityZone, Region string
	StartDate, EndDate, UpfrontFee                                  string
	CapacityBlockDurationHours, CapacityBlockDurationMinutes        int
	AcceleratorHourlyPrice                                          string
}

// e2eBlock is a block as `gpublock blocks -o json` prints it.
type e2eBlock struct {
	CapacityReservationId, Region, AvailabilityZone, InstanceType, State, StartDate, EndDate string
	TotalInstanceCount, RunningInstanceCount, Extensions                                     int
	InstanceIds                                                                              []string
}

func e2eBlocks(t *testing.T, env []string, regions string) []e2eBlock {
	t.Helper()
	return e2eRunJSON[[]e2eBlock](t, env, "blocks", "--region", regions, "-o", "json")
}

// The same loop with the commands, against the same kind of `gpublock sim`, as a script
// would run it: exit codes and output at every step.
func TestE2ECommands(t *testing.T) {
	sim := startE2ESim(t, 7, e2eStart)
	home := t.TempDir()
	env := e2eEnv(t, sim, home)
	const regions = "us-east-1,us-east-2,us-west-2"
	search := []string{"--region", regions, "--type", "p5.48xlarge,p5e.48xlarge", "--duration", "2d"}

	code, table, errs := e2eRun(t, env, append([]string{"offerings"}, search...)...)
	if code != 0 || !strings.HasPrefix(table, "REGION") {
		t.Fatalf("gpublock offerings: exit %d, stderr %q\n%s", code, errs, table)
	}
	code, out, errs := e2eRun(t, env, append([]string{"offerings", "-o", "json"}, search...)...)
	var offs []e2eOffering
	if code != 0 || json.Unmarshal([]byte(out), &offs) != nil || len(offs) < 2 {
		t.Fatalf("gpublock offerings -o json: exit %d, stderr %q\n%s", code, errs, out)
	}
	// The cheapest per accelerator-hour, as the TUI's sort finds it.
	best := offs[0]
	for _, o := range offs[1:] {
		if dollars(t, o.AcceleratorHourlyPrice).Cmp(dollars(t, best.AcceleratorHourlyPrice)) < 0 {
			best = o
		}
	}
	fee := dollars(t, best.UpfrontFee)
	if cmdtest.LineWith(table, best.Region, best.AvailabilityZone, best.InstanceType, strings.Replace(best.StartDate[:16], "T", " ", 1), fee.Dollars(), best.CapacityBlockOfferingId) == "" {
		t.Errorf("the table lacks the offering %s as -o json states it:\n%s", best.CapacityBlockOfferingId, table)
	}
	for _, r := range strings.Split(regions, ",") {
		if !strings.Contains(out, `"Region": "`+r+`"`) {
			t.Errorf("no offering from %s:\n%s", r, out)
		}
	}

	// Buying needs --yes where nobody can type buy; without it nothing is sent.
	buy := []string{"purchase", best.CapacityBlockOfferingId, "--region", best.Region, "--type", best.InstanceType, "--duration", "2d"}
	if code, _, errs = e2eRun(t, env, buy...); code != 2 || !strings.Contains(errs, "--yes") {
		t.Errorf("purchase without --yes and without a terminal: exit %d, want 2 and a word on --yes:\n%s", code, errs)
	}
	if rows := e2eBlocks(t, env, regions); len(rows) != 0 {
		t.Fatalf("a purchase refused still bought: %+v", rows)
	}
	code, out, errs = e2eRun(t, env, append(buy, "--yes")...)
	if code != 0 {
		t.Fatalf("purchase --yes: exit %d\n%s", code, errs)
	}
	m := regexp.MustCompile(`Reservation: (cr-[0-9a-f]{17})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("purchase printed no reservation:\n%s", out)
	}
	id := m[1]
	for _, want := range []string{"State:       payment-pending", "Zone:        " + best.AvailabilityZone, "Upfront fee: " + fee.Dollars() + " USD"} {
		if !strings.Contains(out, want) {
			t.Errorf("purchase's answer lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"PURCHASE (SIMULATED)", "Account:       123456789012", "Upfront fee:   " + fee.Dollars() + " USD, total for the whole block",
		"This cannot be cancelled", "allowed (ec2:PurchaseCapacityBlock, dry run)"} {
		if !strings.Contains(strings.Join(strings.Fields(errs), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("purchase's confirmation lacks %q:\n%s", want, errs)
		}
	}

	// blocks lists it.
	code, out, errs = e2eRun(t, env, "blocks", "--region", regions)
	if code != 0 || cmdtest.LineWith(out, id, best.Region, best.AvailabilityZone, best.InstanceType, "payment-pending") == "" {
		t.Fatalf("blocks: exit %d, no payment-pending row for %s:\n%s%s", code, id, out, errs)
	}
	bl := e2eBlocks(t, env, regions)
	if len(bl) != 1 || bl[0].CapacityReservationId != id || bl[0].StartDate != best.StartDate || bl[0].EndDate != best.EndDate {
		t.Fatalf("blocks -o json: %+v, want %s from %s to %s", bl, id, best.StartDate, best.EndDate)
	}
	start, end := cmdtest.MustTime(t, best.StartDate), cmdtest.MustTime(t, best.EndDate)

	// The clock moves an hour past the start; launch into the active block.
	sim.setClock(t, start.Add(time.Hour))
	if bl = e2eBlocks(t, env, regions); bl[0].State != "active" {
		t.Fatalf("an hour after the start the block is %s, want active", bl[0].State)
	}
	code, out, errs = e2eRun(t, env, "launch", id, "--region", best.Region, "--ami", "ami-0123456789abcdef0", "--yes")
	inst := regexp.MustCompile(`(?m)^(i-[0-9a-f]{17})\s+pending\s+` + regexp.QuoteMeta(best.InstanceType)).FindStringSubmatch(out)
	if code != 0 || inst == nil || !strings.Contains(errs, "Block:       "+id+" · ") || !strings.Contains(errs, "State:       active") {
		t.Fatalf("launch: exit %d, no pending instance:\n%s%s", code, out, errs)
	}

	// Extend it by a day; the end moves once the payment has gone through.
	code, out, errs = e2eRun(t, env, "extend", id, "--region", best.Region, "--duration", "1d", "--yes")
	newEnd := end.Add(24 * time.Hour).Format("2006-01-02 15:04")
	fm := regexp.MustCompile(`Upfront fee: (\$[\d,]+\.\d\d) USD\n`).FindStringSubmatch(out)
	if code != 0 || fm == nil || !strings.Contains(out, "New end:     "+newEnd+" UTC") || !strings.Contains(out, "Status:      payment-pending") {
		t.Fatalf("extend: exit %d:\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "Upfront fee: "+fm[1]+" USD, for the added time") {
		t.Errorf("the extension's confirmation does not state the fee charged, %s:\n%s", fm[1], errs)
	}
	if bl = e2eBlocks(t, env, regions); bl[0].EndDate != best.EndDate {
		t.Errorf("the end moved before the payment: %s", bl[0].EndDate)
	}
	sim.setClock(t, start.Add(time.Hour+10*time.Minute))
	code, out, errs = e2eRun(t, env, "blocks", "--region", regions)
	if code != 0 || cmdtest.LineWith(out, id, "active", best.StartDate[:10], newEnd, "ok") == "" {
		t.Errorf("blocks after the extension: exit %d, no active row ending %s:\n%s%s", code, newEnd, out, errs)
	}
	bl = e2eBlocks(t, env, regions)
	if b := bl[0]; b.EndDate != end.Add(24*time.Hour).Format(time.RFC3339) || b.Extensions != 1 || b.RunningInstanceCount != 1 ||
		len(b.InstanceIds) != 1 || b.InstanceIds[0] != inst[1] {
		t.Errorf("blocks -o json after the extension: %+v; want the new end, 1 extension and %s running", b, inst[1])
	}

	// The emulator's state file keeps the block, its extension and its instance across a
	// restart of gpublock sim.
	now := sim.clock(t)
	sim.stop(t)
	sim = startE2ESimState(t, 7, now, sim.state)
	env = e2eEnv(t, sim, home)
	if after := e2eBlocks(t, env, regions); len(after) != 1 || after[0].CapacityReservationId != id || after[0].EndDate != bl[0].EndDate ||
		after[0].Extensions != 1 || len(after[0].InstanceIds) != 1 {
		t.Errorf("after a restart on the state file: %+v, want %+v", after, bl)
	}

	// A block that does not exist: a failure exit and a message, for a script to act on.
	if code, _, errs = e2eRun(t, env, "extend", "cr-0123456789abcdef0", "--region", best.Region, "--duration", "1d", "--yes"); code == 0 || !strings.Contains(errs, "cr-0123456789abcdef0") {
		t.Errorf("extend of a block that does not exist: exit %d:\n%s", code, errs)
	}
}
