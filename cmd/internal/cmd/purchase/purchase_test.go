package purchase

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

func TestPurchaseWithYes(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "-o", "json", "--tag", "project=llm", "--tag", "Name=run 1")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var got PurchaseJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var raw map[string]map[string]any
	_ = json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"CapacityReservationId", "CapacityBlockId", "InstanceType", "AvailabilityZone", "TotalInstanceCount",
		"AvailableInstanceCount", "State", "StartDate", "EndDate", "InstancePlatform", "Tenancy", "ReservationType", "Tags"} {
		if _, ok := raw["CapacityReservation"][k]; !ok {
			t.Errorf("CapacityReservation lacks %s: %s", k, out)
		}
	}
	r := got.CapacityReservation
	if !strings.HasPrefix(r.CapacityReservationId, "cr-") || r.CapacityBlockId == "" || r.InstanceType != "p5.48xlarge" ||
		r.AvailabilityZone != off.AvailabilityZone || r.TotalInstanceCount != 2 || r.State != "payment-pending" ||
		r.StartDate != off.StartDate || r.EndDate != off.EndDate || r.InstancePlatform != "Linux/UNIX" || r.ReservationType != "capacity-block" {
		t.Errorf("reservation %+v, offering %+v", r, off)
	}
	if got.UpfrontFee != off.UpfrontFee || got.Region != "us-east-1" || got.CapacityBlockOfferingId != off.CapacityBlockOfferingId || got.FoundByRequestTag {
		t.Errorf("purchase %+v", got)
	}
	tags := map[string]string{}
	for _, tg := range r.Tags {
		tags[tg.Key] = tg.Value
	}
	if tags["project"] != "llm" || tags["Name"] != "run 1" || tags[awsapi.RequestIDTag] != got.GpublockRequestId || got.GpublockRequestId == "" {
		t.Errorf("tags %v, request id %q", tags, got.GpublockRequestId)
	}

	// The confirmation went to stderr with everything a person must see.
	fee := model.MustMoney(off.UpfrontFee)
	for _, want := range []string{"Account:       " + ec2sim.DemoAccount, "Region · zone: us-east-1 · " + off.AvailabilityZone,
		"p5.48xlarge × 2", "UTC", "p5.48xlarge × 2 for 2d (48 hours)", fee.Dollars(), model.Irrevocable, "allowed (ec2:PurchaseCapacityBlock"} {
		if !cmdtest.Says(errs, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, errs)
		}
	}

	rows := cli.Reservations(t, cs.URL)
	if len(rows) != 1 || rows[0].CapacityReservationId != r.CapacityReservationId || rows[0].TotalInstanceCount != 2 {
		t.Fatalf("after the purchase: %+v", rows)
	}

	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[0].Phase != "intent" || lines[1].Phase != "outcome" || lines[1].Outcome != "bought" ||
		lines[1].Result != r.CapacityReservationId || lines[0].RequestID != got.GpublockRequestId || lines[0].Fee != off.UpfrontFee ||
		lines[0].Account != ec2sim.DemoAccount {
		t.Errorf("journal %+v", lines)
	}

	// The same offering cannot be bought twice: it has gone from the search.
	code, _, errs = cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "not among") || len(cli.Reservations(t, cs.URL)) != 1 {
		t.Errorf("second purchase: exit %d\n%s", code, errs)
	}
}

func TestPurchaseTableOutput(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	rows := cli.Reservations(t, cs.URL)
	if code != 0 || len(rows) != 1 {
		t.Fatalf("exit %d, %d reservations\n%s", code, len(rows), errs)
	}
	for _, want := range []string{"Reservation: " + rows[0].CapacityReservationId, "State:       payment-pending",
		"Zone:        " + off.AvailabilityZone, "Request tag: " + awsapi.RequestIDTag + "=gpb-"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestPurchaseTypedConfirmation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	for _, typed := range []string{"no\n", "BUY\n", "buy it\n", "y\n", "", "\n"} {
		cli.AsPerson(t, true, typed)
		code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...)
		if code != 1 || !strings.Contains(errs, "Type buy") || !strings.Contains(errs, "cancelled; nothing was bought") {
			t.Errorf("typed %q: exit %d\n%s", typed, code, errs)
		}
		cli.AssertNothingBought(t, cs.URL)
	}
	if lines := cmdtest.JournalLines(t); len(lines) != 0 {
		t.Errorf("cancelled purchases reached the journal: %+v", lines)
	}

	cli.AsPerson(t, true, "buy\n")
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...)
	if rows := cli.Reservations(t, cs.URL); code != 0 || len(rows) != 1 {
		t.Fatalf("typed buy: exit %d, %d reservations\n%s", code, len(rows), errs)
	}
}

