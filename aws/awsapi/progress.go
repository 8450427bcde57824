package awsapi

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// progressOf is a region's progress at now: done and left calls, and, when the region is
// paced (rate > 0), its bucket then; model.RegionProgress.Pace reads the wait and the end.
func progressOf(region string, done, left int, tokens, rate float64, now time.Time) model.RegionProgress {
	p := model.RegionProgress{Region: region, Done: done, Left: left, At: now}
	if rate > 0 {
		p.Tokens, p.Rate = tokens, rate
	}
	return p
}

// state is the bucket's tokens now and its rate in force.
func (p *pacer) state() (tokens, rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refillLocked(p.now())
	return p.tokens, p.rate
}
