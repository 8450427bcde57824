package simcore

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// PriceDrop makes every market of an emulator cheaper, step by step, as its clock moves on
// from when the drop starts (when the emulator is made, or when asked): cheaper capacity released a little at a time, so that an
// order placed a little under the best price of the moment is filled while people watch (the
// demo's market). Off (nil) unless asked: AWS's market has no such schedule.
type PriceDrop struct {
	Every time.Duration // a step this often, the first one Every after the drop starts
	Step  int           // basis points of the published rate each step takes off every price
	Steps int           // the most steps; the prices stay there after the last one
	// WhenAsked keeps the market as it is until POST /_sim/price-drop (Core.StartPriceDrop)
	// starts the drop: the demo's starts when a watcher first sees an open order, so that
	// the demo's offerings keep their ids (and a purchase its offering) until then.
	WhenAsked bool
}

// DemoPriceDrop is the demo's market: 4% of the published rate off every price each minute,
// for 10 minutes once asked: an order 5% under the best price of the moment fills after two
// steps.
var DemoPriceDrop = PriceDrop{Every: time.Minute, Step: 400, Steps: 10, WhenAsked: true}

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
// now (Options.PriceDrop; 0 when none, or not yet started).
func (c *Core) PriceDrop(now time.Time) int {
	c.dropMu.Lock()
	opened := c.opened
	c.dropMu.Unlock()
	if opened.IsZero() {
		return 0
	}
	return c.opts.PriceDrop.at(opened, now)
}

// StartPriceDrop starts a price drop that waits to be asked (PriceDrop.WhenAsked), from the
// clock's now; false when the emulator has none. A drop already started goes on.
func (c *Core) StartPriceDrop() bool {
	if c.opts.PriceDrop == nil {
		return false
	}
	c.dropMu.Lock()
	defer c.dropMu.Unlock()
	if c.opened.IsZero() {
		c.opened = dropStart(c.clock.Now())
	}
	return true
}

// dropStart is where a drop started at now counts its steps from: the minute, as the
// markets read their clock (EC2's answers are computed at the minute), so that a step is
// seen in the first answer of the minute it falls in.
func dropStart(now time.Time) time.Time { return now.Truncate(time.Minute) }

// servePriceDrop is POST /_sim/price-drop: start the price drop, and say since when.
func (c *Core) servePriceDrop(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "use POST", http.StatusMethodNotAllowed)
		return
	}
	if !c.StartPriceDrop() {
		http.Error(w, "this emulator has no price drop (gpublock sim --price-drop)", http.StatusConflict)
		return
	}
	c.dropMu.Lock()
	opened := c.opened
	c.dropMu.Unlock()
	io.WriteString(w, "started "+opened.Format(time.RFC3339)+"\n")
}
