package reporting

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

var ctx = context.Background()

// env is an emulator (EC2, CloudWatch and SageMaker) and the program's sources over a
// client of it, whose clock moves only when told.
type env struct {
	sim  *ec2sim.Server
	api  *awsapi.Client
	cb   *capacityblocks.Client
	tp   *trainingplans.Client
	srcs []source.Source
}

func newEnv(t *testing.T) env {
	t.Helper()
	sim := simtest.NewSim(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
	// Standing for AWS: what this machine bought is read from AWS's journal.
	api := apitest.Client(t, simtest.ServeHandler(t, simtest.AsAWS(sim)), nil)
	api.SetConfirmPace(3, time.Millisecond)
	e := env{sim: sim, api: api, cb: capacityblocks.New(api), tp: trainingplans.New(api)}
	e.srcs = []source.Source{e.cb, trainingplans.Source(e.tp)}
	return e
}

// offering is the cheapest 2-day block of 2 p5.48xlarge in region.
func (e env) offering(t *testing.T, region string) model.Offering {
	t.Helper()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: simtest.Start, End: simtest.Start.Add(14 * 24 * time.Hour), Regions: []string{region}}
	var best model.Offering
	for ev := range e.cb.Search(ctx, q) {
		for _, o := range ev.Offerings {
			if best.ID == "" || o.Fee.Cmp(best.Fee) < 0 {
				best = o
			}
		}
	}
	if best.ID == "" {
		t.Fatalf("no offering in %s", region)
	}
	return best
}

// buy buys a block through the one spend path, which journals it.
func (e env) buy(t *testing.T, region string, tags map[string]string) (model.Offering, model.Block) {
	t.Helper()
	o := e.offering(t, region)
	res, err := e.cb.Purchase(ctx, o, "", tags)
	if err != nil {
		t.Fatal(err)
	}
	return o, res.Block
}

func (e env) block(t *testing.T, region, id string) model.Block {
	t.Helper()
	b, found, err := e.cb.FindBlock(ctx, region, id)
	if err != nil || !found {
		t.Fatalf("block %s: %v %v", id, found, err)
	}
	return b
}

// extend extends the us-east-1 block id by its first 1-day extension offering: the
// offering, and what the extension answered.
func (e env) extend(t *testing.T, id string) (model.ExtensionOffering, source.ExtendResult) {
	t.Helper()
	offs, err := e.cb.ExtensionOfferings(ctx, e.block(t, "us-east-1", id), 1)
	if err != nil || len(offs) == 0 {
		t.Fatalf("extension offerings: %v %v", offs, err)
	}
	res, err := e.cb.Extend(ctx, e.block(t, "us-east-1", id), offs[0])
	if err != nil {
		t.Fatal(err)
	}
	return offs[0], res
}

func reservation(t *testing.T, in report.Input, id string) report.Reservation {
	t.Helper()
	for _, r := range in.Reservations {
		if r.ID == id || r.Name == id {
			return r
		}
	}
	t.Fatalf("no reservation %s among %d", id, len(in.Reservations))
	return report.Reservation{}
}

func payments(r report.Reservation, kind report.PaymentKind) []report.Payment {
	var out []report.Payment
	for _, p := range r.Payments {
		if p.Kind == kind {
			out = append(out, p)
		}
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// The report's input states what was paid for a block, from the journal (its purchase)
// and from AWS and the journal agreeing (its extension), and its use as the instance-hours
// launched into it, read from CloudWatch.
func TestGatherPaymentsAndUse(t *testing.T) {
	e := newEnv(t)
	o, bought := e.buy(t, "us-east-1", map[string]string{"team": "ml"})
	start := o.Start
	e.sim.SetTime(start.Add(time.Hour))
	launched, err := e.cb.Launch(ctx, e.block(t, "us-east-1", bought.ReservationID), source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 2})
	if err != nil || len(launched.Instances) != 2 {
		t.Fatalf("launch: %+v, %v", launched.Instances, err)
	}
	extOff, ext := e.extend(t, bought.ReservationID)
	e.sim.SetTime(start.Add(4 * time.Hour))
	if _, err := e.api.EC2("us-east-1").TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{launched.Instances[0].ID}}); err != nil {
		t.Fatal(err)
	}
	e.sim.SetTime(start.Add(10 * time.Hour))

	from, to := start.Add(-24*time.Hour), start.Add(30*24*time.Hour)
	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1", "us-east-2"}, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Now.Equal(e.sim.Now()) || !in.From.Equal(from) || !in.To.Equal(to) || len(in.Problems) != 0 {
		t.Errorf("input %v–%v at %v, problems %q", in.From, in.To, in.Now, in.Problems)
	}
	r := reservation(t, in, bought.ReservationID)
	if r.Account != ec2sim.DemoAccount || r.Region != "us-east-1" || r.Source != model.SourceCapacityBlock || r.Count != 2 ||
		r.InstanceType != "p5.48xlarge" || r.Tags["team"] != "ml" || r.State != model.StateActive {
		t.Errorf("reservation %+v", r)
	}
	// The window, the extension's day included.
	whole := 2 * o.End.Add(24*time.Hour).Sub(start).Hours()
	if !r.Start.Equal(start) || !r.End.Equal(o.End.Add(24*time.Hour)) || r.ReservedHours != whole {
		t.Errorf("window %v–%v, %v instance-hours; want %v to %v", r.Start, r.End, r.ReservedHours, whole, o.End.Add(24*time.Hour))
	}
	buys, exts := payments(r, report.Purchase), payments(r, report.Extension)
	if len(buys) != 1 || !buys[0].Known || buys[0].Origin != report.FromJournal || buys[0].Amount.Cmp(o.Fee) != 0 ||
		!buys[0].At.Equal(bought.Created) || buys[0].Mismatch != "" {
		t.Errorf("purchase %+v, want %s from the journal at %v", buys, o.Fee, bought.Created)
	}
	if len(exts) != 1 || exts[0].Origin != report.FromBoth || exts[0].Amount.Cmp(extOff.Fee) != 0 || !exts[0].At.Equal(ext.Extension.PurchaseDate) {
		t.Errorf("extension %+v, want %s from AWS and the journal", exts, extOff.Fee)
	}
	// Two instances from 1h; one terminated at 4h (and a minute shutting down); the clock at 10h.
	want := (3*time.Hour + time.Minute + 9*time.Hour).Hours()
	if !r.Use.Known || !near(r.Use.UsedHours, want) || !near(r.Use.ReservedHours, 2*10) {
		t.Errorf("use %+v, want %v used of 20 reserved", r.Use, want)
	}
}

