package ui

import (
	"errors"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/ui/program"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
)

// fixedOffering is an offering whose every figure is fixed, for goldens and sizes.
func fixedOffering() model.Offering {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return model.Offering{ID: "cbr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48,
		Fee: model.MustMoney("6211.123456"), Currency: "USD", Tenancy: "default"}
}

func fixedBlock(state model.BlockState) model.Block {
	o := fixedOffering()
	return model.Block{ReservationID: "cr-0123456789abcdef0", BlockID: "cb-0123456789abcdef0", Region: o.Region,
		AvailabilityZone: o.AvailabilityZone, InstanceType: o.InstanceType, Platform: "Linux/UNIX", TotalCount: 2,
		AvailableCount: 2, State: state, Start: o.Start, End: o.End}
}

// dialogStates are the purchase, receipt and launch dialogs in each of their states, over
// a screen of results.
func dialogStates(base Model) map[string]Model {
	env := base.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	o := fixedOffering()
	with := func(d dialog) Model {
		m := base
		m.dialog = d
		return m
	}
	states := map[string]Model{}
	p, _ := purchase.New(env, o)
	states["purchase checking"] = with(p)
	allowed := p
	allowed.Spend().Answer(allowed.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	allowed.Spend().Field.SetValue("bu")
	states["purchase allowed"] = with(allowed)
	denied := p
	denied.Spend().Answer(denied.Spend().CheckID(), source.Permission{Action: "ec2:PurchaseCapacityBlock"}, nil)
	states["purchase denied"] = with(denied)
	capEnv := env
	low := model.MustMoney("100")
	capEnv.MaxSpend = &low
	over, _ := purchase.New(capEnv, o)
	states["purchase over cap"] = with(over)
	unknown := allowed
	unknown.Spend().Settle(&source.ActionError{Outcome: source.Unknown, Summary: "The purchase may or may not have gone through.", Hint: "Do not buy again."})
	states["purchase unknown"] = with(unknown)
	sold := allowed
	sold.Spend().Settle(&source.ActionError{Sold: true, Summary: "sold"})
	states["purchase sold"] = with(sold)
	buying := allowed
	buying.Spend().Field.SetValue("buy")
	buying.Spend().Confirm("")
	states["purchase buying"] = with(buying)

	r, _ := receipt.New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123456789abcdef01234567", Block: fixedBlock(model.StatePaymentPending)})
	states["receipt pending"] = with(r)
	rec, _ := receipt.New(env, o, "Linux/UNIX", source.PurchaseResult{RequestID: "gpb-0123456789abcdef01234567", Block: fixedBlock(model.StateScheduled), Recovered: true})
	rec.ShowJournal("/home/someone/.local/state/gpublock/journal.jsonl")
	states["receipt recovered"] = with(rec)

	l, _ := launch.New(env, fixedBlock(model.StateActive))
	l.ShowSubnets([]source.Subnet{{ID: "subnet-0123456789abcdef0", AvailabilityZone: "us-east-1a", Default: true}})
	states["launch form"] = with(l)
	checked := l
	checked.Spend().Answer(checked.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:RunInstances"}, nil)
	states["launch checked"] = with(checked)
	bad := l
	bad.Spend().Answer(bad.Spend().CheckID(), source.Permission{}, errors.New("Subnet subnet-1 is in us-east-1b, but the block is in us-east-1a."))
	states["launch wrong zone"] = with(bad)
	ls, _ := launch.New(env, fixedBlock(model.StateScheduled))
	ls.Arm()
	states["launch waiting"] = with(ls)
	done := checked
	done.ShowLaunched(source.LaunchResult{SubnetID: "subnet-0123456789abcdef0", Instances: []model.Instance{{ID: "i-0123456789abcdef0", State: "pending"}, {ID: "i-0123456789abcdef1", State: "running"}}})
	states["launch done"] = with(done)
	failed := checked
	failed.Spend().Settle(&source.ActionError{Summary: "RunInstances failed."})
	states["launch failed"] = with(failed)
	return states
}

// The dialogs that spend money fit every size from 20×5 to 400×120 and never panic.
func TestActionDialogsFitEverySize(t *testing.T) {
	base := withResults(New(testOptions(nil)), syntheticOfferings(50))
	for name, m := range dialogStates(base) {
		for w := 20; w <= 400; w += 29 {
			for h := 5; h <= 120; h += 9 {
				checkFits(t, name, update(m, tea.WindowSizeMsg{Width: w, Height: h}), w, h)
			}
		}
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {59, 15}, {60, 16}, {119, 29}, {120, 30}, {400, 120}, {1, 1}} {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}

// A confirmation cut by a small terminal cannot be confirmed: nobody buys what they could
// not see.
func TestPurchaseTooSmallCannotConfirm(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 60, Height: 16})
	env := base.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	p, _ := purchase.New(env, fixedOffering())
	p.Spend().Answer(p.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	p.Spend().Field.SetValue("buy")
	d, cmd, closed := p.Update(keyMsg("enter"))
	if closed || cmd != nil || d.(purchase.Model).Machine().Busy() {
		t.Fatalf("enter on a cut confirmation: closed=%v cmd=%v buying=%v", closed, cmd != nil, d.(purchase.Model).Machine().Busy())
	}
	if got := d.(purchase.Model).Machine().Note; got == "" {
		t.Error("no reason given")
	}
}

// At 80×24 the whole confirmation shows, so a purchase can be confirmed there.
func TestPurchaseFitsEightyByTwentyFour(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 80, Height: 24})
	env := base.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	p, _ := purchase.New(env, fixedOffering())
	p.Spend().Answer(p.Spend().CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil)
	if why := p.Spend().Blocker(p.Why()); why != "" {
		t.Fatalf("at 80×24: %s", why)
	}
}
