package purchase

import (
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
)

// planLines is the purchase dialog of a training plan: the same facts as a block's (account,
// region, what it is for, each reserved capacity with its zone and window, the total fee),
// no platform, and in place of the dry run the plain fact that there is none. out holds the
// mode's first line.
func (d Model) planLines(w int, out []string) []string {
	facts := model.PlanFacts(d.o, d.env.Account(), d.cmp.BreakEven(), d.env.Location)
	for _, l := range dialog.FieldLinesAt(d.env.Theme, dialog.FactRows(facts.Lines), purchaseLabelWidth, w-2) {
		out = append(out, "  "+l)
	}
	return append(out, d.tailLines(facts.Final, w)...)
}
