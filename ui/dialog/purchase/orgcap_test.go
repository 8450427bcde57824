package purchase

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// orgBackend lists the organization's blocks: 250 instances held on the offering's first
// date, in two accounts.
type orgBackend struct {
	uitest.SourceCaps
	list source.BlockList
	err  error
}

func (b orgBackend) Blocks(context.Context, []string) (source.BlockList, error) { return b.list, b.err }

func (orgBackend) Prepare(_ context.Context, in source.Intent) (source.Prepared, error) {
	return source.Prepared{Intent: in, Permission: source.Permission{Allowed: true}}, nil
}

func heldBlocks() []model.Block {
	o := uitest.Offering()
	var out []model.Block
	for i, n := range []int{64, 64, 64, 58} {
		account := "111122223333"
		if i == 3 {
			account = "222233334444"
		}
		out = append(out, model.Block{Account: account, InstanceType: "p5.48xlarge", TotalCount: n, State: model.StateScheduled,
			Start: o.Start.Add(-24 * time.Hour), End: o.Start.Add(12 * time.Hour)})
	}
	return out
}

func orgDialog(t *testing.T, list source.BlockList, err error) (Model, []tea.Msg) {
	return orgDialogOf(t, list, err, false)
}

// orgDialogOf is orgDialog, partial saying the accounts listed are only some of the
// organization's.
func orgDialogOf(t *testing.T, list source.BlockList, err error, partial bool) (Model, []tea.Msg) {
	t.Helper()
	env := uitest.Env(body, true)
	env.OrganizationPartial = partial
	env.Backend = orgBackend{list: list, err: err}
	env.Organization = true
	o := uitest.Offering()
	o.Count = 8
	d, cmd := New(env, o)
	var orgs []tea.Msg
	for _, c := range cmd().(tea.BatchMsg) {
		if c == nil {
			continue
		}
		if msg, ok := c().(orgMsg); ok {
			orgs = append(orgs, msg)
		}
	}
	if len(orgs) != 1 {
		t.Fatalf("the dialog asked the organization's blocks %d times, want once", len(orgs))
	}
	return d, orgs
}

// A purchase that would pass the organization's cap is warned of, with the date and the
// figures, above the typed word; a word typed before the warning arrived does not buy.
func TestPurchaseDialogWarnsOfTheOrganizationsCap(t *testing.T) {
	p, orgs := orgDialog(t, source.BlockList{Blocks: heldBlocks()}, nil)
	d := allowed(p, p)
	view := ansi.Strip(d.View(160, 45))
	if !strings.Contains(view, "Counting the organization's Capacity Block instances") {
		t.Errorf("while counting:\n%s", view)
	}
	// buy and enter while it counts: not bought, and said why.
	pd := d.(Model)
	typeWord(&pd, "buy")
	d, _, _ = dialog.Dialog(pd).Update(press("enter"))
	if d.(Model).spend.Busy() || !strings.Contains(d.(Model).spend.Note, "being counted") {
		t.Fatalf("enter while counting: buying %v, note %q", d.(Model).spend.Busy(), d.(Model).spend.Note)
	}
	// A word begun before the warning is drawn is cleared by it.
	pd = d.(Model)
	typeWord(&pd, "bu")
	d, _, _ = dialog.Dialog(pd).Update(orgs[0])
	if got := d.(Model).spend.Field.Value(); got != "" {
		t.Errorf("the warning arrived on a word begun before it: %q", got)
	}
	view = ansi.Strip(d.View(160, 45))
	flat := flatten(view)
	if strings.Contains(flat, "being counted") {
		t.Errorf("the count answered, yet the dialog still says it is counting:\n%s", view)
	}
	warning, prompt := strings.Index(flat, "⚠ ORGANIZATION CAP"), strings.Index(flat, "Type buy")
	if warning < 0 || prompt < 0 || warning > prompt {
		t.Fatalf("the warning is not above the typed word:\n%s", view)
	}
	for _, s := range []string{"on 2026-12-03", "hold 250 instances", "this adds 8", "258 in all", "256"} {
		if !strings.Contains(flat, s) {
			t.Errorf("the warning lacks %q:\n%s", s, view)
		}
	}
	// It stays a warning: the person may still buy.
	pd = d.(Model)
	typeWord(&pd, "buy")
	d, _, _ = dialog.Dialog(pd).Update(press("enter"))
	if !d.(Model).spend.Busy() {
		t.Errorf("buy after the warning was not sent: %q", d.(Model).spend.Note)
	}
}

