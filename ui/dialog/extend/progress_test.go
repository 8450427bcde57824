package extend

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

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
