package extend

import (
	"context"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/theme"
)

var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func testBlock() model.Block {
	start := testNow.Add(-2 * 24 * time.Hour).Truncate(time.Hour)
	return model.Block{ReservationID: "cr-00000000000000001", BlockID: "cb-00000000000000001", Region: "us-east-1",
		AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1, State: model.StateActive,
		Start: start, End: start.Add(48 * time.Hour)}
}

func testEnv() dialog.Env {
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(func() time.Time { return testNow }), Location: time.UTC,
		Wall: spend.NewFakeClock(testNow, 2*model.ConfirmDwell).Now}
	return dialog.Env{Context: pc, Poll: time.Second}
}

// confirmDialog is the dialog on a 6-day extension whose dry run allowed it, every length
// listed, as the blocks screen's states have it.
func confirmDialog(t *testing.T) Model {
	t.Helper()
	blk := testBlock()
	d := New(testEnv(), nil, blk)
	d.step, d.off = stepConfirm, listLengths(&d, blk)
	d.spend.Answer(d.spend.CheckID(), source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil)
	return d
}

var keyMsg = uitest.Key

// The footer names esc and ctrl+c while the step's own keys are in the dialog's lines;
// the help names them all.
func TestKeysFollowTheStep(t *testing.T) {
	d := confirmDialog(t)
	buying := d
	buying.step = stepBuying
	done := d
	done.step = stepDone
	choose := d
	choose.step = stepChoose
	for name, c := range map[string]struct {
		d    Model
		want string
		own  string
	}{
		"confirm": {d, "keys as shown in the dialog • esc cancels • ctrl+c quits", "type extend then enter"},
		"choose":  {choose, "keys as shown in the dialog • esc cancels • ctrl+c quits", "↑/k"},
		"buying":  {buying, "waiting for the extension's answer • ctrl+c twice quits anyway", ""},
		"done":    {done, "any key closes • ctrl+c quits", ""},
	} {
		if got := c.d.Footer(); got != c.want {
			t.Errorf("%s: footer %q, want %q", name, got, c.want)
		}
		var own []string
		for _, b := range c.d.Keys().FullHelp()[0] {
			own = append(own, b.Help().Key)
		}
		if c.own != "" && !containsKey(c.d.Keys().FullHelp()[0], c.own) {
			t.Errorf("%s: the help's own keys %v lack %q", name, own, c.own)
		}
		if c.own == "" && len(own) != 0 {
			t.Errorf("%s: the help offers %v, which do nothing now", name, own)
		}
	}
}

func containsKey(bs []key.Binding, k string) bool {
	for _, b := range bs {
		if b.Help().Key == k {
			return true
		}
	}
	return false
}

// listLengths lists every length of extension of blk in d, at $98,765.43 each, and
// chooses the sixth (6 days), whose offering it returns.
func listLengths(d *Model, blk model.Block) model.ExtensionOffering {
	off := model.ExtensionOffering{ID: "cbeo-0123456789abcdef0", ReservationID: blk.ReservationID, InstanceType: blk.InstanceType,
		Count: blk.TotalCount, Start: blk.End, End: blk.End.Add(6 * 24 * time.Hour), DurationHours: 144, Fee: model.MustMoney("98765.43"), Currency: "USD"}
	var choices []model.ExtensionChoice
	var cmps []pricing.Comparison
	for _, days := range model.ExtensionLengths(blk) {
		o := off
		o.End, o.DurationHours = blk.End.Add(time.Duration(days)*24*time.Hour), days*24
		choices = append(choices, model.ExtensionChoice{Days: days, Offering: o})
		cmps = append(cmps, pricing.Compare(nil, o.AsOffering(blk)))
	}
	d.choices, d.cmps, d.choice = choices, cmps, 5
	return off
}
