package accounts

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// fake is one account's backend: what it lists, and the calls made of it.
type fake struct {
	source.Backend // nil: a call not made here panics, which a test would see
	id             string
	idErr          error
	list           source.BlockList
	err            error
	asked          [][]string
	rep            report.Input
	repErr         error
	reported       [][]string // the regions each Report was asked
	prepared       atomic.Int32
	forgot         atomic.Int32
	release        chan struct{} // when set, Blocks waits for it
}

func (f *fake) Identity(context.Context) (source.Identity, error) {
	return source.Identity{Account: f.id}, f.idErr
}

func (f *fake) Blocks(_ context.Context, regions []string) (source.BlockList, error) {
	if f.release != nil {
		<-f.release
	}
	f.asked = append(f.asked, regions)
	return f.list, f.err
}

func (f *fake) Report(_ context.Context, regions []string, _, _ time.Time) (report.Input, error) {
	f.reported = append(f.reported, regions)
	return f.rep, f.repErr
}

func (f *fake) Prepare(_ context.Context, in source.Intent) (source.Prepared, error) {
	f.prepared.Add(1)
	return source.Prepared{Intent: in, Account: f.id}, nil
}

func (f *fake) Commit(_ context.Context, p source.Prepared) (source.SpendResult, error) {
	return source.SpendResult{RequestID: f.id}, nil
}

func (f *fake) Block(_ context.Context, region, id string) (model.Block, bool, error) {
	for _, b := range f.list.Blocks {
		if b.ReservationID == id {
			return b, true, nil
		}
	}
	return model.Block{}, false, nil
}

func (f *fake) AttachLaunch(context.Context, model.Block, source.LaunchSpec) (source.AttachedLaunch, error) {
	return source.AttachedLaunch{State: "pending"}, nil
}

func (f *fake) Forget() { f.forgot.Add(1) }

var now = simtest.Start

func blk(id, account string) model.Block {
	return model.Block{ReservationID: id, Account: account, Region: "us-east-1", State: model.StateScheduled}
}

func twoAccounts(t *testing.T) (*Backend, *fake, *fake) {
	t.Helper()
	a := &fake{id: "111122223333", list: source.BlockList{Blocks: []model.Block{blk("cr-a", "111122223333")}, Now: now,
		Fees: map[string]model.Money{source.FeeKey(blk("cr-a", "111122223333")): model.MustMoney("100")}, Quiet: []string{"eu-north-1", "ap-south-1"}}}
	b := &fake{id: "222233334444", list: source.BlockList{Blocks: []model.Block{blk("cr-b", "")}, Now: now.Add(time.Hour),
		Fees: map[string]model.Money{source.FeeKey(blk("cr-b", "")): model.MustMoney("200")}, Quiet: []string{"ap-south-1"}}}
	be, err := New([]Member{{Profile: "a", Backend: a}, {Profile: "b", Backend: b}})
	if err != nil {
		t.Fatal(err)
	}
	return be, a, b
}

func TestBlocksMergesEveryAccount(t *testing.T) {
	be, _, _ := twoAccounts(t)
	list, err := be.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range list.Blocks {
		got[b.ReservationID] = b.Account
	}
	// A block whose listing named no account is its account's, by identity.
	if got["cr-a"] != "111122223333" || got["cr-b"] != "222233334444" || len(got) != 2 {
		t.Errorf("accounts of the blocks: %v", got)
	}
	if len(list.Fees) != 2 || list.Fees[source.FeeKey(blk("cr-b", "222233334444"))] != model.MustMoney("200") {
		t.Errorf("fees %v", list.Fees)
	}
	if !list.Now.Equal(now) {
		t.Errorf("now %v, want the home account's", list.Now)
	}
	if !slices.Equal(list.Quiet, []string{"ap-south-1"}) {
		t.Errorf("quiet %v, want the regions every account left out", list.Quiet)
	}
	if len(list.Problems) != 0 {
		t.Errorf("problems %+v", list.Problems)
	}
	accts := be.Accounts()
	if len(accts) != 2 || accts[0] != (source.Account{ID: "111122223333", Profile: "a"}) || accts[1].ID != "222233334444" {
		t.Errorf("accounts %+v", accts)
	}
}

