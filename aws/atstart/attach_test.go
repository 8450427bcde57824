package atstart

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// client is an adapter over an emulator (url "" for none: the rules make no call), its
// state directory its own.
func client(t *testing.T, url string, readOnly bool) *awsapi.Client {
	t.Helper()
	if url == "" {
		// The rules call nothing but STS, which says whose records they are.
		_, url = simtest.ServeWith(t, ec2sim.Options{Start: simtest.Start, Speed: 1e-9})
	}
	return apitest.Client(t, url, func(cfg *awsapi.Config) { cfg.ReadOnly = readOnly })
}

func block(id string, state model.BlockState) model.Block {
	return model.Block{Source: model.SourceCapacityBlock, ReservationID: id, Region: "us-east-1", State: state,
		TotalCount: 2, Start: simtest.Start.Add(24 * time.Hour), End: simtest.Start.Add(48 * time.Hour)}
}

func refusedWith(t *testing.T, what string, err error, want string) {
	t.Helper()
	var ae *source.ActionError
	if !errors.As(err, &ae) || ae.Outcome != source.NotBought || !strings.Contains(ae.Error(), want) {
		t.Errorf("%s: %v, want a refusal saying %q", what, err, want)
	}
}

// A block that has not started takes one launch, of no more than it holds; a second waits
// for the first to be cancelled; the rules are the same before the confirmation (Check)
// and under the lock (Attach).
func TestAttachRules(t *testing.T) {
	c := client(t, "", false)
	spec := source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 2}
	sched := block("cr-0aaaaaaaaaaaaaaa1", model.StateScheduled)
	if err := Check(c, sched, 2); err != nil {
		t.Fatalf("check: %v", err)
	}
	l, err := Attach(c, sched, spec)
	if err != nil || l.State != Pending || l.Token == "" || l.Sent {
		t.Fatalf("attach: %+v, %v", l, err)
	}
	refusedWith(t, "a second launch", Check(c, sched, 1), "attached already")
	_, err = Attach(c, sched, spec)
	refusedWith(t, "a second launch", err, "attached already")
	// Payment-pending counts as not started.
	if _, err := Attach(c, block("cr-0aaaaaaaaaaaaaaa2", model.StatePaymentPending), spec); err != nil {
		t.Errorf("payment-pending: %v", err)
	}
	for _, c2 := range []struct {
		b     model.Block
		count int
		want  string
	}{
		{block("cr-0aaaaaaaaaaaaaaa3", model.StateActive), 1, "active already"},
		{block("cr-0aaaaaaaaaaaaaaa4", model.StateExpired), 1, "expired"},
		{block("cr-0aaaaaaaaaaaaaaa5", model.StateScheduled), 3, "holds 2"},
		{block("cr-0aaaaaaaaaaaaaaa6", model.StateScheduled), 0, "at least one"},
	} {
		_, err := Attach(c, c2.b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: c2.count})
		refusedWith(t, string(c2.b.State), err, c2.want)
	}
	ls, err := List(c)
	if err != nil || len(ls) != 2 || ls[0].Token != l.Token || ls[0].Attached().ReservationID != sched.ReservationID || !ls[0].Attached().Pending() {
		t.Fatalf("list: %+v, %v; want the two attached", ls, err)
	}
	got, err := Cancel(c, sched.ReservationID)
	if err != nil || got.State != Cancelled || got.Token != l.Token {
		t.Fatalf("cancel: %+v, %v", got, err)
	}
	_, err = Cancel(c, sched.ReservationID)
	refusedWith(t, "cancel again", err, "no launch is attached")
	// Cancelled, the block takes a new launch, under a new token.
	if again, err := Attach(c, sched, spec); err != nil || again.Token == l.Token {
		t.Errorf("attach after cancel: %+v, %v", again, err)
	}
	if ls, _ := List(c); len(ls) != 3 {
		t.Errorf("%d records, want 3 (the cancelled one kept)", len(ls))
	}
}

// Read-only mode attaches nothing.
func TestAttachReadOnly(t *testing.T) {
	c := client(t, "", true)
	_, err := Attach(c, block("cr-0aaaaaaaaaaaaaaa1", model.StateScheduled), source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1})
	var ae *source.ActionError
	if !errors.As(err, &ae) || !ae.ReadOnly() {
		t.Fatalf("read-only attach: %v", err)
	}
	if ls, err := List(c); len(ls) != 0 || err != nil {
		t.Errorf("read-only: %d records, %v", len(ls), err)
	}
}

