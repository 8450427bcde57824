package model

import (
	"fmt"
	"time"
)

// Started reports whether o's start has passed at now: AWS sells an offering only until
// it starts, so one that has started cannot be bought.
func (o Offering) Started(now time.Time) bool { return !o.Start.After(now) }

// StartedSentence says why a started offering is not bought, with its start in UTC and
// loc (nil: UTC alone).
func (o Offering) StartedSentence(loc *time.Location) string {
	return fmt.Sprintf("Offering %s started at %s: AWS no longer sells it, and nothing was bought. Search again.", o.ID, BothTimes(o.Start, loc))
}
