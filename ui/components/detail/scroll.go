package detail

import (
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/theme"
)

// Page is one offering's detail laid out for a pane: every line of it, to be drawn from any
// of them. The scrolling is the pager's, which the blocks screen's detail shares.
type Page = pager.Page

// Scroll is how far the detail pane is scrolled: another offering's detail is shown from
// its top.
type Scroll = pager.Scroll

// KeyMap is the detail pane's keys for help: the tables' moving keys, which scroll it
// while it has the focus.
type KeyMap = pager.KeyMap

// NewPage lays out the offering's detail, with its comparison with on-demand when c is not
// nil, for a pane of width×height cells; blank lines go when it is too short for them.
func NewPage(th theme.Theme, o model.Offering, c *pricing.Comparison, q model.Query, now time.Time, loc *time.Location, readOnly bool, width, height int) Page {
	if width <= 0 || height <= 0 {
		return pager.New(th, o.ID, nil, width, height)
	}
	return pager.New(th, o.ID, content(th, o, c, q, now, loc, readOnly, width), width, height)
}

// NewKeyMap is the detail's keys made of nav, the tables' moving keys.
func NewKeyMap(nav table.Nav) KeyMap { return pager.NewKeyMap(nav) }