// A launch whose block is no longer listed is cancelled by the first round, said once,
// and never sent: the later rounds say nothing.
func TestFireCancelsALaunchWhoseBlockIsGone(t *testing.T) {
	_, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9})
	c := client(t, url, false)
	if _, err := Attach(c, block("cr-0aaaaaaaaaaaaaaa1", model.StateScheduled), source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
		t.Fatal(err)
	}
	cb := capacityblocks.New(c)
	var said []string
	for range 3 {
		Fire(context.Background(), c, cb, spend.New(c, cb), nil, func(s string) { said = append(said, s) })
	}
	ls, _ := List(c)
	if len(said) != 1 || !strings.Contains(said[0], "was cancelled: the block is no longer listed") || len(ls) != 1 || ls[0].State != Cancelled || ls[0].Sent {
		t.Fatalf("said %q, records %+v", said, ls)
	}
}

// A launch attached to a block whose payment then fails is cancelled by the first round
// after, saying why, and notified; nothing is sent.
func TestFireCancelsALaunchWhosePaymentFailed(t *testing.T) {
	sim, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Faults: ec2sim.Faults{PayFail: 1}})
	c := client(t, url, false)
	cb := capacityblocks.New(c)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 1, MaxDays: 1},
		Start: simtest.Start.Add(24 * time.Hour), End: simtest.Start.Add(8 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	var off model.Offering
	for ev := range cb.Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && off.ID == "" {
			off = ev.Offerings[0]
		}
	}
	if off.ID == "" {
		t.Fatal("no offering")
	}
	res, err := cb.Purchase(context.Background(), off, "", nil)
	if err != nil || res.Block.State != model.StatePaymentPending {
		t.Fatalf("purchase: %+v, %v", res.Block, err)
	}
	if _, err := Attach(c, res.Block, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
		t.Fatal(err)
	}
	sim.Advance(10 * time.Minute) // the payment would have been taken: it fails
	sent := filepath.Join(t.TempDir(), "sent")
	n, err := notify.New(notify.Config{Command: "cat >> " + sent})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for range 2 {
		Fire(context.Background(), c, cb, spend.New(c, cb), n, func(s string) { said = append(said, s) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n.Close(ctx)
	ls, _ := List(c)
	if len(said) != 1 || !strings.Contains(said[0], "was cancelled: the block's payment failed, so it never starts") || len(ls) != 1 || ls[0].State != Cancelled || ls[0].Sent {
		t.Fatalf("said %q, records %+v", said, ls)
	}
	if raw, _ := os.ReadFile(sent); !strings.Contains(string(raw), `"warning":"LAUNCH CANCELLED"`) || !strings.Contains(string(raw), res.Block.ReservationID) {
		t.Errorf("notified: %s", raw)
	}
}

// A launch across a purchase's reservations is attached to each with its share, each with
// its own token and its reservation's start, all or none: one reservation that cannot take
// its share refuses them all, named.
func TestAttachGroupAllOrNone(t *testing.T) {
	c := client(t, "", false)
	spec := source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 99}
	a, b := block("cr-0aaaaaaaaaaaaaaa1", model.StateScheduled), block("cr-0aaaaaaaaaaaaaaa2", model.StateScheduled)
	b.Start = a.End // a consecutive segment
	active := block("cr-0aaaaaaaaaaaaaaa3", model.StateActive)

	_, err := AttachGroup(c, []model.LaunchShare{{Block: a, Count: 2}, {Block: active, Count: 2}}, spec)
	refusedWith(t, "a group with an active reservation", err, "cr-0aaaaaaaaaaaaaaa3 is active already")
	refusedWith(t, "checked first", CheckGroup(c, []model.LaunchShare{{Block: a, Count: 2}, {Block: b, Count: 3}}), "cr-0aaaaaaaaaaaaaaa2: the block holds 2")
	if ls, _ := List(c); len(ls) != 0 {
		t.Fatalf("after refusals %d attached", len(ls))
	}

	ls, err := AttachGroup(c, []model.LaunchShare{{Block: a, Count: 2}, {Block: b, Count: 1}}, spec)
	if err != nil || len(ls) != 2 {
		t.Fatalf("attach group: %+v, %v", ls, err)
	}
	if ls[0].Spec.Count != 2 || ls[1].Spec.Count != 1 || ls[0].Token == ls[1].Token || !ls[1].Starts.Equal(b.Start) || ls[0].Spec.ImageID != spec.ImageID {
		t.Errorf("attached %+v", ls)
	}
	_, err = AttachGroup(c, []model.LaunchShare{{Block: a, Count: 1}}, spec)
	refusedWith(t, "again", err, "attached already")
	_, err = AttachGroup(client(t, "", true), []model.LaunchShare{{Block: a, Count: 1}}, spec)
	refusedWith(t, "read-only", err, "read-only")
}
