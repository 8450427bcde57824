package capacityblocks

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// crashAfterCommit leaves the journal as a kill -9 between the purchase's commit and its
// outcome line would: the outcome line of requestID is removed. edit may change the intent.
func crashAfterCommit(t *testing.T, c *Client, requestID string, edit func(*source.JournalEntry)) {
	t.Helper()
	if edit != nil {
		apitest.RewriteJournal(t, c.api, func(e *source.JournalEntry) bool {
			if e.RequestID == requestID && e.Phase != "outcome" {
				edit(e)
			}
			return true
		})
	}
	if removed := apitest.DropOutcomes(t, c.api, requestID); removed != 1 {
		t.Fatalf("%d outcome lines of %s", removed, requestID)
	}
}

// rebuyAfterCrash buys o, leaves the journal as a kill -9 after the commit would, and buys
// o again: the first purchase, and the second's refusal, which must be "already bought".
func rebuyAfterCrash(t *testing.T, c *Client, o model.Offering) (first, again source.PurchaseResult, err error) {
	t.Helper()
	first, err = c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	crashAfterCommit(t, c, first.RequestID, nil)
	again, err = c.Purchase(context.Background(), o, "", nil)
	if !errors.Is(err, source.ErrAlreadyBought) {
		t.Fatalf("re-run: %v, %+v: want already bought", err, again)
	}
	return first, again, err
}

func outcomesOf(t *testing.T, c *Client, requestID string) []source.JournalEntry {
	t.Helper()
	entries, _, err := c.api.Journal()
	if err != nil {
		t.Fatal(err)
	}
	var out []source.JournalEntry
	for _, e := range entries {
		if e.RequestID == requestID && e.Phase == "outcome" {
			out = append(out, e)
		}
	}
	return out
}

func TestPurchaseInterruptedAfterCommitIsSettledNotBoughtAgain(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	first, res, err := rebuyAfterCrash(t, c, o)
	if !strings.Contains(err.Error(), first.Block.ReservationID) || !strings.Contains(err.Error(), "Nothing new was bought") ||
		!strings.Contains(err.Error(), "--again") {
		t.Errorf("message %q", err)
	}
	if len(res.Settled) != 1 || res.Settled[0].Outcome != source.Bought || res.Settled[0].Block.ReservationID != first.Block.ReservationID {
		t.Fatalf("settled %+v", res.Settled)
	}
	if s := res.Settled[0].Sentence(); !strings.Contains(s, "went through") || !strings.Contains(s, first.Block.ReservationID) ||
		!strings.Contains(s, o.Fee.Dollars()) {
		t.Errorf("sentence %q", s)
	}
	outs := outcomesOf(t, c, first.RequestID)
	if len(outs) != 1 || !outs[0].SettledLater || outs[0].Outcome != string(source.Bought) || outs[0].Result != first.Block.ReservationID {
		t.Errorf("outcome lines %+v", outs)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchases, want 1", n)
	}
	// A search again lists another offering of the same zone and window under a new id:
	// that is the same block, refused all the same.
	same := o
	same.ID = "cb-0000000000000000f"
	if _, err := c.Purchase(context.Background(), same, "", nil); !errors.Is(err, source.ErrAlreadyBought) {
		t.Errorf("the same window under another id: %v", err)
	}
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks %+v, %v: want exactly one", blocks, err)
	}
	// On purpose, with Again, it is bought (or refused by AWS), never refused as a repeat.
	if _, err := c.Purchase(context.Background(), o, "", nil, spend.Again()); errors.Is(err, source.ErrAlreadyBought) {
		t.Errorf("with Again: %v", err)
	}
}

func TestPurchaseInterruptedBeforeCommitIsSettledAsNotBought(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	start, end := o.Start, o.End
	// An intent whose call never reached AWS: no reservation carries its tag.
	if err := c.api.WriteJournal(source.JournalEntry{Time: time.Now().Add(-time.Hour).UTC(), Phase: "intent", Action: actionPurchase,
		RequestID: "gpb-000000000000000000000001", Region: o.Region, Zone: o.AvailabilityZone, Type: o.InstanceType,
		Count: o.Count, Start: &start, End: &end, Offering: o.ID, Fee: o.Fee.String()}); err != nil {
		t.Fatal(err)
	}
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil || res.Outcome != source.Bought {
		t.Fatalf("%v, %+v", err, res)
	}
	if len(res.Settled) != 1 || res.Settled[0].Outcome != source.NotBought || !strings.Contains(res.Settled[0].Sentence(), "did not go through") {
		t.Errorf("settled %+v", res.Settled)
	}
	outs := outcomesOf(t, c, "gpb-000000000000000000000001")
	if len(outs) != 1 || !outs[0].SettledLater || outs[0].Outcome != string(source.NotBought) {
		t.Errorf("outcome lines %+v", outs)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchases, want 1", n)
	}
}

func TestPurchaseRefusedWhileAnInterruptedOneCannotBeSettled(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := firstOffering(t, c)
	if err := c.api.WriteJournal(source.JournalEntry{Time: time.Now().Add(-time.Hour).UTC(), Phase: "intent", Action: actionPurchase,
		RequestID: "gpb-000000000000000000000002", Region: o.Region, Zone: o.AvailabilityZone, Type: o.InstanceType}); err != nil {
		t.Fatal(err)
	}
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		if r.Action == "DescribeCapacityReservations" {
			simtest.WriteEC2Error(w, http.StatusForbidden, "UnauthorizedOperation", "You are not authorized to perform this operation.")
			return true
		}
		return false
	})
	_, err := c.Purchase(context.Background(), o, "", nil)
	var pe *source.ActionError
	if !errors.Is(err, spend.ErrUnsettled) || !errors.As(err, &pe) || pe.Outcome != source.NotBought {
		t.Fatalf("%v: want a refusal while unsettled", err)
	}
	if !strings.Contains(pe.Explanation.String(), "gpublock journal --endpoint-url "+c.api.EndpointFlag()+" --region us-east-1") {
		t.Errorf("the refusal does not say how to settle: %q", pe.Explanation)
	}
	if n := rc.Of("PurchaseCapacityBlock"); n != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls (dry runs included) while unsettled", n)
	}
	if outs := outcomesOf(t, c, "gpb-000000000000000000000002"); len(outs) != 0 {
		t.Errorf("an unsettled intent got an outcome: %+v", outs)
	}
	// Another region is not held up by it.
	other := spend.New(c.api, c).OpenIntents(mustJournal(t, c), "us-west-2")
	if len(other) != 0 {
		t.Errorf("open intents in us-west-2: %+v", other)
	}
}

