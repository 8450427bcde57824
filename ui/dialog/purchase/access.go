package purchase

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// What the root and its tests read of the dialog, and the states they put it in without
// the backend's answers.

// Offering is what the dialog would buy.
func (d Model) Offering() model.Offering { return d.o }

// Comparison is the offering's prices beside on-demand's, whose break-even the facts show.
func (d Model) Comparison() pricing.Comparison { return d.cmp }

// Fits reports whether the whole confirmation shows in the dialog's box.
func (d Model) Fits() bool { return d.fits() }

// Lines is the dialog's content at width w, without its frame.
func (d Model) Lines(w int) []string { return d.lines(w) }

// Why is the dialog's own reason the purchase cannot be confirmed now, or "".
func (d Model) Why() string { return d.why() }

// Machine is the dialog's spend machine as it is: its dry run, word, call and outcome.
func (d Model) Machine() spend.Machine { return d.spend }

// Spend is the dialog's spend machine, to be changed in place.
func (d *Model) Spend() *spend.Machine { return &d.spend }

// TypeWord focuses the confirmation and types w in it.
func (d *Model) TypeWord(w string) {
	d.focus = pfConfirm
	d.spend.Field.SetValue(w)
}

// Answered is the message of the dialog's dry run answering p (or err) now.
func (d Model) Answered(p source.Permission, err error) tea.Msg {
	return dryRunMsg{dialog: d.id, check: d.spend.CheckID(), prep: source.Prepared{Intent: d.intent(), Permission: p}, err: err}
}
