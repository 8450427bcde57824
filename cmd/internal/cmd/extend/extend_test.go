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
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
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
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
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
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
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
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
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
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	cli.AsPerson(t, false, "extend\n")
	before := cs.Calls.Load()
	code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId)...)
	if code != 2 || !strings.Contains(errs, "not a terminal") || !strings.Contains(errs, "--yes") {
		t.Errorf("no terminal: exit %d\n%s", code, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%d calls made before refusing", n)
	}
	if after := cli.ListedBlock(t, cs.URL); after.EndDate != b.EndDate || after.Extensions != 0 {
		t.Errorf("extended without a terminal: %+v", after)
	}
}

func TestExtendLostReplyExtendsOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
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
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
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
