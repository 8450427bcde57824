package simcore

import (
	"fmt"
	"time"
)

// PriceDrop makes every market of an emulator cheaper, step by step, as its clock moves on
// from when the emulator was made: cheaper capacity released a little at a time, so that an
// order placed a little under the best price of the moment is filled while people watch (the
// demo's market). Off (nil) unless asked: AWS's market has no such schedule.
type PriceDrop struct {
	Every time.Duration // a step this often, the first one Every after the emulator was made
	Step  int           // basis points of the published rate each step takes off every price
	Steps int           // the most steps; the prices stay there after the last one
}

// DemoPriceDrop is the demo's market: 3% of the published rate off every price each minute,
// for the first 12 minutes: an order 5% under the best price of the moment fills within two
// or three minutes.
var DemoPriceDrop = PriceDrop{Every: time.Minute, Step: 300, Steps: 12}

// check refuses a drop that stands still or would price capacity at nothing.
func (p *PriceDrop) check() error {
	if p == nil {
		return nil
	}
	if p.Every <= 0 || p.Step <= 0 || p.Steps <= 0 {
		return fmt.Errorf("price drop %+v: the interval, the step and the number of steps must be positive", *p)
	}
	if p.Step*p.Steps > 5000 {
		return fmt.Errorf("price drop %+v: at most 50%% of the rate (5000 basis points) in all", *p)
	}
	return nil
}

// at is the basis points taken off every price at now, the market having opened at opened.
func (p *PriceDrop) at(opened, now time.Time) int {
	if p == nil || !now.After(opened) {
		return 0
	}
	return p.Step * int(min(int64(now.Sub(opened)/p.Every), int64(p.Steps)))
}

// PriceDrop is the basis points of the published rate the markets take off every price at
// now (Options.PriceDrop; 0 when none).
func (c *Core) PriceDrop(now time.Time) int { return c.opts.PriceDrop.at(c.opened, now) }