func TestPurchaseWithoutTerminalRefuses(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	if errs := cli.OffTerminal(t, cs, "buy\n", cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...); !strings.Contains(errs, "--yes") {
		t.Errorf("the refusal does not name --yes\n%s", errs)
	}
	cli.AssertNothingBought(t, cs.URL)
}

func TestPurchaseDryRun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	cli.AsPerson(t, false, "")
	// With the search flags, it shows what would be bought too.
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--dry-run")...)
	if code != 0 || !strings.Contains(out, "Dry run: allowed") || !strings.Contains(out, "ec2:PurchaseCapacityBlock") ||
		!strings.Contains(errs, off.AvailabilityZone) {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	// With the id and region only, it is the permission check alone.
	code, out, errs = cli.Run("purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL, "--region", "us-east-1", "--dry-run", "-o", "json")
	var got map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got["Allowed"] != true || got["Action"] != "ec2:PurchaseCapacityBlock" {
		t.Errorf("json: exit %d, %q\n%s", code, out, errs)
	}
	// An id AWS does not know is not "allowed".
	code, out, errs = cli.Run("purchase", "cbr-00000000000000000", "--endpoint-url", cs.URL, "--region", "us-east-1", "--dry-run")
	if code != 1 || strings.Contains(out, "allowed") || errs == "" {
		t.Errorf("unknown id: exit %d, %q\n%s", code, out, errs)
	}
	cli.AssertNothingBought(t, cs.URL)
	if lines := cmdtest.JournalLines(t); len(lines) != 0 {
		t.Errorf("a dry run reached the journal: %+v", lines)
	}
}

func TestPurchaseMaxSpend(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	fee := model.MustMoney(off.UpfrontFee)
	capBelow := fee.Sub(model.MoneyFromCents(1))
	url, purchases := cmdtest.CountPurchases(t, cs.Emulator)
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(url, off.CapacityBlockOfferingId, "--yes", "--max-spend", capBelow.String())...)
	if code != 1 || !strings.Contains(errs, "spending cap of "+capBelow.Dollars()) || !strings.Contains(errs, "--max-spend") ||
		!strings.Contains(errs, fee.Dollars()) {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if purchases.Load() != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls (dry runs included) above the cap", purchases.Load())
	}
	cli.AssertNothingBought(t, cs.URL)
	if lines := cmdtest.JournalLines(t); len(lines) != 0 {
		t.Errorf("a refused purchase reached the journal: %+v", lines)
	}
	// A cap equal to the fee allows it.
	code, _, errs = cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--max-spend", fee.String())...)
	if rows := cli.Reservations(t, cs.URL); code != 0 || len(rows) != 1 {
		t.Errorf("cap = fee: exit %d, %d reservations\n%s", code, len(rows), errs)
	}
}

func TestPurchaseSoldMeanwhile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	cs.Emulator.SetFaults(cmdtest.Fault(t, "sold=1"))
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, "sold to someone else") || !strings.Contains(errs, "search again") ||
		!strings.Contains(errs, "NOT BOUGHT") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	cs.Emulator.SetFaults(ec2sim.Faults{})
	cli.AssertNothingBought(t, cs.URL)
	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[0].Phase != "intent" || lines[1].Outcome != "not-bought" || lines[1].Error == "" {
		t.Errorf("journal %+v", lines)
	}
}

