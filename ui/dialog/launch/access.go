package launch

import (
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// What the root and its tests read of the form, and the states they put it in without
// the backend's answers.

// Armed: the launch waits for the block's start.
func (d Model) Armed() bool { return d.waiting }

// Fits reports whether the whole form shows in the dialog's box.
func (d Model) Fits() bool { return d.fits() }

// Free is how many instances the form may ask for.
func (d Model) Free() int { return d.free() }

// Lines is the form's content at width w, without its frame.
func (d Model) Lines(w int) []string { return d.lines(w) }

// Word is what is typed in the confirmation.
func (d Model) Word() string { return d.spend.Typed() }

// Spend is the form's spend machine: its dry run, launch in flight and outcome.
func (d *Model) Spend() *spend.Machine { return &d.spend }

// TypeWord focuses the confirmation and types w in it.
func (d *Model) TypeWord(w string) {
	d.focus = lfConfirm
	d.spend.Field.SetValue(w)
}

// ShowSubnets lists the zone's subnets under the form without filling its subnet field.
func (d *Model) ShowSubnets(s []source.Subnet) { d.subnetsIn, d.subnets = true, s }

// Arm arms the launch, as typing launch on a scheduled block's form does.
func (d *Model) Arm() { d.waiting = true }

// ShowLaunched is the form after the launch answered res.
func (d *Model) ShowLaunched(res source.LaunchResult) {
	d.result, d.instances = &res, res.Instances
}
