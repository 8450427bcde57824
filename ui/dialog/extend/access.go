package extend

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// What the root and its tests read of the dialog, and the states they put it in without
// the backend's answers.

// Step is the part of the dialog that shows.
func (d Model) Step() Step { return d.step }

// Block is the block being extended.
func (d Model) Block() model.Block { return d.b }

// Offering is the extension offering shown for its dry run and word.
func (d Model) Offering() model.ExtensionOffering { return d.off }

// Comparison is the shown offering's against on-demand.
func (d Model) Comparison() pricing.Comparison { return d.cmp }

// Choice is the index of the selected length.
func (d Model) Choice() int { return d.choice }

// Status is the bought extension's payment, as last listed.
func (d Model) Status() model.ExtensionStatus { return d.status }

// Lines is the dialog's content at width w, without its frame.
func (d Model) Lines(w int) []string { return d.lines(w) }

// Machine is the dialog's spend machine as it is.
func (d Model) Machine() spend.Machine { return d.spend }

// Spend is the dialog's spend machine, to be changed in place.
func (d *Model) Spend() *spend.Machine { return &d.spend }

// Env is the dialog's environment, to be changed in place (its size, its cap).
func (d *Model) Env() *dialog.Env { return &d.env }

// Show puts the dialog at step with the lengths listed and the choice-th selected.
func (d *Model) Show(step Step, choices []model.ExtensionChoice, cmps []pricing.Comparison, choice int) {
	d.step, d.choices, d.cmps, d.choice = step, choices, cmps, choice
}

// SetStep moves the dialog to step, keeping the rest.
func (d *Model) SetStep(step Step) { d.step = step }

// ShowOffering is the offering shown for its dry run and word.
func (d *Model) ShowOffering(off model.ExtensionOffering) { d.off = off }

// ShowBought is the answer of the extension's purchase.
func (d *Model) ShowBought(res source.ExtendResult) { d.res = res }

// ShowPayment is the bought extension's payment as the block was last listed: after (or
// pollErr, when the look failed).
func (d *Model) ShowPayment(st model.ExtensionStatus, after model.Block, pollErr error) {
	d.status, d.after, d.found, d.pollErr = st, after, true, pollErr
}

// Listed is the message of every length answering: choices, each priced by cmps.
func (d Model) Listed(choices []model.ExtensionChoice, cmps []pricing.Comparison) tea.Msg {
	return extChoicesMsg{dialog: d.ask, choices: choices, cmps: cmps}
}

// Extended is the message of the extension's purchase answering res (or err).
func (d Model) Extended(res source.ExtendResult, err error) tea.Msg {
	return extendedMsg{dialog: d.id, res: res, err: err}
}
