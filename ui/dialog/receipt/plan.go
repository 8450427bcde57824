package receipt

import (
	"fmt"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
)

// planLines is the receipt of a training plan: its name and ARN, its status in SageMaker's
// words followed from Pending to Scheduled, each reserved capacity, and the fee.
func (r Model) planLines(w int) []string {
	th, b := r.env.Theme, r.block
	var out []string
	if r.res.Recovered {
		out = append(out, dialog.WrapStyled(th.OK.Bold(true), fmt.Sprintf("BOUGHT, once. The reply to the purchase was lost; the training plan %s was found by its name.",
			r.res.Block.ReservationID), w)...)
	} else {
		out = append(out, th.OK.Bold(true).Render("BOUGHT: the training plan is yours."))
	}
	out = append(out, dialog.SettledLines(th, r.res.Settled, r.res.NotRecorded(), w)...)
	state := r.stateWords(model.PlanStatus(b.State), b.State == model.StateFailed, "the plan will not start")
	rows := [][2]string{
		{"Plan", r.res.Block.ReservationID + " (its name is the purchase's request id)"},
		{"ARN", b.ARN},
		{"State", state},
		{"Region", b.Region},
		{"For", model.TargetsWords(b.Targets)},
	}
	for i, p := range b.Parts {
		rows = append(rows, [2]string{fmt.Sprintf("Part %d", i+1), p.Summary()})
	}
	rows = append(rows,
		[2]string{"Start", model.BothTimes(b.Start, r.env.Location)},
		[2]string{"End", model.BothTimes(b.End, r.env.Location)},
		[2]string{"Upfront fee", model.ExactFee(r.o.Fee, r.o.Currency)},
		[2]string{"Journal", r.journalPath() + " (the lines with request id " + r.res.RequestID + ")"},
	)
	out = append(out, dialog.FieldLines(th, rows, w)...)
	out = append(out, th.Muted.Render("y copies the plan's ARN · the reservations screen (2) shows how to use it · esc closes"))
	if r.note != "" {
		out = append(out, th.Accent.Render(r.note))
	}
	return out
}
