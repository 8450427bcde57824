package capacityblocks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// segmentedOffering searches us-east-1 for a count no single zone holds, which the
// emulator answers with offerings made of segments, and returns the first such one.
func segmentedOffering(t *testing.T, c *Client) model.Offering {
	t.Helper()
	q := baseQuery()
	q.Regions, q.Count = []string{"us-east-1"}, 60
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	for _, o := range offs {
		if o.Segmented() {
			return o
		}
	}
	t.Skipf("the emulator offered no segmented offering among %d for 60 p5.48xlarge (it serves none yet)", len(offs))
	return model.Offering{}
}

func TestSegmentedOfferingIsConverted(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := segmentedOffering(t, c)
	if len(o.Parts) < 2 {
		t.Fatalf("%d segments, want at least 2", len(o.Parts))
	}
	count := 0
	for i, p := range o.Parts {
		count += p.Count
		if p.AvailabilityZone == "" || p.AvailabilityZoneID == "" || p.InstanceType != "p5.48xlarge" || p.Fee.IsZero() ||
			p.Start.IsZero() || !p.End.After(p.Start) || p.Hours == 0 || p.Currency != "USD" {
			t.Errorf("segment %d incomplete: %+v", i+1, p)
		}
	}
	if count != o.Count {
		t.Errorf("segments hold %d instances, the offering %d", count, o.Count)
	}
	if o.SegmentsFee().Cmp(o.Fee) != 0 || o.SegmentsProblem() != "" {
		t.Errorf("fee %s, segments' sum %s, problem %q", o.Fee, o.SegmentsFee(), o.SegmentsProblem())
	}
	if got, want := o.InstanceMinutes(), int64(o.Count)*o.Minutes(); got != want {
		t.Errorf("instance-minutes %d over the segments, want %d", got, want)
	}
}

// checkGroup asserts that bs are one reservation per segment of o, each tagged with the
// purchase's request id, in the segments' zones.
func checkGroup(t *testing.T, o model.Offering, requestID string, bs []model.Block) {
	t.Helper()
	if len(bs) != len(o.Parts) {
		t.Fatalf("%d reservations for %d segments: %+v", len(bs), len(o.Parts), bs)
	}
	var want, got []string
	for _, p := range o.Parts {
		want = append(want, p.AvailabilityZone)
	}
	seen := map[string]bool{}
	for _, b := range bs {
		got = append(got, b.AvailabilityZone)
		if !strings.HasPrefix(b.ReservationID, "cr-") || seen[b.ReservationID] || b.Tags[awsapi.RequestIDTag] != requestID {
			t.Errorf("reservation %+v: want a new cr- id tagged %s", b, requestID)
		}
		seen[b.ReservationID] = true
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Errorf("reservations in %v, segments in %v", got, want)
	}
}

func TestPurchaseOfSegmentsMakesOneReservationEachAndJournalsAll(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := segmentedOffering(t, c)
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || res.Recovered {
		t.Fatalf("result %+v", res)
	}
	checkGroup(t, o, res.RequestID, res.Blocks)
	if res.Block.ReservationID != res.Blocks[0].ReservationID {
		t.Errorf("Block %s is not the first of Blocks", res.Block.ReservationID)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls, want 1", n)
	}
	out := checkJournal(t, c, res.RequestID, source.Bought)
	if out.Result != model.GroupIDs(res.Blocks) || len(out.ResultIDs()) != len(o.Parts) {
		t.Errorf("journal result %q, want every reservation %q", out.Result, model.GroupIDs(res.Blocks))
	}
	entries, _ := readJournal(t, c)
	for _, e := range entries {
		if e.RequestID == res.RequestID && e.Phase == "intent" && len(e.Segments) != len(o.Parts) {
			t.Errorf("intent records %d segments, want %d", len(e.Segments), len(o.Parts))
		}
	}
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if g := model.Group(blocks, blocks[0]); len(g) != len(o.Parts) || model.GroupMark(blocks, blocks[0]) == "" {
		t.Errorf("blocks group %d of %d listed reservations, want %d", len(g), len(blocks), len(o.Parts))
	}
	// The fee paid is each reservation's own segment's, and the group's is the fee once.
	fees := c.FeesPaid(blocks)
	var sum model.Money
	for _, f := range fees {
		sum = sum.Add(f)
	}
	if len(fees) != len(o.Parts) || sum.Cmp(o.Fee) != 0 {
		t.Errorf("fees paid %v add up to %s, want one per reservation adding up to %s", fees, sum, o.Fee)
	}
}

func TestPurchaseOfSegmentsWithLostReplyFindsThemAll(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := segmentedOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || !res.Recovered {
		t.Fatalf("result %+v, want bought and recovered", res)
	}
	checkGroup(t, o, res.RequestID, res.Blocks)
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls after a lost reply, want exactly 1", n)
	}
	if out := checkJournal(t, c, res.RequestID, source.Bought); len(out.ResultIDs()) != len(o.Parts) {
		t.Errorf("journal result %q names %d reservations, want %d", out.Result, len(out.ResultIDs()), len(o.Parts))
	}
}

func TestPurchaseOfSegmentsInterruptedIsSettledWhole(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := segmentedOffering(t, c)
	first, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	crashAfterCommit(t, c, first.RequestID, nil)

	res, err := c.Purchase(context.Background(), o, "", nil)
	if !errors.Is(err, source.ErrAlreadyBought) {
		t.Fatalf("re-run: %v, %+v: want already bought", err, res)
	}
	if len(res.Settled) != 1 || res.Settled[0].Outcome != source.Bought {
		t.Fatalf("settled %+v", res.Settled)
	}
	checkGroup(t, o, first.RequestID, res.Settled[0].Blocks)
	for _, b := range first.Blocks {
		if !strings.Contains(err.Error(), b.ReservationID) || !strings.Contains(res.Settled[0].Sentence(), b.ReservationID) {
			t.Errorf("the refusal %q or the sentence %q does not name %s", err, res.Settled[0].Sentence(), b.ReservationID)
		}
	}
	outs := outcomesOf(t, c, first.RequestID)
	if len(outs) != 1 || !outs[0].SettledLater || len(outs[0].ResultIDs()) != len(o.Parts) {
		t.Errorf("outcome lines %+v", outs)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchases, want 1", n)
	}
}

// A segmented offering whose fees disagree is never bought: no call leaves.
func TestSegmentsWhoseFeesDisagreeAreNotBought(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o := segmentedOffering(t, c)
	o.Fee = o.Fee.Add(model.MoneyFromMicros(1))
	_, err := c.Purchase(context.Background(), o, "", nil)
	var ae *source.ActionError
	if !errors.As(err, &ae) || ae.Outcome != source.NotBought || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("purchase: %v, want not bought, fees disagree", err)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlock" }); n != 0 {
		t.Errorf("%d purchase calls (dry runs included), want none", n)
	}
}