func TestPurchaseLostReplyFound(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	cs.Emulator.SetFaults(cmdtest.Fault(t, "lost-reply=1"))
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "-o", "json")...)
	cs.Emulator.SetFaults(ec2sim.Faults{})
	if code != 0 || !strings.Contains(errs, "found by its request tag") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got PurchaseJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.FoundByRequestTag {
		t.Fatalf("%v\n%s", err, out)
	}
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != 1 || rows[0].CapacityReservationId != got.CapacityReservation.CapacityReservationId {
		t.Fatalf("want exactly one reservation, the one found: %+v", rows)
	}
	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[1].Outcome != "bought" || !lines[1].Recovered || lines[1].Result != rows[0].CapacityReservationId {
		t.Errorf("journal %+v", lines)
	}
}

// lostBeforeCommit answers every real PurchaseCapacityBlock with HTTP 500 without passing
// it on: the reply is lost and nothing was bought.
func lostBeforeCommit(sim *ec2sim.Server) http.Handler {
	return cmdtest.Failing(sim, "lost", func(body string) bool {
		return strings.Contains(body, "Action=PurchaseCapacityBlock&") && !strings.Contains(body, "DryRun=true")
	})
}

func TestPurchaseLostReplyNotBought(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	srv := httptest.NewServer(lostBeforeCommit(cs.Emulator))
	defer srv.Close()
	// The adapter asks a few times, a couple of seconds apart, before "not there" counts.
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(srv.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, "NOT BOUGHT") || !strings.Contains(errs, "No reservation carries this purchase's request id") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	cli.AssertNothingBought(t, cs.URL)
	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[1].Outcome != "not-bought" {
		t.Errorf("journal %+v", lines)
	}
}

func TestPurchaseOfferingNotInSearch(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, "cbr-0123456789abcdef0", "--yes")...)
	if code != 1 || !strings.Contains(errs, "cbr-0123456789abcdef0 is not among") || !strings.Contains(errs, "nothing was bought") ||
		!cmdtest.Says(errs, "Else give --from and --to as times") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	cli.AssertNothingBought(t, cs.URL)
}

func TestPurchaseBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	id := "cbr-0123456789abcdef0"
	base := []string{"--endpoint-url", cs.URL, "--yes"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"purchase"}, cmdtest.PurchaseSearch...), "exactly one OFFERING_ID"},
		{append([]string{"purchase", id, "cbr-1"}, cmdtest.PurchaseSearch...), "exactly one OFFERING_ID"},
		{[]string{"purchase", id, "--region", "us-east-1", "--duration", "2d"}, "--type is required"},
		{[]string{"purchase", id, "--region", "us-east-1", "--type", "p5.48xlarge"}, "--duration is required"},
		{append([]string{"purchase", id, "--platform", "Linux"}, cmdtest.PurchaseSearch...), "--platform \"Linux\""},
		{append([]string{"purchase", id, "--tag", "novalue"}, cmdtest.PurchaseSearch...), "-tag"},
		{append([]string{"purchase", id, "--tag", "aws:x=1"}, cmdtest.PurchaseSearch...), "aws: prefix"},
		{append([]string{"purchase", id, "--tag", awsapi.RequestIDTag + "=x"}, cmdtest.PurchaseSearch...), "set by gpublock"},
		{append([]string{"purchase", id, "-o", "csv"}, cmdtest.PurchaseSearch...), "-o \"csv\""},
		{append([]string{"purchase", id, "--max-spend", "-5"}, cmdtest.PurchaseSearch...), "--max-spend"},
		// a cap finer than the cent would be shown rounded, equal to a fee it refuses
		{append([]string{"purchase", id, "--max-spend", "2601.109"}, cmdtest.PurchaseSearch...), "--max-spend \"2601.109\": at most two decimals"},
		{[]string{"purchase", id, "--region", "us-east-1", "--type", "p5.48xlarge", "--duration", "2d", "--count", "0"}, "--count 0"},
		{append([]string{"purchase", id, "--bogus"}, cmdtest.PurchaseSearch...), "-bogus"},
		{[]string{"purchase", id, "--region", "us-east-1,us-west-2", "--type", "p5.48xlarge", "--duration", "2d"}, "one region"},
		{[]string{"purchase", id, "--region", "all", "--type", "p5.48xlarge", "--duration", "2d"}, "one region"},
	} {
		before := cs.Calls.Load()
		code, out, errs := cli.Run(append(tc.args, base...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", tc.args, code, out, errs)
		}
		if n := cs.Calls.Load() - before; n != 0 {
			t.Errorf("%v: %d calls before the usage error", tc.args, n)
		}
	}
	cli.AssertNothingBought(t, cs.URL)
}

