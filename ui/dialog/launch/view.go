package launch

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/screen"
)

func (d Model) lines(w int) []string {
	th, b := d.env.Theme, d.block
	var out []string
	if d.env.Simulated {
		out = append(out, th.Simulated.Render("SIMULATED")+" "+th.Warning.Render("the emulator: nothing real starts"))
	} else {
		out = append(out, th.Live.Render("LIVE — REAL INSTANCES")+" "+th.Error.Render("this starts real instances in the block"))
	}
	note := ""
	if d.notYet() {
		note = "starts in " + model.PreciseSpan(b.Start.Sub(d.env.Now()))
	}
	// The block's labels are as wide as the form's below (16 and a space), so every value
	// starts in one column.
	facts := model.LaunchFacts(b, d.env.Account(), note, d.env.Location)
	if d.group != nil {
		facts.Lines = append(facts.Lines, model.Fact{Label: "Purchase", Value: fmt.Sprintf("%s reservations bought together: %s",
			model.GroupMark(d.group, b), groupWords(d.group))})
	}
	for i := range facts.Lines {
		facts.Lines[i].Label = fmt.Sprintf("%-*s", launchLabelWidth, facts.Lines[i].Label)
	}
	for _, l := range dialog.FieldLines(th, dialog.FactRows(facts.Lines), w-2) {
		out = append(out, "  "+l)
	}
	for f := lfAMI; f <= lfAcross; f++ {
		mark, ls := "  ", th.Label
		if d.focus == f {
			mark, ls = "▸ ", th.Focused
		}
		head := mark + ls.Render(fmt.Sprintf("%-16s", launchLabels[f])) + " "
		switch {
		case f == lfAcross && d.group == nil:
		case f == lfAcross:
			out = append(out, d.acrossLines(head, w)...)
		case f == lfSubnet && d.across:
			out = append(out, head+th.Muted.Render("each reservation in its own zone's default subnet"))
		default:
			out = append(out, head+d.fields[f].View(max(4, w-19), d.focus == f, th.Value, th.Cursor, th.Muted))
		}
		if f == lfSubnet && !d.across {
			out = append(out, d.subnetLines(w)...)
		}
	}
	for _, l := range d.statusLines(w - 2) {
		if !strings.HasPrefix(l, "▸ ") && !strings.HasPrefix(l, "  ") {
			l = "  " + l
		}
		out = append(out, l)
	}
	return out
}

// groupWords names a group's reservations with their zones: "cr-a (us-east-1a), cr-b (us-east-1b)".
func groupWords(group []model.Block) string {
	out := make([]string, len(group))
	for i, b := range group {
		out[i] = b.ReservationID + " (" + b.AvailabilityZone + ")"
	}
	return strings.Join(out, ", ")
}

// acrossLines are the choice of reservations: the block alone, or all its purchase's
// with each one's share of the count, or why the count cannot be shared.
func (d Model) acrossLines(head string, w int) []string {
	th := d.env.Theme
	pad := strings.Repeat(" ", 19)
	if !d.across {
		out := []string{head + th.Value.Render(d.block.ReservationID+" only")}
		for _, l := range dialog.WrapStyled(th.Muted, fmt.Sprintf("↑/↓: all %d reservations of its purchase, as `gpublock launch --group`", len(d.group)), w-19) {
			out = append(out, pad+l)
		}
		return out
	}
	out := []string{head + th.Value.Render(fmt.Sprintf("all %d reservations of its purchase", len(d.group)))}
	n, _ := strconv.Atoi(strings.TrimSpace(d.fields[lfCount].Value()))
	shares, err := model.GroupLaunch(d.group, n)
	text, style := "", th.Value
	if err != nil {
		text, style = "✗ "+err.Error(), th.Error
	} else {
		text = model.ShareWords(shares)
	}
	for _, l := range dialog.WrapStyled(style, text, w-19) {
		out = append(out, pad+l)
	}
	return out
}

func (d Model) subnetLines(w int) []string {
	th := d.env.Theme
	switch {
	case !d.subnetsIn:
		return nil
	case d.subnetErr != nil:
		return dialog.WrapStyled(th.Warning, "   Could not list the subnets: "+d.subnetErr.Error(), w)
	case len(d.subnets) == 0:
		return dialog.WrapStyled(th.Warning, "   No subnet in "+d.block.AvailabilityZone+": create one there first.", w)
	}
	var names []string
	for _, s := range d.subnets {
		n := s.ID
		if s.Default {
			n += " (default)"
		}
		names = append(names, n)
	}
	var out []string
	for _, l := range dialog.WrapStyled(th.Muted, "in "+d.block.AvailabilityZone+": "+strings.Join(names, ", ")+" · ↑/↓ picks", w-19) {
		out = append(out, strings.Repeat(" ", 19)+l)
	}
	return out
}

