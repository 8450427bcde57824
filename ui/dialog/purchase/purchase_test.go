package purchase

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/theme"
)

func testDialog(t *testing.T, src model.Source, maxSpend *model.Money) Model {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC,
		Wall:     spend.NewFakeClock(now, 2*model.ConfirmDwell).Now,
		Identity: program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}}
	o := model.Offering{ID: "cbr-0123456789abcdef0", Source: src, Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 2, Start: now.Add(24 * time.Hour), End: now.Add(48 * time.Hour), DurationHours: 24,
		Fee: model.MustMoney("6211.123456"), Currency: "USD"}
	pc.Backend = capsOf{caps: map[model.Source]source.Caps{model.SourceTrainingPlan: {NoDryRun: "no dry run"},
		model.SourceCapacityBlock: {DryRun: true, Launch: true}}}
	d, _ := New(dialog.Env{Context: pc, Poll: time.Second, MaxSpend: maxSpend}, o)
	return d
}

// The footer names the keys of the dialog's phase: a block's platform and a plan's lack of
// one, and nothing to type once the fee is above the cap.
func TestFooterFollowsThePhase(t *testing.T) {
	block := testDialog(t, model.SourceCapacityBlock, nil)
	dd, _, _ := block.Update(answered(block, source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil))
	allowed := dd.(Model)
	plan := testDialog(t, model.SourceTrainingPlan, nil)
	low := model.MustMoney("100")
	capped := testDialog(t, model.SourceCapacityBlock, &low)
	for name, c := range map[string]struct {
		d        Model
		has, not string
	}{
		"allowed": {allowed, "type buy then enter to buy • tab platform · tags · confirmation • shift+tab back • → next platform • ← previous platform", "closes"},
		"plan":    {plan, "tab tags · confirmation", "platform"},
		"capped":  {capped, "esc closes: nothing can be bought here", "type buy"},
	} {
		if got := c.d.Footer(); !strings.Contains(got, c.has) || strings.Contains(got, c.not) {
			t.Errorf("%s: footer %q, want %q and no %q", name, got, c.has, c.not)
		}
		if len(c.d.Keys().FullHelp()) == 0 || len(c.d.Keys().FullHelp()[0]) != len(c.d.Keys().ShortHelp()) {
			t.Errorf("%s: the help and the footer name different keys", name)
		}
	}
}

// capsOf is a backend that answers only what each source can do: the dialog reads a
// source's difference from its capabilities; the calls these tests make are not sent.
type capsOf struct {
	source.Backend
	caps map[model.Source]source.Caps
}

func (c capsOf) Caps(s model.Source) source.Caps { return c.caps[s] }

func (capsOf) Platforms() []string { return nil }