// lostAndUnreadable loses the purchase reply like lostBeforeCommit, and then fails every
// look-up of reservations too, so the outcome cannot be known.
func lostAndUnreadable(sim *ec2sim.Server) http.Handler {
	return cmdtest.Failing(lostBeforeCommit(sim), "down", func(body string) bool {
		return strings.Contains(body, "Action=DescribeCapacityReservations&")
	})
}

func TestPurchaseOutcomeUnknown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	t.Setenv("AWS_MAX_ATTEMPTS", "1") // no SDK retries of the failing look-ups
	srv := httptest.NewServer(lostAndUnreadable(cs.Emulator))
	defer srv.Close()
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(srv.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != spending.ExitUnknown || out != "" || !strings.Contains(errs, "OUTCOME UNKNOWN") || !strings.Contains(errs, "Do not buy again") ||
		!strings.Contains(errs, awsapi.RequestIDTag+"=gpb-") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[1].Outcome != "unknown" {
		t.Errorf("journal %+v", lines)
	}
}

// cancelOnPrompt cancels the command's context as soon as the confirmation prompt is
// written, as a Ctrl-C at the prompt would.
type cancelOnPrompt struct {
	bytes.Buffer
	cancel func()
}

func (w *cancelOnPrompt) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "Type buy") {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

func TestPurchaseInterruptedAtPrompt(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	pr, pw := io.Pipe() // nobody ever types
	defer pw.Close()
	cli.AsPerson(t, true, "")
	cli.Tweak(t, func(f *cmdutil.Factory) { f.IOStreams.In = pr })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	errb := &cancelOnPrompt{cancel: cancel}
	code := cli.RunContext(ctx, &out, errb, cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...)
	if code != 1 || !strings.Contains(errb.String(), "cancelled; nothing was bought") {
		t.Errorf("exit %d\n%s", code, errb.String())
	}
	cli.AssertNothingBought(t, cs.URL)
}

// A purchase from `gpublock sim` reached with --endpoint-url is simulated: it goes to the
// simulated journal, never into the live one that records money really spent.
func TestPurchaseAgainstSimJournalsAsSimulated(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 0 || !strings.Contains(errs, "SIMULATED") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	dir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock")
	if live, _ := filepath.Glob(filepath.Join(dir, "aws", "*", "journal.jsonl")); len(live) != 0 {
		t.Errorf("a live journal holds a simulated purchase: %v", live)
	}
	b, err := os.ReadFile(cmdtest.StateFile(t, "journal.jsonl"))
	if err != nil || !strings.Contains(string(b), off.CapacityBlockOfferingId) || strings.Count(string(b), "\n") != 2 {
		t.Errorf("simulated journal: %v\n%s", err, b)
	}
}

// The confirmation of an UltraServer block counts its member instances and gives the
// rate per UltraServer-hour: the model's Count is the number of UltraServers.
func TestPurchaseUltraServerConfirmation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	search := []string{"--region", "us-east-1", "--type", "u-p6e-gb200x36", "--duration", "2d", "--from", "2026-12-01T08:00:00Z", "--to", "2026-12-29"}
	rows := cli.Offerings(t, cs.URL, search...)
	var off printers.OfferingJSON
	for _, r := range rows {
		if r.CapacityBlockDurationHours == 48 && r.CapacityBlockDurationMinutes == 0 {
			off = r
			break
		}
	}
	if off.CapacityBlockOfferingId == "" {
		t.Fatalf("no 48-hour offering among %d", len(rows))
	}
	code, _, errs := cli.Run(append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL, "--yes"}, search...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "u-p6e-gb200x36 × 1 UltraServer (9 × p6e-gb200.36xlarge)") {
		t.Errorf("capacity line does not count 9 member instances:\n%s", errs)
	}
	fee, _ := model.ParseMoney(off.UpfrontFee)
	perUltra := fee.MulRat(1, 48).Rate()
	if !strings.Contains(errs, perUltra+" per UltraServer-hour") || strings.Contains(errs, "per instance-hour") {
		t.Errorf("rate line: want %s per UltraServer-hour:\n%s", perUltra, errs)
	}
}

