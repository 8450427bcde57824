package ui

import (
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// extensionBreakEven is an extension's break-even; a plan's is against SageMaker's own
// on-demand rate, and without one it says so rather than take EC2's.
func extensionBreakEven(b model.Block, c pricing.Comparison) string {
	return model.ExtensionBreakEven(b, c.BreakEven())
}