func (d Model) statusLines(w int) []string {
	th := d.env.Theme
	var out []string
	switch {
	case d.failure() != nil && d.spend.Outcome() == spend.Unknown:
		return append(d.beforeLines(w), dialog.WrapStyled(th.Error, "OUTCOME UNKNOWN"+d.into()+" — do not launch again before checking the block. "+d.failure().Error()+" esc closes.", w)...)
	case d.failure() != nil && d.notYet():
		return dialog.WrapStyled(th.Error, "NOT ATTACHED: "+d.failure().Error()+" Nothing will be launched. esc closes.", w)
	case d.failure() != nil:
		return append(d.beforeLines(w), dialog.WrapStyled(th.Error, "NOT LAUNCHED"+d.into()+": "+d.failure().Error()+" esc closes.", w)...)
	case d.attached != nil && d.across:
		var what []string
		for _, l := range d.attachedAll {
			what = append(what, fmt.Sprintf("%d into %s", l.Spec.Count, l.ReservationID))
		}
		out = append(out, dialog.WrapStyled(th.OK.Bold(true), fmt.Sprintf("ATTACHED across %d reservations: %s from %s, each launched when its reservation starts.",
			len(d.attachedAll), strings.Join(what, ", "), d.attached.Spec.ImageID), w)...)
		out = append(out, dialog.WrapStyled(th.Value, "This TUI while it is open, or any `gpublock blocks` (or `blocks --watch`) on this machine, launches each once when its reservation starts; nothing runs them while none is open.", w)...)
		out = append(out, d.paymentLines(w)...)
		out = append(out, dialog.WrapStyled(th.Muted, "`gpublock launch --pending` lists them; `gpublock launch --cancel cr-…` cancels one. esc closes.", w)...)
	case d.attached != nil:
		l := d.attached
		out = append(out, dialog.WrapStyled(th.OK.Bold(true), fmt.Sprintf("ATTACHED to %s: %s from %s launch when the block starts, %s.",
			l.ReservationID, screen.Plural(l.Spec.Count, "instance"), l.Spec.ImageID, model.BothTimes(d.block.Start, d.env.Location)), w)...)
		out = append(out, dialog.WrapStyled(th.Value, "This TUI while it is open, or any `gpublock blocks` (or `blocks --watch`) on this machine, launches it once when the block starts; nothing runs it while none is open.", w)...)
		out = append(out, d.paymentLines(w)...)
		out = append(out, dialog.WrapStyled(th.Muted, "`gpublock launch --pending` lists it; `gpublock launch --cancel "+l.ReservationID+"` cancels it. esc closes.", w)...)
	case d.result != nil && d.across:
		out = append(out, th.OK.Bold(true).Render(fmt.Sprintf("LAUNCHED %s across %d reservations, each in its zone's default subnet:", screen.Plural(len(d.instances), "instance"), len(d.group))))
		for _, i := range d.instances {
			out = append(out, "  "+th.Value.Render(i.ID)+"  "+th.Accent.Render(i.State)+"  "+th.Muted.Render(i.ReservationID))
		}
		out = append(out, th.Muted.Render("y copies the instance ids · esc closes"))
	case d.result != nil:
		out = append(out, th.OK.Bold(true).Render(fmt.Sprintf("LAUNCHED %s into %s (subnet %s):", screen.Plural(len(d.instances), "instance"), d.block.ReservationID, d.result.SubnetID)))
		for _, i := range d.instances {
			out = append(out, "  "+th.Value.Render(i.ID)+"  "+th.Accent.Render(i.State))
		}
		out = append(out, th.Muted.Render("y copies the instance ids · esc closes"))
	case d.spend.Busy() && d.notYet() && d.across:
		out = append(out, th.Accent.Render("Attaching the launch to each reservation's start…"))
	case d.spend.Busy() && d.notYet():
		out = append(out, th.Accent.Render("Attaching the launch to the block's start…"))
	case d.spend.Busy() && d.across:
		out = append(out, th.Accent.Render("Launching into each reservation in turn… checking (dry run), then RunInstances."))
	case d.spend.Busy():
		out = append(out, th.Accent.Render("Launching… checking (dry run), then RunInstances."))
	default:
		out = append(out, d.checkLines(w)...)
		word := "Type launch and press enter; esc or q cancels: "
		if d.notYet() {
			out = append(out, dialog.WrapStyled(th.Muted, "It is attached to the block and launched once when the block starts, by this TUI or any `gpublock blocks` watching on this machine, even after this TUI is closed.", w)...)
			out = append(out, d.paymentLines(w)...)
			word = "Type launch and press enter to launch at the start; esc cancels: "
		}
		mark := "  "
		if d.focus == lfConfirm {
			mark = "▸ "
		}
		out = append(out, mark+th.Focused.Render(word)+d.spend.Field.View(10, d.focus == lfConfirm, th.Value, th.Cursor, th.Muted))
	}
	if d.spend.Note != "" {
		out = append(out, dialog.WrapStyled(th.Warning, d.spend.Note, w)...)
	}
	return out
}

