package trainingplans

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// dropOutcomes removes the journal's outcome lines: what a crash between the call and its
// outcome line leaves.
func dropOutcomes(t *testing.T, c *Client) {
	t.Helper()
	apitest.DropOutcomes(t, c.Base(), "")
	if entries, _, err := c.Base().Journal(); err != nil || len(entries) == 0 {
		t.Fatalf("the journal had no intent (%v)", err)
	}
}

func TestSettleOpenSettlesACrashedPlanPurchase(t *testing.T) {
	_, rc, c := simClient(t)
	o := someOffering(t, c)
	res, err := c.Purchase(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	dropOutcomes(t, c)

	// The EC2 client's settling, which every purchase of any source runs first, asks SageMaker.
	settled, err := settleOpen(c)(ctx, o.Region)
	if err != nil || len(settled) != 1 {
		t.Fatalf("settled %d (%v)", len(settled), err)
	}
	s := settled[0]
	if s.Outcome != source.Bought || s.Result != res.Plan.ARN || s.Intent.Action != ActionCreate {
		t.Fatalf("settled: %+v", s)
	}
	if !strings.Contains(s.Sentence(), "training plan") || !strings.Contains(s.Sentence(), res.Plan.ARN) {
		t.Fatalf("sentence: %s", s.Sentence())
	}
	if again, err := settleOpen(c)(ctx, o.Region); err != nil || len(again) != 0 {
		t.Fatalf("settled twice: %d (%v)", len(again), err)
	}

	// The re-run of the interrupted purchase buys nothing new.
	_, err = c.Purchase(ctx, o, nil)
	if !errors.Is(err, source.ErrAlreadyBought) {
		t.Fatalf("re-run: %v", err)
	}
	if !strings.Contains(err.Error(), res.Plan.ARN) {
		t.Fatalf("the refusal does not name the plan: %v", err)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 1 {
		t.Fatalf("CreateTrainingPlan sent %d times", n)
	}
	if plans, err := c.Plans(ctx, []string{o.Region}); err != nil || len(plans) != 1 {
		t.Fatalf("%d plans (%v)", len(plans), err)
	}
}

func TestSettleOpenPlanIntentNeverSent(t *testing.T) {
	_, rc, c := simClient(t)
	e := source.JournalEntry{Action: ActionCreate, RequestID: "gpb-000000000000000000000001", Region: "us-east-1", Offering: "tpo-none"}
	writeIntent(t, c, e)
	settled, err := settleOpen(c)(ctx, "us-east-1")
	if err != nil || len(settled) != 1 || settled[0].Outcome != source.NotBought {
		t.Fatalf("settled %+v (%v)", settled, err)
	}
	if rc.Of("DescribeTrainingPlan") == 0 {
		t.Fatal("the intent was settled without asking SageMaker")
	}
	var outcome *source.JournalEntry
	for _, l := range apitest.Journal(t, c.Base()) {
		if l.Phase == "outcome" && l.RequestID == e.RequestID {
			outcome = &l
		}
	}
	if outcome == nil || outcome.Outcome != string(source.NotBought) {
		t.Fatalf("no not-bought outcome line: %+v", outcome)
	}
}

func TestUnsettledPlanIntentRefusesEveryPurchase(t *testing.T) {
	sim, rc, c := simClient(t)
	o := someOffering(t, c)
	e := source.JournalEntry{Action: ActionCreate, RequestID: "gpb-000000000000000000000002", Region: o.Region, Offering: o.ID}
	writeIntent(t, c, e)
	// SageMaker cannot be asked: the look-up is refused.
	sim.SetFaults(ec2sim.Faults{Deny: []string{"all"}})
	broken := c
	_, err := broken.Purchase(ctx, o, nil)
	if !errors.Is(err, spend.ErrUnsettled) || !strings.Contains(err.Error(), "training plan purchase") {
		t.Fatalf("purchase with an unsettled plan intent: %v", err)
	}
	blocks := capacityblocks.New(broken.Base())
	_, err = spend.New(broken.Base(), blocks, Source(broken)).Prepare(ctx, blocks, source.Intent{Kind: source.SpendPurchase,
		Offering: model.Offering{Source: model.SourceCapacityBlock, ID: "cb-1", Region: o.Region}})
	if !errors.Is(err, spend.ErrUnsettled) {
		t.Fatalf("a block purchase with an unsettled plan intent: %v", err)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 0 {
		t.Fatalf("CreateTrainingPlan sent %d times", n)
	}
}

func journalDir(t *testing.T, c *Client) string {
	t.Helper()
	p, err := c.Base().JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	return p[:strings.LastIndex(p, "/")]
}

// writeIntent appends an intent line to c's journal, as a run that crashed before its
// call left it.
func writeIntent(t *testing.T, c *Client, e source.JournalEntry) {
	t.Helper()
	p, err := c.Base().JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	// As the client writes it: against the emulator (its STS answer said so), labelled
	// the emulator's.
	e.Time, e.Phase, e.Cloud = time.Now().UTC(), "intent", c.Base().Cloud()
	line, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}

// settleOpen is the one spend path's SettleOpen over c's client, with every source.
func settleOpen(c *Client) func(context.Context, string) ([]source.Settled, error) {
	return spend.New(c.Base(), capacityblocks.New(c.Base()), Source(c)).SettleOpen
}