// The confirmation shows the break-even against on-demand before anyone types buy, as
// the TUI's dialog does, and says plainly when there is no on-demand price to compare.
func TestPurchaseConfirmationShowsBreakEven(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, true, "no\n")
	off := cli.PickOffering(t, cs.URL)
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...)
	if code != 1 || !strings.Contains(errs, "cancelled") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "  Break-even:  ") || !strings.Contains(errs, "on-demand at $55.040/h") {
		t.Errorf("no break-even against p5.48xlarge's on-demand $55.040/h:\n%s", errs)
	}
	cli.AssertNothingBought(t, cs.URL)
}

// cli runs `gpublock purchase` as the program does, with offerings to find what to buy and
// blocks to see what was bought.
var cli = cmdtest.NewCLI(NewCmdPurchase, cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// The purchase's confirmation prints model's facts, each on its labelled row, in order, and
// what cannot be undone: the words the dialogs show.
func TestSummaryPrintsTheFactsInOrder(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := model.Offering{Source: model.SourceCapacityBlock, ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.Add(48 * time.Hour), DurationHours: 48,
		Fee: model.MustMoney("6211.123456"), Currency: "USD"}
	info := cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated, Reason: "test"}
	var w strings.Builder
	printOfferingSummary(&w, info, "123456789012", o, "Linux/UNIX", nil)
	cmdtest.FactsInOrder(t, "purchase", w.String(),
		model.PurchaseFacts(o, "123456789012", pricing.Compare(cmdutil.PriceCatalog(), o).BreakEven(), time.Local))
}

// No line of a confirmation is wider than 80 columns, where a terminal would cut a word of
// what is agreed to; only a line holding a word too long for any line (an id) may be.
func TestConfirmationFitsEightyColumns(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	off := cli.PickOffering(t, cs.URL)
	plan := listPlans(t, cs.URL)[0]
	for _, c := range []struct {
		name string
		args []string
	}{
		{"block", cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)},
		// Minutes later: the plan is found by its listing's window, which is said too.
		{"plan", append([]string{"purchase", plan.TrainingPlanOfferingId, "--endpoint-url", cs.URL}, planFlags...)},
	} {
		name, args := c.name, c.args
		if name == "plan" {
			cs.Emulator.Advance(3 * time.Minute)
		}
		cli.AsPerson(t, true, "buy it\n\n")
		_, _, errs := cli.Run(args...)
		if !strings.Contains(errs, "is not buy") || !strings.Contains(errs, "cancelled; nothing was bought") {
			t.Fatalf("%s: not the confirmation, a wrong word and a cancel:\n%s", name, errs)
		}
		assertFits(t, name, errs)
	}
}

// assertFits fails the test for a line of a confirmation (errs) wider than 80 columns,
// unless it holds a word too long for any line.
func assertFits(t *testing.T, name, errs string) {
	t.Helper()
	// A terminal echoes the line typed at each prompt, enter included.
	shown := strings.NewReplacer("cancels: ", "cancels:\n", "to cancel: ", "to cancel:\n").Replace(errs)
	for _, l := range strings.Split(shown, "\n") {
		if utf8.RuneCountInString(l) <= 80 || longestWord(l) > 60 {
			continue
		}
		t.Errorf("%s: a line of %d columns:\n%s", name, utf8.RuneCountInString(l), l)
	}
}

func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}

