package model

import (
	"fmt"
	"time"
)

// ExtensionProgress is how far a search of every extension length has come: of Lengths,
// Asked have answered (Found with an offering), Skipped were not asked (a shorter one has
// none, or AWS refused the block), Left are still to ask, which AWS's request bucket makes
// take about Wait.
type ExtensionProgress struct {
	Lengths, Asked, Found, Skipped, Left int
	Wait                                 time.Duration
}

// Sentence reads "Asked 4 of 19 lengths (2 offered, 3 not asked); 12 left, about 1m20s at
// AWS's pace.": the command line's progress line and the extend dialog's.
func (p ExtensionProgress) Sentence() string {
	s := fmt.Sprintf("Asked %d of %d lengths (%d offered", p.Asked, p.Lengths, p.Found)
	if p.Skipped > 0 {
		s += fmt.Sprintf(", %d not asked", p.Skipped)
	}
	s += ")"
	switch {
	case p.Left == 0:
		return s + "; done."
	case p.Wait >= time.Second:
		return fmt.Sprintf("%s; %d left, about %s at AWS's pace.", s, p.Left, p.Wait.Round(time.Second))
	}
	return fmt.Sprintf("%s; %d left.", s, p.Left)
}
