package extend

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
)

// streamDialog is an extend dialog still asking, with the lengths answering one by one.
func streamDialog(t *testing.T, prefer int) (Model, func(days int) extChoiceMsg) {
	t.Helper()
	d := confirmDialog(t)
	d.step, d.asking, d.moved, d.prefer = stepLoading, true, false, prefer
	d.choices, d.cmps, d.choice = nil, nil, 0
	one := func(days int) extChoiceMsg {
		off := d.off
		off.End, off.DurationHours = d.b.End.Add(time.Duration(days)*24*time.Hour), days*24
		return extChoiceMsg{dialog: d.ask, choice: model.ExtensionChoice{Days: days, Offering: off},
			cmp: pricing.CompareExtension(d.prices, off.AsOffering(d.b))}
	}
	return d, one
}

func streamDays(d Model) []int {
	var out []int
	for _, ch := range d.choices {
		out = append(out, ch.Days)
	}
	return out
}

func feed(t *testing.T, d dialog.Dialog, msgs ...tea.Msg) Model {
	t.Helper()
	for _, msg := range msgs {
		d, _, _ = d.Update(msg)
	}
	return d.(Model)
}

// Lengths answering out of order are listed in order of length; until the person moves,
// the preferred length is selected as soon as it is there.
func TestExtendListStreamsInOrderAndSelectsThePreferred(t *testing.T) {
	d, one := streamDialog(t, 3)
	got := feed(t, d, one(5))
	if got.step != stepChoose || len(got.choices) != 1 {
		t.Fatalf("after the first length: step %v, %d choices", got.step, len(got.choices))
	}
	got = feed(t, got, one(2), one(3), one(1), one(3))
	if days := streamDays(got); len(days) != 4 || days[0] != 1 || days[1] != 2 || days[2] != 3 || days[3] != 5 {
		t.Fatalf("lengths listed %v, want [1 2 3 5] (a length answering twice listed once)", days)
	}
	if ch, _ := got.chosen(); ch.Days != 3 {
		t.Errorf("selected %s, want the preferred 3d", model.FormatDays(ch.Days))
	}
	if v := strings.Join(got.lines(120), "\n"); !strings.Contains(v, "Still asking AWS") || !strings.Contains(v, "4 lengths offered now") {
		t.Errorf("the list does not say it is still asking:\n%s", v)
	}
	// The whole answer ends the asking and keeps the selection.
	final := extChoicesMsg{dialog: got.ask, choices: got.choices, cmps: got.cmps}
	got = feed(t, got, final)
	if ch, _ := got.chosen(); got.asking || ch.Days != 3 || strings.Contains(strings.Join(got.lines(120), "\n"), "Still asking") {
		t.Errorf("after the whole answer: asking %v, selected %s", got.asking, model.FormatDays(ch.Days))
	}
}

// A length the person chose, in the list or shown for its dry run, stays chosen while
// shorter lengths answer.
func TestExtendListKeepsTheChoiceWhileLengthsArrive(t *testing.T) {
	d, one := streamDialog(t, 0)
	got := feed(t, d, one(4), one(6), press("down"))
	if ch, _ := got.chosen(); ch.Days != 6 {
		t.Fatalf("down selected %s, want 6d", model.FormatDays(ch.Days))
	}
	got = feed(t, got, one(1), one(2))
	if ch, _ := got.chosen(); ch.Days != 6 {
		t.Errorf("a shorter length answering moved the selection to %s", model.FormatDays(ch.Days))
	}

	d, one = streamDialog(t, 0)
	got = feed(t, d, one(4))
	got = feed(t, got, press("enter"))
	if got.step != stepChecking || got.off.DurationHours != 96 {
		t.Fatalf("enter: step %v, offering of %dh", got.step, got.off.DurationHours)
	}
	got = feed(t, got, one(1), extChoicesMsg{dialog: got.ask, choices: append([]model.ExtensionChoice{one(1).choice}, got.choices...),
		cmps: append([]pricing.Comparison{one(1).cmp}, got.cmps...)})
	if ch, _ := got.chosen(); ch.Days != 4 || got.addedLength() != "4d" || got.step != stepChecking {
		t.Errorf("while its dry run runs the chosen length became %s (Add %s, step %v)", model.FormatDays(ch.Days), got.addedLength(), got.step)
	}
	// An answer for an asking that was replaced answers no one.
	stale := one(7)
	stale.dialog = got.ask + 1000
	if after := feed(t, got, stale); len(after.choices) != len(got.choices) {
		t.Error("a stale answer was listed")
	}
}