// Where the journal disagrees with AWS, AWS's amount stands and the journal's is said; a
// block bought without this machine's journal has a purchase of unknown amount.
func TestGatherMismatchAndUnknownPurchase(t *testing.T) {
	e := newEnv(t)
	o, bought := e.buy(t, "us-east-1", nil)
	e.sim.SetTime(o.Start.Add(time.Hour))
	extOff, _ := e.extend(t, bought.ReservationID)
	apitest.RewriteJournal(t, e.api, func(en *source.JournalEntry) bool {
		if en.Action == "PurchaseCapacityBlockExtension" {
			en.Fee = "1.23"
		}
		return true
	})
	// Bought elsewhere: straight through EC2, no journal line.
	other := e.offering(t, "us-east-1")
	out, err := e.api.EC2("us-east-1").PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: aws.String(other.ID), InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := aws.ToString(out.CapacityReservation.CapacityReservationId)

	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1"}, o.Start.Add(-24*time.Hour), o.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	exts := payments(reservation(t, in, bought.ReservationID), report.Extension)
	if len(exts) != 1 || exts[0].Origin != report.FromAWS || exts[0].Amount.Cmp(extOff.Fee) != 0 ||
		!strings.Contains(exts[0].Mismatch, "$1.23") || !strings.Contains(exts[0].Mismatch, extOff.Fee.Dollars()) {
		t.Errorf("extension %+v: want AWS's %s and a mismatch naming the journal's $1.23", exts, extOff.Fee)
	}
	buys := payments(reservation(t, in, elsewhere), report.Purchase)
	if len(buys) != 1 || buys[0].Known || buys[0].Origin != "" || buys[0].At.IsZero() {
		t.Errorf("a purchase no one recorded: %+v, want one of unknown amount, at its create date", buys)
	}
}

// A region whose CloudWatch fails is a problem that names it, its reservations' use
// unknown; the other regions are reported in full.
func TestGatherCloudWatchFailureIsAProblemOfItsRegion(t *testing.T) {
	e := newEnv(t)
	east1, b1 := e.buy(t, "us-east-1", nil)
	_, b2 := e.buy(t, "us-east-2", nil)
	e.sim.SetTime(east1.Start.Add(5 * 24 * time.Hour))
	e.sim.SetFaults(ec2sim.Faults{Down: []string{"monitoring:us-east-2"}})
	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1", "us-east-2"}, east1.Start.Add(-14*24*time.Hour), east1.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Problems) != 1 || !strings.HasPrefix(in.Problems[0], "us-east-2: ") || !strings.Contains(in.Problems[0], "CloudWatch") {
		t.Errorf("problems %q, want one naming us-east-2's CloudWatch", in.Problems)
	}
	if r := reservation(t, in, b2.ReservationID); r.Use.Known || !strings.Contains(r.Use.Why, "us-east-2") || len(r.Payments) != 1 || !r.Payments[0].Known {
		t.Errorf("us-east-2's block: %+v", r)
	}
	// Nothing was launched into us-east-1's block: known, and none of it used.
	if r := reservation(t, in, b1.ReservationID); !r.Use.Known || r.Use.UsedHours != 0 || r.Use.ReservedHours != 2*east1.End.Sub(east1.Start).Hours() {
		t.Errorf("us-east-1's block: %+v", r.Use)
	}
}

