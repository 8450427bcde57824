package advisor

import (
	"fmt"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/model"
)

// calDays is how far the calendar looks: AWS sells blocks starting up to 8 weeks ahead.
const calDays = 56

// calCursor is the calendar's cell under the cursor: a day from today and a region's row.
type calCursor struct{ day, row int }

// calCell is the cheapest offering starting on a day in a region.
type calCell struct {
	offering model.Offering
	ok       bool
}

// calendar groups the search's offerings by region and UTC start day, keeping each day's
// cheapest per accelerator-hour.
func (m Model) calendar() (regions []string, days time.Time, cells map[string][]calCell) {
	start := m.pc.Now().UTC().Truncate(24 * time.Hour)
	regions = append(regions, m.job.Regions...)
	sort.Strings(regions)
	cells = map[string][]calCell{}
	for _, r := range regions {
		cells[r] = make([]calCell, calDays)
	}
	for _, o := range m.offers {
		row, ok := cells[o.Offering.Region]
		d := int(o.Offering.Start.UTC().Sub(start) / (24 * time.Hour))
		if !ok || d < 0 || d >= calDays {
			continue
		}
		c := row[d]
		if !c.ok || o.Offering.AcceleratorHourlyRate().Cmp(c.offering.AcceleratorHourlyRate()) < 0 {
			row[d] = calCell{o.Offering, true}
		}
	}
	return regions, start, cells
}

// shades are the levels of the scale from cheapest to dearest, readable without colour.
var shades = []rune{'░', '▒', '▓', '█'}

// level places a rate on the scale between the grid's cheapest and dearest.
func level(rate, lo, hi model.Money) int {
	if hi.Cmp(lo) <= 0 {
		return 0
	}
	n := int64(len(shades))
	l := (rate.Sub(lo).Micros() * n) / (hi.Sub(lo).Micros() + 1)
	return int(min(max(l, 0), n-1))
}

func (m Model) levelStyles() []lipgloss.Style {
	th := m.pc.Theme
	return []lipgloss.Style{th.OK, th.Accent, th.Warning, th.Error}
}

func (m Model) calendarLines(width, height int) []string {
	th := m.pc.Theme
	regions, start, cells := m.calendar()
	if len(regions) == 0 {
		return []string{th.Muted.Render("no regions to show")}
	}
	lo, hi, any := model.Money{}, model.Money{}, false
	for _, r := range regions {
		for _, c := range cells[r] {
			if !c.ok {
				continue
			}
			rate := c.offering.AcceleratorHourlyRate()
			if !any || rate.Cmp(lo) < 0 {
				lo = rate
			}
			if !any || rate.Cmp(hi) > 0 {
				hi = rate
			}
			any = true
		}
	}
	if th.Accessible {
		return m.calendarSentences(regions, start, cells, width, height)
	}
	labelW := 15
	cellW := 1
	if width >= labelW+calDays*2 {
		cellW = 2
	}
	days := min(calDays, (width-labelW)/cellW)
	var out []string
	// the date of each Monday, or of every 7th day
	head := []rune(strings.Repeat(" ", labelW+days*cellW))
	for d := 0; d < days; d++ {
		t := start.AddDate(0, 0, d)
		if t.Weekday() == time.Monday {
			s := []rune(t.Format("Jan 2"))
			at := labelW + d*cellW
			if at+len(s) <= len(head) {
				copy(head[at:], s)
			}
		}
	}
	out = append(out, th.Muted.Render(string(head)))
	styles := m.levelStyles()
	cur := m.cal
	maxRows := max(1, height-4)
	for ri, r := range regions {
		if ri >= maxRows {
			out = append(out, th.Muted.Render(fmt.Sprintf("… %d more regions", len(regions)-ri)))
			break
		}
		var b strings.Builder
		b.WriteString(fmt.Sprintf("%-*s", labelW, r))
		for d := 0; d < days; d++ {
			day := start.AddDate(0, 0, d)
			c := cells[r][d]
			var s string
			var st lipgloss.Style
			switch {
			case c.ok:
				lv := level(c.offering.AcceleratorHourlyRate(), lo, hi)
				s, st = strings.Repeat(string(shades[lv]), cellW), styles[lv]
			case day.Before(m.job.WindowStart.UTC().Truncate(24*time.Hour)) || !day.Before(m.job.WindowEnd.UTC()):
				s, st = strings.Repeat(" ", cellW), th.Muted // outside the job's window: not searched
			default:
				s, st = strings.Repeat("·", cellW), th.Muted // searched, nothing on offer
			}
			if ri == cur.row && d == cur.day {
				st = th.Selected
				if !c.ok {
					s = strings.Repeat("□", cellW)
				}
			}
			b.WriteString(st.Render(s))
		}
		out = append(out, b.String())
	}
	legend := fmt.Sprintf("%c cheapest … %c dearest $/accelerator-hour", shades[0], shades[len(shades)-1])
	if any {
		legend = fmt.Sprintf("%c %s … %c %s per accelerator-hour", shades[0], lo.Rate(), shades[len(shades)-1], hi.Rate())
	}
	out = append(out, th.Muted.Render(legend+" · · nothing on offer · blank: outside the window"))
	out = append(out, m.calCellText(regions, start, cells))
	return out
}