// progressBackend answers ExtensionChoices as a paced source does: progress after the
// first length, one length offered, progress again, then the whole answer.
type progressBackend struct {
	source.Backend
	off model.ExtensionOffering
}

func (b progressBackend) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	hook := source.ExtensionProgressHook(ctx)
	if hook == nil {
		return nil, nil
	}
	hook(model.ExtensionProgress{Lengths: 19, Asked: 1, Left: 18, Wait: 80 * time.Second})
	ch := model.ExtensionChoice{Days: 1, Offering: b.off}
	found(ch)
	hook(model.ExtensionProgress{Lengths: 19, Asked: 2, Found: 1, Left: 17, Wait: 73 * time.Second})
	return []model.ExtensionChoice{ch}, nil
}

// While lengths are still being asked, the list says how far the asking is and how long
// the rest takes at AWS's pace, as the source reports it.
func TestExtendListSaysWhatIsLeft(t *testing.T) {
	d := confirmDialog(t)
	d.env.Backend = progressBackend{off: d.off}
	d.step, d.asking, d.choices, d.cmps, d.choice = stepLoading, true, nil, nil, 0
	msg := d.fetchChoices()()
	var seen []string
	for msg != nil {
		var cmd tea.Cmd
		var dd any
		dd, cmd, _ = d.Update(msg)
		d = dd.(Model)
		switch {
		case d.asking && d.step == stepChoose:
			seen = append(seen, d.askingLine())
		case d.step == stepLoading && d.progress.Lengths > 0:
			seen = append(seen, strings.Join(d.lines(200), " "))
		}
		if cmd == nil {
			break
		}
		msg = cmd()
	}
	want := "Still asking AWS: Asked 2 of 19 lengths (1 offered); 17 left, about 1m13s at AWS's pace."
	if len(seen) != 3 || !strings.Contains(seen[0], "none offered yet: Asked 1 of 19 lengths (0 offered); 18 left, about 1m20s at AWS's pace.") || seen[2] != want {
		t.Fatalf("the asking said %q, want first the wait before any length, then %q", seen, want)
	}
	if d.asking || len(d.choices) != 1 || strings.Contains(strings.Join(d.lines(120), "\n"), "Still asking") {
		t.Fatalf("after the whole answer: asking %v, %d choices", d.asking, len(d.choices))
	}
}

// The extend dialog compares the added hours alone, every one of them usable: its
// break-even is a share of the 24 added hours, not of the block.
func TestExtendBreakEvenSpeaksOfTheAddedHours(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	fee, _ := model.ParseMoney("1000.00") // 1 day of p5.48xlarge at $55.040/h costs $1,320.96 on-demand
	o := model.Offering{ID: "cbe-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		Count: 1, Start: start, End: start.Add(24 * time.Hour), DurationHours: 24, Fee: fee, Currency: "USD"}
	c := pricing.CompareExtension(nil, o)
	if !c.CanWin {
		t.Fatalf("the comparison %q cannot win; the test wants one that can", c.Reading())
	}
	got := breakEven(c)
	if !strings.HasPrefix(got, "the added hours are cheaper than on-demand if you use at least ") || !strings.Contains(got, "% of the 24 hours (") ||
		strings.Contains(got, "of the block") || !strings.Contains(got, " · on-demand $") {
		t.Errorf("the extension's break-even: %q", got)
	}
}
