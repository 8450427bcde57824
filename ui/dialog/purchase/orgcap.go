package purchase

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/theme"
)

// orgCount is what the organization's Capacity Blocks hold against AWS's cap, as the
// dialog learnt it: asked when it opens, for a Capacity Block, with Env.Organization.
type orgCount struct {
	asked, known bool
	note         string // model.CapNote's: the warning, or what is held and added
	passes       bool   // the purchase would pass the cap on a date of its window
	why          string // what could not be listed, or why nothing could
	// within: the note within the cap is drawn (when the dialog has room for it).
	within bool
}

// roomy: there is a note within the cap, which is drawn only where it fits.
func (c orgCount) roomy() bool { return c.known && !c.passes && c.note != "" }

// countingWhy is why the word is not taken while the organization's blocks are counted.
const countingWhy = "The organization's Capacity Blocks are being counted against AWS's cap; wait for the count."

// orgMsg is the organization's listing.
type orgMsg struct {
	dialog int64
	list   source.BlockList
	err    error
}

// pending: the count was asked and has not answered; the word is not taken meanwhile, so
// that a warning is never drawn after the purchase was agreed.
func (c orgCount) pending() bool { return c.asked && !c.known }

// countOrganization lists every account's blocks, when the dialog counts them.
func (d *Model) countOrganization() tea.Cmd {
	if !d.env.Organization || d.o.Source != model.SourceCapacityBlock || d.env.Backend == nil {
		return nil
	}
	d.org.asked = true
	id, b, ctx := d.id, d.env.Backend, d.env.CallCtx()
	return func() tea.Msg {
		list, err := b.Blocks(ctx, model.Regions())
		return orgMsg{dialog: id, list: list, err: err}
	}
}

func (c orgCount) answer(msg orgMsg, o model.Offering, partial bool) orgCount {
	c.known = true
	if msg.err != nil && len(msg.list.Blocks) == 0 {
		c.why = "the organization's blocks could not be listed, so its cap of " + strconv.Itoa(model.MaxOrganizationInstances) + " instances is not checked: " + source.RedactError(msg.err)
		return c
	}
	c.note, c.passes = model.CapNote(model.InstancesHeld(msg.list.Blocks), o)
	if partial {
		c.why = "the figures may be low: only the accounts listed are counted, not every one of the organization's"
	}
	if len(msg.list.Problems) > 0 {
		c.why = "the figures may be low: " + msg.list.Problems[0].Message
		if n := len(msg.list.Problems) - 1; n > 0 {
			c.why += " (and " + otherProblems(n) + ")"
		}
	}
	return c
}

func otherProblems(n int) string {
	if n == 1 {
		return "1 other problem"
	}
	return strconv.Itoa(n) + " other problems"
}

// lines are the count in the dialog: the warning, prominent, above the dry run and the word.
func (c orgCount) lines(th theme.Theme, w int) []string {
	var out []string
	switch {
	case !c.known:
		return nil // the prompt's line says it counts
	case c.passes:
		out = dialog.WrapStyled(th.Error.Bold(true), "⚠ "+c.note, w)
	case c.within:
		out = dialog.WrapStyled(th.Muted, "Organization: "+c.note+".", w)
	}
	if c.why != "" {
		out = append(out, dialog.WrapStyled(th.Warning, "Organization: "+c.why, w)...)
	}
	return out
}
