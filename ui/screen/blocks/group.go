package blocks

import (
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// groupFacts are the detail's line of a reservation that one purchase made with others
// (one per segment of a segmented offering): its place among them and their ids.
func (m Model) groupFacts(b model.Block) []model.Fact {
	g := model.Group(m.list, b)
	if len(g) < 2 {
		return nil
	}
	return []model.Fact{{Label: "Purchase", Value: fmt.Sprintf("%s reservations bought together, one per segment: %s",
		model.GroupMark(m.list, b), strings.Join(strings.Split(model.GroupIDs(g), ","), ", "))}}
}