// The command line knows how to show every source's purchase: a source added without it
// fails here rather than in a user's hands.
func TestEverySourcePurchaseIsShown(t *testing.T) {
	for _, s := range model.Sources() {
		p, ok := purchaseShows[s]
		if !ok || p.what == "" || p.check == nil || p.notListed == nil || p.summary == nil || p.recovered == nil || p.print == nil || p.bought == nil {
			t.Errorf("%s: no complete purchaseShow", s)
		}
		if caps, _ := cmdutil.CapsOf(s); caps.DryRun && p.idField == "" {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
}

// A segmented offering through the command line: -o json carries its segments in AWS's
// names, the table says it is made of segments, the CSV carries them in a column, the
// typed confirmation lists every segment and how many reservations the purchase makes, the
// result names every reservation, and the journal records them all.
func TestSegmentedOfferingFromSearchToJournal(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickSegmented(t, cs.URL)
	n := len(off.CapacityBlockOfferingSegments)

	args := append([]string{"offerings", "--endpoint-url", cs.URL, "-o", "json"}, cmdtest.SegmentedSearch...)
	_, out, _ := cli.Run(args...)
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	var segs []any
	for _, r := range raw {
		if r["CapacityBlockOfferingId"] == off.CapacityBlockOfferingId {
			segs, _ = r["CapacityBlockOfferingSegments"].([]any)
		}
	}
	if len(segs) != n {
		t.Fatalf("-o json: %d segments for %s, want %d", len(segs), off.CapacityBlockOfferingId, n)
	}
	for _, k := range []string{"AvailabilityZone", "AvailabilityZoneId", "InstanceType", "InstanceCount", "StartDate", "EndDate",
		"CapacityBlockDurationHours", "CapacityBlockDurationMinutes", "UpfrontFee", "CurrencyCode"} {
		if _, ok := segs[0].(map[string]any)[k]; !ok {
			t.Errorf("a segment in -o json lacks AWS's field %s: %v", k, segs[0])
		}
	}

	args[4] = "table"
	if _, out, _ = cli.Run(args...); !strings.Contains(out, itoa(n)+" segments") {
		t.Errorf("the table does not say the offering is made of %d segments:\n%s", n, out)
	}
	args[4] = "csv"
	_, out, _ = cli.Run(args...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][len(recs[0])-1] != "CapacityBlockOfferingSegments" {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	found := false
	for _, r := range recs[1:] {
		if strings.Contains(strings.Join(r, ","), off.CapacityBlockOfferingId) {
			var cell []map[string]any
			found = json.Unmarshal([]byte(r[len(r)-1]), &cell) == nil && len(cell) == n
		}
	}
	if !found {
		t.Errorf("the CSV row of %s does not carry its %d segments:\n%s", off.CapacityBlockOfferingId, n, out)
	}

	cli.AsPerson(t, true, "buy\n")
	buy := append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL}, cmdtest.SegmentedSearch...)
	code, out, errs := cli.Run(buy...)
	if code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "Reservations:") || !strings.Contains(errs, "one capacity reservation per segment") {
		t.Errorf("the confirmation does not say how many reservations it makes:\n%s", errs)
	}
	for i, sg := range off.CapacityBlockOfferingSegments {
		if !strings.Contains(errs, "Segment "+itoa(i+1)+":") || !strings.Contains(errs, sg.AvailabilityZone) {
			t.Errorf("the confirmation lacks segment %d in %s:\n%s", i+1, sg.AvailabilityZone, errs)
		}
	}
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != n {
		t.Fatalf("%d reservations after buying %d segments", len(rows), n)
	}
	for _, r := range rows {
		if !strings.Contains(out, r.CapacityReservationId) || len(r.PurchaseGroup) != n {
			t.Errorf("%s: not in the result or not grouped (%v):\n%s", r.CapacityReservationId, r.PurchaseGroup, out)
		}
	}
	var outcome string
	for _, e := range cmdtest.JournalLines(t) {
		if e.Phase == "outcome" && e.Action == "PurchaseCapacityBlock" {
			outcome = e.Result
		}
	}
	if len(strings.Split(outcome, ",")) != n {
		t.Errorf("the journal's outcome %q does not name the %d reservations", outcome, n)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
