package ui

import (
	"fmt"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// reservationsWords are the screen's title and its count of what is listed: "Capacity
// Blocks" and "2 blocks" while it holds only blocks, "Reservations" and "1 block and 1
// training plan" once it holds a plan.
func reservationsWords(list []model.Block) (title, count string) {
	plans := 0
	for _, b := range list {
		if b.Source == model.SourceTrainingPlan {
			plans++
		}
	}
	if plans == 0 {
		return "Capacity Blocks", plural(len(list), "block")
	}
	return "Reservations", fmt.Sprintf("%s and %s", plural(len(list)-plans, "block"), plural(plans, "training plan"))
}

// extensionBreakEven is an extension's break-even; a plan's is against SageMaker's own
// on-demand rate, and without one it says so rather than take EC2's.
func extensionBreakEven(b model.Block, c pricing.Comparison) string {
	return model.ExtensionBreakEven(b, c.BreakEven())
}