// An account that fails whole is one problem naming it; the other's blocks stand, and the
// listing's failures count the account, not its regions (the other account read them).
func TestAFailedAccountHidesNoOther(t *testing.T) {
	be, _, b := twoAccounts(t)
	b.idErr = errors.New("connection refused")
	b.err = errors.New("every region failed: connection refused")
	list, err := be.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatalf("one account answered, yet %v", err)
	}
	if len(list.Blocks) != 1 || list.Blocks[0].ReservationID != "cr-a" {
		t.Errorf("blocks %+v", list.Blocks)
	}
	if len(list.Problems) != 1 || list.Problems[0].Account != "profile b" ||
		list.Problems[0].Message != "profile b: every region failed: connection refused" {
		t.Fatalf("problems %+v", list.Problems)
	}
	lf := list.Failures()
	if len(lf.Failed) != 0 || lf.Other || !slices.Equal(lf.Accounts, []string{"profile b"}) || lf.NoneRead([]string{"us-east-1"}) {
		t.Errorf("failures %+v", lf)
	}

	// Once its id is known it is named by it.
	b.idErr, b.err = nil, nil
	if _, err := be.Blocks(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	b.err = errors.New("expired token")
	list, _ = be.Blocks(context.Background(), nil)
	if len(list.Problems) != 1 || list.Problems[0].Message != "account 222233334444 (profile b): expired token" {
		t.Errorf("problems %+v", list.Problems)
	}
}

