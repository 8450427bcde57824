package extend

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

type extendOut struct {
	CapacityBlockExtension ExtensionJSON
	Region                 string
	NewEndDate             string
	GpublockRequestId      string
	FoundInHistory         bool
}

func TestExtendWithYesMovesTheEnd(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	oldEnd := cmdtest.MustTime(t, b.EndDate)
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got extendOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wantEnd := oldEnd.Add(24 * time.Hour).Format(time.RFC3339)
	e := got.CapacityBlockExtension
	if got.NewEndDate != wantEnd || e.CapacityReservationId != b.CapacityReservationId || !strings.HasPrefix(e.CapacityBlockExtensionOfferingId, "cbe-") ||
		e.CapacityBlockExtensionStartDate != b.EndDate || e.CapacityBlockExtensionDurationHours != 24 || e.InstanceCount != 2 ||
		got.FoundInHistory || got.GpublockRequestId == "" {
		t.Errorf("answer %+v, want the end moved to %s", got, wantEnd)
	}
	if e.CapacityBlockExtensionStatus != "payment-pending" {
		t.Errorf("status %q, want payment-pending", e.CapacityBlockExtensionStatus)
	}
	if pending := cli.ListedBlock(t, cs.URL); pending.EndDate != b.EndDate {
		t.Errorf("the end moved before the payment: %s", pending.EndDate)
	}
	cmdtest.Paid(cs)
	after := cli.ListedBlock(t, cs.URL)
	if after.EndDate != wantEnd || after.Extensions != 1 {
		t.Errorf("listed after the extension: end %s, %d extensions; want %s, 1", after.EndDate, after.Extensions, wantEnd)
	}
	// The fee shown, confirmed and printed is the one AWS charged, exactly.
	blocks, err := capacityblocks.New(cmdtest.Client(t, cs.URL)).Blocks(context.Background(), []string{"us-east-1"})
	if err != nil || len(blocks) != 1 || len(blocks[0].Extensions) != 1 {
		t.Fatalf("blocks %+v, %v", blocks, err)
	}
	charged := blocks[0].Extensions[0].Fee
	if e.UpfrontFee != charged.String() || charged.IsZero() {
		t.Errorf("fee printed %s, charged %s", e.UpfrontFee, charged)
	}
	for _, want := range []string{"EXTEND (SIMULATED)", "Account:     " + ec2sim.DemoAccount, "Ends now:    " + oldEnd.Format("2006-01-02 15:04"),
		"New end:     " + oldEnd.Add(24*time.Hour).Format("2006-01-02 15:04"), "Add:         1d", charged.Dollars(),
		"Break-even:  the added hours are ", " · on-demand $", model.ExtensionIrrevocable, "allowed (ec2:PurchaseCapacityBlockExtension"} {
		if !cmdtest.Says(errs, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, errs)
		}
	}
	var journaled bool
	for _, l := range cmdtest.JournalLines(t) {
		journaled = journaled || (l.Action == "PurchaseCapacityBlockExtension" && l.Phase == "outcome" && l.Outcome == "bought" && l.Fee == "")
		journaled = journaled || (l.Action == "PurchaseCapacityBlockExtension" && l.Phase == "intent" && l.Fee == charged.String())
	}
	if !journaled {
		t.Errorf("journal lacks the extension: %+v", cmdtest.JournalLines(t))
	}
}

func TestExtendTableAndTypedConfirmation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	for _, typed := range []string{"no\n", "EXTEND\n", "", "yes\n"} {
		cli.AsPerson(t, true, typed)
		code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId)...)
		if code != 1 || !strings.Contains(errs, "Type extend") || !strings.Contains(errs, "cancelled; nothing was extended") {
			t.Errorf("typed %q: exit %d\n%s", typed, code, errs)
		}
		if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
			t.Fatalf("typed %q: extended: %+v", typed, after)
		}
	}
	cli.AsPerson(t, true, "extend\n")
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--duration", "2d")...)
	newEnd := cmdtest.MustTime(t, b.EndDate).Add(48 * time.Hour)
	cmdtest.Paid(cs)
	if code != 0 || !strings.Contains(out, "once the payment succeeds") || !strings.Contains(out, "Reservation: "+b.CapacityReservationId) || !strings.Contains(out, "New end:     "+newEnd.Format("2006-01-02 15:04")) ||
		!strings.Contains(out, "Added:       48 hours") {
		t.Errorf("typed extend: exit %d\n%s\n%s", code, out, errs)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != newEnd.Format(time.RFC3339) {
		t.Errorf("end after a 2d extension: %s, want %s", after.EndDate, newEnd.Format(time.RFC3339))
	}
}

func TestExtendDryRunChangesNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	b := cli.ActiveBlock(t, cs)
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--dry-run")...)
	if code != 0 || !strings.Contains(out, "Dry run: allowed") || !strings.Contains(out, "ec2:PurchaseCapacityBlockExtension") {
		t.Errorf("dry run: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--dry-run", "-o", "json")...)
	var dr map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &dr) != nil || dr["DryRun"] != true || dr["Allowed"] != true ||
		dr["CapacityReservationId"] != b.CapacityReservationId || !strings.HasPrefix(dr["CapacityBlockExtensionOfferingId"].(string), "cbe-") {
		t.Errorf("dry run json: exit %d\n%s", code, out)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("a dry run extended the block: %+v", after)
	}
	for _, l := range cmdtest.JournalLines(t) {
		if l.Action == "PurchaseCapacityBlockExtension" {
			t.Errorf("a dry run reached the journal: %+v", l)
		}
	}
}

func TestExtendWithoutTerminalIsRefused(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	if errs := cli.OffTerminal(t, cs, "extend\n", cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId)...); !strings.Contains(errs, "--yes") {
		t.Errorf("no terminal: the refusal does not name --yes\n%s", errs)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("extended without a terminal: %+v", after)
	}
}

func TestExtendLostReplyExtendsOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	cs.Emulator.SetFaults(ec2sim.Faults{LostReply: 1})
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes", "-o", "json")...)
	cs.Emulator.SetFaults(ec2sim.Faults{})
	cmdtest.Paid(cs)
	var got extendOut
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || !got.FoundInHistory || !strings.Contains(errs, "reply to the extension was lost") {
		t.Fatalf("lost reply: exit %d\n%s\n%s", code, out, errs)
	}
	after := cli.ListedBlock(t, cs.URL)
	want := cmdtest.MustTime(t, b.EndDate).Add(24 * time.Hour).Format(time.RFC3339)
	if after.Extensions != 1 || after.EndDate != want || got.NewEndDate != want {
		t.Errorf("after a lost reply: %d extensions, end %s (printed %s); want 1, %s", after.Extensions, after.EndDate, got.NewEndDate, want)
	}
}

func TestExtendScheduledBlock(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(-time.Hour))
	if st := cli.ListedBlock(t, cs.URL).State; st != "scheduled" {
		t.Fatalf("state %s, want scheduled", st)
	}
	code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes", "--duration", "3d")...)
	want := cmdtest.MustTime(t, b.EndDate).Add(72 * time.Hour).Format(time.RFC3339)
	cmdtest.Paid(cs)
	if after := cli.ListedBlock(t, cs.URL); code != 0 || after.EndDate != want || after.StartDate != b.StartDate {
		t.Errorf("scheduled: exit %d, block %+v, want end %s\n%s", code, after, want, errs)
	}
}

func TestExtendExpiredBlockIsRefused(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.EndDate).Add(time.Minute))
	code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "is expired") || !strings.Contains(errs, "only active or scheduled blocks can be extended") ||
		!strings.Contains(errs, "Nothing was extended") {
		t.Errorf("expired: exit %d\n%s", code, errs)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("expired block changed: %+v", after)
	}
	code, _, errs = cli.Run(cmdtest.ExtendArgs(cs.URL, "cr-0000000000000000f", "--yes")...)
	if code != 1 || !strings.Contains(errs, "no Capacity Block cr-0000000000000000f") {
		t.Errorf("unknown block: exit %d\n%s", code, errs)
	}
}

func TestExtendPaymentPendingBlockSaysToWait(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	if b.State != "payment-pending" {
		t.Fatalf("state %s, want payment-pending", b.State)
	}
	code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "payment-pending: AWS has not taken its payment yet") ||
		!strings.Contains(errs, "once `gpublock blocks --endpoint-url "+cs.URL+" --region us-east-1` shows it scheduled or active") || strings.Contains(errs, "buy a new block") ||
		!strings.Contains(errs, "Nothing was extended") {
		t.Errorf("payment-pending: exit %d\n%s", code, errs)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("payment-pending block changed: %+v", after)
	}
}

func TestExtendBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	for _, args := range [][]string{
		{"extend", "--endpoint-url", cs.URL, "--duration", "1d", "--yes"},
		{"extend", "cr-0123456789abcdef0", "cr-0123456789abcdef1", "--endpoint-url", cs.URL, "--duration", "1d", "--yes"},
		{"extend", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "15d", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d-3d", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d", "-o", "csv", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d", "--region", "all", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d", "--region", "us-east-1,us-west-2", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", "1d", "--bogus"},
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", "ftp://x", "--duration", "1d", "--yes"},
	} {
		code, _, errs := cli.Run(args...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if cs.Calls.Load() != 0 {
		t.Errorf("bad usage made %d calls", cs.Calls.Load())
	}
	code, out, _ := cli.Run("extend", "-h")
	for _, want := range []string{"Exit status", "0 extended", "1 not extended", "2 bad usage", "3 outcome unknown"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("-h: exit %d, lacks %q", code, want)
		}
	}
}

// A block past its extension cutoff (an hour before its end, on the backend's clock) is
// refused with the model's sentence before any extension call: neither its offerings nor
// a purchase reach the emulator.
func TestExtendPastTheCutoffIsRefusedBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.EndDate).Add(-30 * time.Minute))
	var mu sync.Mutex
	var actions []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if v, err := url.ParseQuery(string(body)); err == nil && v.Get("Action") != "" {
			mu.Lock()
			actions = append(actions, v.Get("Action"))
			mu.Unlock()
		}
		cs.Emulator.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	code, _, errs := cli.Run(cmdtest.ExtendArgs(srv.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "can no longer be extended: AWS takes extensions until 60 minutes before the end") ||
		!strings.Contains(errs, "Nothing was extended") {
		t.Errorf("past the cutoff: exit %d\n%s", code, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, a := range actions {
		found = found || a == "DescribeCapacityReservations"
		if a == "DescribeCapacityBlockExtensionOfferings" || a == "PurchaseCapacityBlockExtension" {
			t.Errorf("past the cutoff, extend called %s (calls %v)", a, actions)
		}
	}
	if !found {
		t.Errorf("the block was never looked up (calls %v): the proxy saw nothing", actions)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("a block past its cutoff changed: %+v", after)
	}
}

// cli runs `gpublock extend` as the program does, with the commands its tests run to buy what
// it acts on and to list what it did.
var cli = cmdtest.NewCLI(NewCmdExtend, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// The extension's confirmation prints model's facts, each on its labelled row, in order,
// and what cannot be undone: the words the dialogs show.
func TestSummaryPrintsTheFactsInOrder(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", TotalCount: 2, State: model.StateActive, Start: start, End: start.Add(48 * time.Hour)}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Start: b.End, End: b.End.Add(24 * time.Hour), DurationHours: 24,
		Fee: model.MustMoney("1000.00"), Currency: "USD"}
	info := cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated, Reason: "test"}
	var w strings.Builder
	printExtensionSummary(&w, info, "123456789012", b, off, extensionComparison(b, off))
	cmdtest.FactsInOrder(t, "extend", w.String(),
		model.ExtensionFacts(b, off, "123456789012", extensionComparison(b, off).BreakEven(), time.Local))
}

func TestExtensionWithoutOnDemandPriceSaysSo(t *testing.T) {
	b := model.Block{ReservationID: "cr-0123456789abcdef0", Region: "eu-north-1", InstanceType: "p6-b200.48xlarge", TotalCount: 1}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Count: 1, DurationHours: 24, Fee: model.MustMoney("2800.00"),
		Start: cmdtest.SimStart, End: cmdtest.SimStart.Add(24 * time.Hour)}
	cmp := extensionComparison(b, off)
	if !cmp.NoOnDemand || !strings.Contains(cmp.NoOnDemandReason, "no on-demand price") {
		t.Fatalf("comparison %+v", cmp)
	}
	var w strings.Builder
	printExtensionSummary(&w, cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated}, "123", b, off, cmp)
	if !strings.Contains(w.String(), "Break-even:  none: no on-demand price") || !strings.Contains(w.String(), "$2,800.00") {
		t.Errorf("summary:\n%s", w.String())
	}
}

// A length extend cannot sell is refused with what is allowed, without offering a range,
// which extend does not take.
func TestExtendBadDurationOffersNoRange(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, d := range []string{"15d", "27w", "36h"} {
		code, _, errs := cli.Run("extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", d, "--yes")
		if code != 2 || !strings.Contains(errs, "--duration") || !strings.Contains(errs, "3w–26w") || strings.Contains(errs, "range 2d-7d") {
			t.Errorf("%s: exit %d, %q", d, code, errs)
		}
	}
}

// The command line knows how to show every source's extension: a source added without it
// fails here rather than in a user's hands.
func TestEverySourceExtensionIsShown(t *testing.T) {
	for _, s := range model.Sources() {
		e, ok := extendShows[s]
		if !ok || e.what == "" || e.check == nil || e.list == nil || e.find == nil || e.refuse == nil || e.noOffers == nil || e.summary == nil || e.print == nil {
			t.Errorf("%s: no complete extendShow", s)
		}
		if caps, _ := cmdutil.CapsOf(s); caps.DryRun && e.dryRunFields == nil {
			t.Errorf("%s has a dry run but no dry run's JSON", s)
		}
	}
}
