package awsapi

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// progressOf is the one rule of a region's progress: done and left calls, and, when the
// region is paced (rate > 0), the wait until the bucket's next token and the end of the
// calls left: the tokens in hand go at once, every further call one refill later. Calls in
// flight count as left (their token is already spent), so the estimate errs long.
func progressOf(region string, done, left int, tokens, rate float64, now time.Time) model.RegionProgress {
	p := model.RegionProgress{Region: region, Done: done, Left: left}
	if rate <= 0 || left <= 0 {
		return p
	}
	if tokens < 1 {
		p.Wait = time.Duration((1 - tokens) / rate * float64(time.Second))
	}
	p.End = now.Add(time.Duration(max(float64(left)-max(tokens, 0), 0) / rate * float64(time.Second)))
	return p
}

// state is the bucket's tokens now and its rate in force.
func (p *pacer) state() (tokens, rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refillLocked(p.now())
	return p.tokens, p.rate
}