// calendarSentences is the calendar of the accessible mode: a sentence a region (how many
// days have an offering, and the cheapest), then the day under the cursor.
func (m Model) calendarSentences(regions []string, start time.Time, cells map[string][]calCell, width, height int) []string {
	var out []string
	for ri, r := range regions {
		if ri >= max(1, height-2) {
			out = append(out, fmt.Sprintf("and %d more regions", len(regions)-ri))
			break
		}
		n, best := 0, -1
		for d, c := range cells[r] {
			if !c.ok {
				continue
			}
			n++
			if best < 0 || c.offering.AcceleratorHourlyRate().Cmp(cells[r][best].offering.AcceleratorHourlyRate()) < 0 {
				best = d
			}
		}
		if n == 0 {
			out = append(out, fmt.Sprintf("%s: no offering on any day", r))
			continue
		}
		o := cells[r][best].offering
		out = append(out, wrap(fmt.Sprintf("%s: offerings on %d days; cheapest starts %s, %s per accelerator-hour, upfront fee %s",
			r, n, start.AddDate(0, 0, best).Format(model.LayoutWeekdayDay), o.AcceleratorHourlyRate().Rate(), o.Fee.Dollars()), width)...)
	}
	return append(out, wrap("Day under the cursor: "+m.calCellText(regions, start, cells), width)...)
}

func (m Model) calCellText(regions []string, start time.Time, cells map[string][]calCell) string {
	cur := m.cal
	if cur.row >= len(regions) {
		return ""
	}
	r := regions[cur.row]
	day := start.AddDate(0, 0, cur.day)
	c := cells[r][cur.day]
	if !c.ok {
		return m.pc.Theme.Muted.Render(fmt.Sprintf("%s %s: no offering starts that day", r, day.Format(model.LayoutWeekdayDay)))
	}
	o := c.offering
	at := o.Start.UTC().Format(model.LayoutClockUTC)
	if model.LocalDiffers(o.Start, m.pc.Location) {
		at += " (" + o.Start.In(m.pc.Location).Format(model.LayoutClockZone) + ")"
	}
	return fmt.Sprintf("%s %s: %d × %s in %s from %s, %s, %s (%s per accelerator-hour of the whole block)", r, day.Format(model.LayoutWeekdayDay), o.Count, o.InstanceType,
		o.AvailabilityZone, at, o.Length(), o.Fee.Dollars(), o.AcceleratorHourlyRate().Rate())
}

// calKey moves the calendar's cursor; enter on a day with an offering asks to buy it.
func (m Model) calKey(k tea.KeyPressMsg) calCursor {
	c := m.cal
	km := m.keys
	switch {
	case keyIs(k, km.Left):
		c.day = max(0, c.day-1)
	case keyIs(k, km.Right):
		c.day = min(calDays-1, c.day+1)
	case keyIs(k, km.Up):
		c.row = max(0, c.row-1)
	case keyIs(k, km.Down):
		c.row = min(max(0, len(m.job.Regions)-1), c.row+1)
	}
	return c
}

// CalendarOffering is the offering under the calendar's cursor, if any.
func (m Model) CalendarOffering() (model.Offering, bool) {
	regions, _, cells := m.calendar()
	if m.cal.row >= len(regions) {
		return model.Offering{}, false
	}
	c := cells[regions[m.cal.row]][m.cal.day]
	return c.offering, c.ok
}