// Within the cap the dialog says what is held; a listing that failed is said, and never
// keeps the purchase from going ahead.
func TestPurchaseDialogOrganizationWithinTheCapOrUnknown(t *testing.T) {
	p, orgs := orgDialog(t, source.BlockList{Blocks: heldBlocks()[:2]}, nil)
	d, _, _ := allowed(p, p).Update(orgs[0])
	flat := flatten(ansi.Strip(d.View(160, 45)))
	if strings.Contains(flat, "ORGANIZATION CAP") || !strings.Contains(flat, "Organization: at most 128 of the organization's 256") {
		t.Errorf("within the cap:\n%s", flat)
	}
	p, orgs = orgDialog(t, source.BlockList{Problems: []source.BlockProblem{{Account: "profile b", Message: "profile b: expired token"}}},
		errors.New("every account failed"))
	d, _, _ = allowed(p, p).Update(orgs[0])
	flat = flatten(ansi.Strip(d.View(160, 45)))
	if !strings.Contains(flat, "could not be listed, so its cap of 256 instances is not checked") {
		t.Errorf("listing failed:\n%s", flat)
	}
	pd := d.(Model)
	typeWord(&pd, "buy")
	if d, _, _ = dialog.Dialog(pd).Update(press("enter")); !d.(Model).spend.Busy() {
		t.Errorf("a failed count kept the purchase from going ahead: %q", d.(Model).spend.Note)
	}
}

// flatten is the dialog's text without its frame, its lines joined: a sentence wrapped over
// two lines reads whole.
func flatten(view string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("┆", " ", "│", " ").Replace(view)), " ")
}

// At 80×24 a purchase within the cap can still be confirmed: what the organization holds
// is said only where there is room, and the count is said in the prompt's place.
func TestPurchaseDialogOrganizationFitsEightyByTwentyFour(t *testing.T) {
	small := dialog.SizeMsg{W: 80, H: 21}
	p, orgs := orgDialog(t, source.BlockList{Blocks: heldBlocks()[:2]}, nil)
	d, _, _ := allowed(p, p).Update(small)
	if !d.(Model).fits() || !strings.Contains(flatten(ansi.Strip(d.View(80, 21))), "Counting the organization's") {
		t.Errorf("counting at 80×24:\n%s", ansi.Strip(d.View(80, 21)))
	}
	d, _, _ = d.Update(orgs[0])
	if !d.(Model).fits() {
		t.Errorf("within the cap at 80×24 the confirmation does not fit:\n%s", ansi.Strip(d.View(80, 21)))
	}
	if why := d.(Model).spend.Blocker(d.(Model).why()); why != "" {
		t.Errorf("within the cap at 80×24: %s", why)
	}
}

// Listing only some of the organization's accounts, the dialog says its count may be low.
func TestPurchaseDialogOrganizationPartial(t *testing.T) {
	p, orgs := orgDialogOf(t, source.BlockList{Blocks: heldBlocks()[:2]}, nil, true)
	d, _, _ := allowed(p, p).Update(orgs[0])
	flat := flatten(ansi.Strip(d.View(160, 45)))
	if !strings.Contains(flat, "Organization: the figures may be low: only the accounts listed are counted") {
		t.Errorf("partial count:\n%s", flat)
	}
}