// into names, across a group, the reservation whose launch failed.
func (d Model) into() string {
	if !d.across || d.failedInto == "" {
		return ""
	}
	return " into " + d.failedInto
}

// beforeLines say, across a group, what was launched before a failure stopped the rest.
func (d Model) beforeLines(w int) []string {
	if len(d.before.Instances) == 0 {
		return nil
	}
	th := d.env.Theme
	out := dialog.WrapStyled(th.Warning, fmt.Sprintf("LAUNCHED before this failure: %s.", screen.Plural(len(d.before.Instances), "instance")), w)
	for _, i := range d.before.Instances {
		out = append(out, "  "+th.Value.Render(i.ID)+"  "+th.Muted.Render(i.ReservationID))
	}
	return out
}

// paymentLines say, on a block whose payment is still being collected, what becomes of
// the launch if the payment fails.
func (d Model) paymentLines(w int) []string {
	if d.block.State != model.StatePaymentPending {
		return nil
	}
	return dialog.WrapStyled(d.env.Theme.Warning, "Its payment is still being collected: a block whose payment fails never starts, and the launch is then cancelled.", w)
}

// launchLabelWidth is the width of the block's labels; with their two spaces they are as
// wide as the form's (16 and a space after the focus mark), so every value starts in one
// column, the dry run's answer too.
const launchLabelWidth = 15

func (d Model) checkLines(w int) []string {
	th := d.env.Theme
	// The answer is a field of the form, in the column of the values above it, as in the
	// purchase dialog.
	line := func(style lipgloss.Style, answer string) []string {
		return dialog.DryRunLines(style, launchLabelWidth, answer, w)
	}
	if d.notYet() {
		if _, err := d.spec(); err != nil {
			return line(th.Error, "✗ "+err.Error())
		}
		return line(th.Muted, "⋯ at the start: AWS checks a launch only into an active block.")
	}
	switch {
	case d.checkVer != d.version:
		return line(th.Muted, "⋯ tab to the confirmation or press enter to check this form.")
	case d.spend.Phase() == spend.Checking:
		return line(th.Muted, "⋯ checking the form with AWS (CheckLaunch)…")
	case d.spend.PermErr != nil:
		return line(th.Error, "✗ "+d.spend.PermErr.Error())
	case !d.spend.Perm.Allowed:
		return line(th.Error, "✗ NOT ALLOWED: this identity lacks "+d.spend.Perm.Action+".")
	}
	return line(th.OK, "✓ allowed ("+d.spend.Perm.Action+")")
}

// fits reports whether the whole form shows in the dialog's box.
func (d Model) fits() bool {
	if d.env.Size.W == 0 {
		return true // never drawn yet (a test driving Update alone)
	}
	r := dialog.BoxRect(d.env.Size.W, d.env.Size.H, 0)
	return len(d.lines(r.W-2))+2 <= d.env.Size.H
}

func (d Model) View(width, height int) string {
	w := min(width, dialog.MaxWidth)
	lines := d.lines(w - 2)
	if len(lines)+2 > height {
		lines = append(lines[:max(0, height-3)], d.env.Theme.Warning.Render("Too small to show everything: make the terminal taller."))
	}
	r := dialog.BoxRect(width, height, len(lines))
	return dialog.Place(dialog.ModeFrame(d.env.Theme, d.env.Simulated, "Launch into a block", strings.Join(lines, "\n"), r), width)
}
