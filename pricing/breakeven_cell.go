package pricing

// BreakEvenCell is the break-even in a table cell: the utilization in whole percent rounded
// up, "never" when the block cannot cost less than on-demand (above 100%, or in the last 30
// minutes, when instances are already gone), "—" without an on-demand price.
func (c Comparison) BreakEvenCell() string {
	switch {
	case c.NoOnDemand, !c.BreakEvenUtilization.Valid():
		return "—"
	case !c.CanWin:
		return "never"
	}
	return c.BreakEvenPercentText()
}