func mustJournal(t *testing.T, c *Client) []source.JournalEntry {
	t.Helper()
	entries, _, err := c.api.Journal()
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestExtensionInterruptedAfterCommitIsSettledNotBoughtAgain(t *testing.T) {
	sim, rc, c, b, offs := extendable(t, ec2sim.Faults{})
	first, err := c.Extend(context.Background(), b, offs[0])
	if err != nil {
		t.Fatal(err)
	}
	// The offering id is not what settles it: an extension of this block, of this length,
	// bought after the intent.
	crashAfterCommit(t, c, first.RequestID, func(e *source.JournalEntry) { e.Offering = "" })
	sim.SetTime(b.Start.Add(time.Hour + 10*time.Minute)) // the payment settles; the end moves
	moved := blockByID(t, c, b.ReservationID)
	if !moved.End.After(b.End) {
		t.Fatalf("the end did not move: %s", moved.End)
	}
	again, err := c.ExtensionOfferings(context.Background(), moved, 1)
	if err != nil || len(again) == 0 {
		t.Fatalf("extension offerings after: %+v, %v", again, err)
	}
	res, err := c.Extend(context.Background(), moved, again[0])
	if !errors.Is(err, source.ErrAlreadyBought) || !strings.Contains(err.Error(), "Already extended") {
		t.Fatalf("re-run: %v, %+v", err, res)
	}
	if len(res.Settled) != 1 || res.Settled[0].Outcome != source.Bought || res.Settled[0].Extension.OfferingID != offs[0].ID {
		t.Errorf("settled %+v", res.Settled)
	}
	if n := rc.Sent("PurchaseCapacityBlockExtension"); n != 1 {
		t.Errorf("%d extension purchases, want 1", n)
	}
	if after := blockByID(t, c, b.ReservationID); len(after.Extensions) != 1 || !after.End.Equal(moved.End) {
		t.Errorf("after: end %s, extensions %+v", after.End, after.Extensions)
	}
	outs := outcomesOf(t, c, first.RequestID)
	if len(outs) != 1 || !outs[0].SettledLater || outs[0].Outcome != string(source.Bought) {
		t.Errorf("outcome lines %+v", outs)
	}
}

// A torn last line (a crash mid-write, a full disk) neither swallows the next entry nor
// stops a reader.
func TestJournalTornLineDoesNotSwallowTheNext(t *testing.T) {
	_, c := servedClient(t)
	o := firstOffering(t, c)
	p, _ := c.api.JournalPath()
	if err := os.MkdirAll(strings.TrimSuffix(p, "/journal.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"time":"2026-12-01T08:00:00Z","phase":"intent","action":"PurchaseCapa`), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, bad, err := c.api.Journal()
	if err != nil || bad != 1 {
		t.Fatalf("%v, %d bad lines: want the torn one", err, bad)
	}
	if len(entries) != 2 || entries[0].RequestID != res.RequestID || entries[0].Phase != "intent" || entries[1].Outcome != string(source.Bought) {
		t.Errorf("entries %+v", entries)
	}
}

// A write that fails part-way is cut off, so the next line is whole.
func TestJournalShortWriteIsRolledBack(t *testing.T) {
	_, c := servedClient(t)
	o := firstOffering(t, c)
	c.api.SetJournalWrite(func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, errors.New("no space left on device")
	})
	_, err := c.Purchase(context.Background(), o, "", nil)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "journal") {
		t.Fatalf("%v: want the journal's failure", err)
	}
	p, _ := c.api.JournalPath()
	if raw, _ := os.ReadFile(p); len(raw) != 0 {
		t.Errorf("the half line stayed: %q", raw)
	}
	c.api.SetJournalWrite(nil)
	if _, err := c.Purchase(context.Background(), o, "", nil); err != nil {
		t.Fatal(err)
	}
	if entries, bad, err := c.api.Journal(); err != nil || bad != 0 || len(entries) != 2 {
		t.Errorf("%d entries, %d bad, %v", len(entries), bad, err)
	}
}

// When the outcome line cannot be written the purchase stands and the failure is told.
func TestPurchaseOutcomeNotRecordedIsStillBought(t *testing.T) {
	_, c := servedClient(t)
	o := firstOffering(t, c)
	c.api.SetJournalWrite(func(f *os.File, b []byte) (int, error) {
		if strings.Contains(string(b), `"phase":"outcome"`) {
			return 0, errors.New("no space left on device")
		}
		return f.Write(b)
	})
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil || res.Outcome != source.Bought || res.Block.ReservationID == "" {
		t.Fatalf("%v, %+v: want bought", err, res)
	}
	p, _ := c.api.JournalPath()
	if res.JournalErr == nil || !strings.Contains(res.JournalErr.Error(), p) || !strings.Contains(res.JournalErr.Error(), "no space left") {
		t.Errorf("journal error %v: want the file and the reason", res.JournalErr)
	}
}
