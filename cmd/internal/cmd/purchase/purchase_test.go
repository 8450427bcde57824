package purchase

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
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
	cli.AsPerson(t, false, "buy\n")
	before := cs.Calls.Load()
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)...)
	if code != 2 || out != "" || !strings.Contains(errs, "not a terminal") || !strings.Contains(errs, "--yes") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%d calls reached the emulator before the refusal", n)
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
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("sold=1", &f); err != nil {
		t.Fatal(err)
	}
	cs.Emulator.SetFaults(f)
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
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("lost-reply=1", &f); err != nil {
		t.Fatal(err)
	}
	cs.Emulator.SetFaults(f)
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
	code, out, errs := cli.Run(append([]string{"offerings", "--endpoint-url", cs.URL, "-o", "json"}, search...)...)
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("offerings: exit %d, stderr %q\n%s", code, errs, out)
	}
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
	code, _, errs = cli.Run(append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL, "--yes"}, search...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "u-p6e-gb200x36 × 1 UltraServer(s) (9 × p6e-gb200.36xlarge)") {
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