func TestAnAccountsRegionProblemsNameIt(t *testing.T) {
	be, _, b := twoAccounts(t)
	b.list.Problems = []source.BlockProblem{{Region: "us-west-2", Regions: []string{"us-west-2"}, Message: "throttled"}}
	list, err := be.Blocks(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := list.Problems
	if len(p) != 1 || p[0].Account != "account 222233334444 (profile b)" || p[0].Message != "account 222233334444 (profile b): us-west-2: throttled" {
		t.Fatalf("problems %+v", p)
	}
	// us-west-2 is account b's failure only.
	if lf := list.Failures(); lf.Failed["us-west-2"] || len(lf.Accounts) != 1 {
		t.Errorf("failures %+v", lf)
	}
}

func TestEveryAccountFailedIsTheError(t *testing.T) {
	be, a, b := twoAccounts(t)
	a.err, b.err = errors.New("down"), errors.New("down too")
	list, err := be.Blocks(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "down too") || len(list.Blocks) != 0 || len(list.Problems) != 2 {
		t.Fatalf("list %+v, err %v", list, err)
	}
}

// An account that could not be opened is a failed account in every listing.
func TestAnUnopenedAccountIsNamedFailed(t *testing.T) {
	a := &fake{id: "111122223333", list: source.BlockList{Blocks: []model.Block{blk("cr-a", "")}}}
	be, err := New([]Member{{Profile: "a", Backend: a}, {Profile: "typo", Err: errors.New("profile typo does not exist")}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := be.Blocks(context.Background(), nil)
	if err != nil || len(list.Blocks) != 1 || len(list.Problems) != 1 || !strings.Contains(list.Problems[0].Message, "profile typo: profile typo does not exist") {
		t.Fatalf("list %+v, %v", list, err)
	}
	if _, err := New([]Member{{Profile: "x", Err: errors.New("no such profile")}}); err == nil {
		t.Error("a home account that is not open was taken")
	}
}

// An account with regions of its own is listed in those alone.
func TestAnAccountsOwnRegions(t *testing.T) {
	a := &fake{id: "1"}
	b := &fake{id: "2"}
	be, _ := New([]Member{{Profile: "a", Backend: a}, {Profile: "b", Backend: b, Regions: []string{"us-west-2"}}})
	if _, err := be.Blocks(context.Background(), []string{"us-east-1", "us-west-2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := be.Blocks(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := be.Blocks(context.Background(), []string{"us-east-1"}); err != nil {
		t.Fatal(err)
	}
	if len(b.asked) != 2 || !slices.Equal(b.asked[0], []string{"us-west-2"}) || !slices.Equal(b.asked[1], []string{"us-west-2"}) {
		t.Errorf("account b was asked %v", b.asked)
	}
	if len(a.asked) != 3 || len(a.asked[0]) != 2 {
		t.Errorf("account a was asked %v", a.asked)
	}
	// An account left out of a listing leaves its quiet regions to the others.
	a.list.Quiet = []string{"eu-north-1"}
	if list, err := be.Blocks(context.Background(), []string{"us-east-1"}); err != nil || !slices.Equal(list.Quiet, []string{"eu-north-1"}) {
		t.Errorf("quiet %v (%v)", list.Quiet, err)
	}
}

// The accounts are asked at once: a slow one does not hold the other's call back.
func TestBlocksAsksTheAccountsAtOnce(t *testing.T) {
	be, a, b := twoAccounts(t)
	a.release, b.release = make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() { _, _ = be.Blocks(context.Background(), nil); close(done) }()
	// b is released first: with the accounts asked one after another, a's wait would
	// hold it.
	b.release <- struct{}{}
	a.release <- struct{}{}
	<-done
}

// A purchase is the home account's; an extension or a launch is its block's account's.
func TestSpendingRoutesByTheBlocksAccount(t *testing.T) {
	be, a, b := twoAccounts(t)
	ctx := context.Background()
	if _, err := be.Blocks(ctx, nil); err != nil {
		t.Fatal(err)
	}
	p, err := be.Prepare(ctx, source.Intent{Kind: source.SpendPurchase})
	if err != nil || p.Account != "111122223333" {
		t.Errorf("purchase prepared in %q (%v)", p.Account, err)
	}
	p, err = be.Prepare(ctx, source.Intent{Kind: source.SpendExtend, Block: blk("cr-b", "222233334444")})
	if err != nil || p.Account != "222233334444" || b.prepared.Load() != 1 {
		t.Errorf("extension of b's block prepared in %q (%v)", p.Account, err)
	}
	if res, err := be.Commit(ctx, p); err != nil || res.RequestID != "222233334444" {
		t.Errorf("extension committed in %q (%v)", res.RequestID, err)
	}
	if a.prepared.Load() != 1 {
		t.Errorf("home prepared %d", a.prepared.Load())
	}
	// An account none of the profiles reaches is refused in words, nothing prepared.
	_, err = be.Prepare(ctx, source.Intent{Kind: source.SpendLaunch, Block: blk("cr-z", "999999999999")})
	var ae *source.ActionError
	if !errors.As(err, &ae) || !strings.Contains(ae.Error(), "999999999999") || !strings.Contains(ae.Error(), "--profile") {
		t.Errorf("unknown account: %v", err)
	}
	// A launch attached to another account's block would be fired in the home account.
	if _, err := be.AttachLaunch(ctx, blk("cr-b", "222233334444"), source.LaunchSpec{}); !errors.As(err, &ae) || !strings.Contains(ae.Error(), "--profile b") {
		t.Errorf("attach to b's block: %v", err)
	}
	if l, err := be.AttachLaunch(ctx, blk("cr-a", "111122223333"), source.LaunchSpec{}); err != nil || l.State != "pending" {
		t.Errorf("attach to the home account's block: %+v %v", l, err)
	}
	// The block is asked of the account that listed it.
	if got, ok, err := be.Block(ctx, "us-east-1", "cr-b"); err != nil || !ok || got.Account != "222233334444" {
		t.Errorf("Block(cr-b) = %+v %v %v", got, ok, err)
	}
	if in, ok := be.In("222233334444"); !ok || in == nil {
		t.Error("In(b) not found")
	} else if _, err := in.AttachLaunch(ctx, blk("cr-b", "222233334444"), source.LaunchSpec{}); err == nil {
		t.Error("In(b) attached a launch")
	}
	if _, ok := be.In("999999999999"); ok {
		t.Error("In found an account none reaches")
	}
	be.Forget()
	if a.forgot.Load() != 1 || b.forgot.Load() != 1 {
		t.Errorf("Forget reached %d and %d", a.forgot.Load(), b.forgot.Load())
	}
}

func TestReportPutsTheAccountsTogether(t *testing.T) {
	be, a, b := twoAccounts(t)
	a.rep = report.Input{Now: now, TagKeys: []string{"team"}, Reservations: []report.Reservation{{ID: "cr-a", Account: "111122223333"}}, Problems: []string{"us-west-2: throttled"}}
	b.rep = report.Input{Now: now.Add(time.Hour), Reservations: []report.Reservation{{ID: "cr-b"}}}
	in, err := be.Report(context.Background(), nil, now.Add(-24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	// Now is the latest of the accounts' clocks.
	if len(in.Reservations) != 2 || in.Reservations[1].Account != "222233334444" || !in.Now.Equal(now.Add(time.Hour)) || in.TagKeys[0] != "team" {
		t.Errorf("report %+v", in)
	}
	// Up to now (a zero end): the window ends at that latest now, so what either paid is in it.
	if up, err := be.Report(context.Background(), nil, now.Add(-24*time.Hour), time.Time{}); err != nil || !up.To.Equal(now.Add(time.Hour)) {
		t.Errorf("up to now: ends %v, %v; want %v", up.To, err, now.Add(time.Hour))
	}
	if len(in.Problems) != 1 || in.Problems[0] != "account 111122223333 (profile a): us-west-2: throttled" {
		t.Errorf("problems %q", in.Problems)
	}
	b.repErr = errors.New("AccessDenied")
	in, err = be.Report(context.Background(), nil, now.Add(-24*time.Hour), now)
	if err != nil || len(in.Reservations) != 1 || !slices.Contains(in.Problems, "account 222233334444 (profile b): AccessDenied") {
		t.Errorf("report with b failing: %+v, %v", in, err)
	}
	a.repErr = errors.New("down")
	if _, err := be.Report(context.Background(), nil, now.Add(-24*time.Hour), now); err == nil {
		t.Error("no account answered, yet no error")
	}
}

// The Backend is a source.Backend and a source.Accounts.
var (
	_ source.Backend   = (*Backend)(nil)
	_ source.Accounts  = (*Backend)(nil)
	_ source.Rescanner = (*Backend)(nil)
)

// Two accounts may each hold a reservation of one name: a training plan of the same name
// (its fee kept apart by the plan's ARN, source.FeeKey), or a Capacity Block of one id (two
// emulators, or a listing that names no owner). Each shows its own account's fee, whether
// its listing named the account or the account was learnt from its identity.
func TestReservationsOfOneIDInTwoAccountsKeepTheirFees(t *testing.T) {
	plan := func(account string) model.Block {
		return model.Block{Source: model.SourceTrainingPlan, ReservationID: "llama-run", Account: account, Region: "us-east-1",
			ARN: "arn:aws:sagemaker:us-east-1:" + account + ":training-plan/llama-run", State: model.StateScheduled}
	}
	for _, tc := range []struct {
		name   string
		ra, rb model.Block
	}{
		{"training plans of one name", plan("111122223333"), plan("222233334444")},
		{"capacity blocks of one id", blk("cr-same", "111122223333"), blk("cr-same", "")},
	} {
		a := &fake{id: "111122223333", list: source.BlockList{Blocks: []model.Block{tc.ra}, Now: now,
			Fees: map[string]model.Money{source.FeeKey(tc.ra): model.MustMoney("100")}}}
		b := &fake{id: "222233334444", list: source.BlockList{Blocks: []model.Block{tc.rb}, Now: now,
			Fees: map[string]model.Money{source.FeeKey(tc.rb): model.MustMoney("200")}}}
		be, err := New([]Member{{Profile: "a", Backend: a}, {Profile: "b", Backend: b}})
		if err != nil {
			t.Fatal(err)
		}
		list, err := be.Blocks(context.Background(), []string{"us-east-1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Blocks) != 2 {
			t.Fatalf("%s: %d listed, want 2", tc.name, len(list.Blocks))
		}
		for _, p := range list.Blocks {
			want := map[string]string{"111122223333": "100", "222233334444": "200"}[p.Account]
			if got, ok := list.Fees[source.FeeKey(p)]; !ok || got != model.MustMoney(want) {
				t.Errorf("%s: the one of %s: fee %s (%v), want %s", tc.name, p.Account, got, ok, want)
			}
		}
	}
}

// A report covers each account in its own regions among those asked, as a listing does: an
// account none of whose regions is asked is left out, and is no failure.
func TestReportAsksEachAccountItsRegions(t *testing.T) {
	a := &fake{id: "111122223333", rep: report.Input{Now: now}}
	b := &fake{id: "222233334444", rep: report.Input{Now: now}}
	be, err := New([]Member{{Profile: "a", Backend: a}, {Profile: "b", Backend: b, Regions: []string{"us-west-2"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := be.Report(context.Background(), nil, now.Add(-time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if _, err := be.Report(context.Background(), []string{"us-east-1"}, now.Add(-time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if len(a.reported) != 2 || a.reported[0] != nil || !slices.Equal(a.reported[1], []string{"us-east-1"}) {
		t.Errorf("account a asked %v, want every region then us-east-1", a.reported)
	}
	if len(b.reported) != 1 || !slices.Equal(b.reported[0], []string{"us-west-2"}) {
		t.Errorf("account b asked %v, want its us-west-2 once (us-east-1 is none of its)", b.reported)
	}
}
