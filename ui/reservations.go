package ui

import (
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/detail"
)

// extensionBreakEven is an extension's break-even; a plan's is against SageMaker's own
// on-demand rate, and without one it says so rather than take EC2's.
func extensionBreakEven(b model.Block, c pricing.Comparison) string {
	if b.Source == model.SourceTrainingPlan && c.NoOnDemand {
		return detail.NoSageMakerPrice(b.InstanceType)
	}
	return breakEven(c)
}
