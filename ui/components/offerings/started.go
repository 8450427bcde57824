package offerings

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// DropStarted removes the offerings whose start is not after now: AWS sells none of them
// any more. The cursor stays on its offering while it is listed; it reports how many went.
func (m *Model) DropStarted(now time.Time) int {
	var keep []row
	gone := 0
	for r := range m.t.All() {
		if r.o.Started(now) {
			gone++
			continue
		}
		keep = append(keep, *r)
	}
	if gone == 0 {
		return 0
	}
	m.t.Set(keep)
	m.plans = 0
	for _, r := range keep {
		if r.o.Source == model.SourceTrainingPlan {
			m.plans++
		}
	}
	m.columnsFollowRows()
	return gone
}