// A training plan's fee is SageMaker's, agreeing with the journal; its use is unknown, as
// the emulator publishes none for plans.
func TestGatherTrainingPlan(t *testing.T) {
	e := newEnv(t)
	q := trainingplans.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Days: []int{2}, Start: simtest.Start,
		End: simtest.Start.Add(14 * 24 * time.Hour), Regions: []string{"us-east-1", "us-east-2", "us-west-2"}}
	var off trainingplans.Offering
	for ev := range e.tp.Search(ctx, q) {
		if off.ID == "" && len(ev.Offerings) > 0 {
			off = ev.Offerings[0]
		}
	}
	if off.ID == "" {
		t.Fatal("no plan offering")
	}
	res, err := e.tp.Purchase(ctx, off, map[string]string{"team": "ml", "project": "llm"})
	if err != nil {
		t.Fatal(err)
	}
	e.sim.SetTime(off.Start().Add(time.Hour))
	in, err := Gather(ctx, e.api, e.srcs, q.Regions, simtest.Start, simtest.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	r := reservation(t, in, res.Plan.ARN)
	buys := payments(r, report.Purchase)
	if r.Name != res.Plan.Name || r.Source != model.SourceTrainingPlan || len(buys) != 1 || buys[0].Origin != report.FromBoth || buys[0].Amount.Cmp(off.Fee) != 0 {
		t.Errorf("plan %+v, purchase %+v; want %s from SageMaker and the journal", r, buys, off.Fee)
	}
	// SageMaker's listings carry no tags; the journal has those it was bought with.
	if r.Tags["team"] != "ml" || r.Tags["project"] != "llm" {
		t.Errorf("plan tags %v, want team=ml project=llm", r.Tags)
	}
	if r.Use.Known || !strings.Contains(r.Use.Why, "aws/sagemaker/CapacityReservations") || float64(off.InstanceHours()) != r.ReservedHours {
		t.Errorf("plan use %+v, reserved %v (want %d)", r.Use, r.ReservedHours, off.InstanceHours())
	}
}

// A block this machine bought that AWS no longer lists is still reported, from the
// journal: its fee, and its window.
func TestGatherAReservationOnlyTheJournalKnows(t *testing.T) {
	e := newEnv(t)
	start, end := simtest.Start.Add(-20*24*time.Hour), simtest.Start.Add(-18*24*time.Hour)
	if err := e.api.WriteJournal(source.JournalEntry{Time: start.Add(-time.Hour), Phase: "outcome", Action: "PurchaseCapacityBlock",
		RequestID: "gpublock-old", Account: ec2sim.DemoAccount, Region: "us-east-1", Type: "p5.48xlarge", Count: 1,
		Start: &start, End: &end, Fee: "500.00", Outcome: string(source.Bought), Result: "cr-0123456789abcdef0"}); err != nil {
		t.Fatal(err)
	}
	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1"}, simtest.Start.Add(-30*24*time.Hour), simtest.Start)
	if err != nil {
		t.Fatal(err)
	}
	r := reservation(t, in, "cr-0123456789abcdef0")
	if r.State != model.StateExpired || r.ReservedHours != 48 || len(r.Payments) != 1 || r.Payments[0].Origin != report.FromJournal ||
		r.Payments[0].Amount.Cmp(model.MustMoney("500")) != 0 || r.Use.Known {
		t.Errorf("journal-only reservation %+v", r)
	}
}

// An extension still being paid for is counted whole: its fee and its hours, so that the
// cost per hour does not change when AWS takes the payment.
func TestGatherPendingExtensionCountsItsHours(t *testing.T) {
	e := newEnv(t)
	o, bought := e.buy(t, "us-east-1", nil)
	e.sim.SetTime(o.Start.Add(time.Hour))
	e.extend(t, bought.ReservationID)
	if b := e.block(t, "us-east-1", bought.ReservationID); len(b.Extensions) != 1 || b.Extensions[0].Status != model.ExtensionPaymentPending {
		t.Fatalf("extension not pending: %+v", b.Extensions)
	}
	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1"}, o.Start.Add(-24*time.Hour), o.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	r := reservation(t, in, bought.ReservationID)
	end := o.End.Add(24 * time.Hour)
	if exts := payments(r, report.Extension); len(exts) != 1 {
		t.Fatalf("extension payments %+v", exts)
	}
	if whole := 2 * end.Sub(o.Start).Hours(); !r.End.Equal(end) || r.ReservedHours != whole {
		t.Errorf("window %v–%v, %v instance-hours; want to %v, %v", r.Start, r.End, r.ReservedHours, end, whole)
	}
}
