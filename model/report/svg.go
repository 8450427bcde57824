package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpublock/gpublock/model"
)

// The SVG's geometry, in user units (pixels at 100%).
const (
	svgWidth    = 960
	svgMargin   = 24
	spendTop    = 124 // the spend chart's plot area
	spendHeight = 220 // its height
	axisLeft    = 104 // room for the y axis's labels
	rowHeight   = 30  // one reservation in the use chart
	labelWidth  = 250 // the reservations' names
	valueWidth  = 210 // the figures right of each bar
)

// sourceColours are the spend bars' fills, by source (model.Sources' order).
var sourceColours = map[model.Source]string{model.SourceCapacityBlock: "#2b6cb0", model.SourceTrainingPlan: "#dd6b20"}

const (
	reservedFill = "#e2e8f0"
	usedFill     = "#2f855a"
	inkColour    = "#1a202c"
	mutedColour  = "#4a5568"
	gridColour   = "#cbd5e0"
)

// WriteSVG writes the report's two charts as one standalone SVG document: what was paid
// by month, stacked by source, and each reservation's used against reserved hours in the
// window, an unknown use drawn hatched and labelled. It needs no font, script or file
// beyond itself; every text from the data (ids, names, tags, problems) is escaped.
func WriteSVG(w io.Writer, r Report) error {
	s := &svg{}
	useTop := spendTop + spendHeight + 90
	rows := max(1, len(r.Reservations))
	height := useTop + 40 + rows*rowHeight + 40
	notes := r.svgNotes()
	height += len(notes) * 18

	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12" fill="%s">`+"\n",
		svgWidth, height, svgWidth, height, inkColour)
	s.f("<title>%s</title>\n", esc("gpublock report: what was paid and what was used, "+r.windowWords()))
	s.f(`<defs><pattern id="unknown-use" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="8" height="8" fill="#edf2f7"/><line x1="0" y1="0" x2="0" y2="8" stroke="#a0aec0" stroke-width="3"/></pattern></defs>` + "\n")
	s.f(`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", svgWidth, height)
	s.text(svgMargin, 32, "start", 18, "bold", inkColour, "What was paid and what was used")
	s.text(svgMargin, 54, "start", 12, "", mutedColour, r.windowWords()+" · paid "+r.Paid.String())

	s.spendChart(r)
	s.useChart(r, useTop)

	y := useTop + 40 + rows*rowHeight + 24
	for _, n := range notes {
		s.text(svgMargin, y, "start", 11, "", mutedColour, n)
		y += 18
	}
	s.f("</svg>\n")
	_, err := io.WriteString(w, s.b.String())
	return err
}

// spendChart draws the bars of what was paid each month, stacked by source.
func (s *svg) spendChart(r Report) {
	s.text(svgMargin, spendTop-22, "start", 14, "bold", inkColour, "Paid by month (UTC), by source")
	lx := svgWidth - svgMargin
	for i := len(model.Sources()) - 1; i >= 0; i-- {
		src := model.Sources()[i]
		s.text(lx, spendTop-22, "end", 11, "", inkColour, src.Plural())
		lx -= utf8.RuneCountInString(src.Plural())*6 + 6
		s.f(`<rect x="%d" y="%d" width="10" height="10" fill="%s"/>`+"\n", lx-10, spendTop-31, sourceColours[src])
		lx -= 24
	}
	base, plotW := spendTop+spendHeight, svgWidth-svgMargin-axisLeft
	var top int64
	for _, m := range r.Months {
		top = max(top, m.Known.Micros())
	}
	step := tickStep(top)
	top = (top + step - 1) / step * step
	if top == 0 {
		top = step
	}
	for v := int64(0); v <= top; v += step {
		y := float64(base) - float64(v)/float64(top)*spendHeight
		s.f(`<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" stroke-width="1"/>`+"\n", axisLeft, num(y), svgWidth-svgMargin, num(y), gridColour)
		s.text(axisLeft-6, int(y)+4, "end", 11, "", mutedColour, wholeDollars(v))
	}
	n := len(r.Months)
	if n == 0 {
		return
	}
	slot := float64(plotW) / float64(n)
	barW := min(slot*0.7, 72)
	every := max(1, (n*56+plotW-1)/plotW) // labels at least 56 units apart
	for i, m := range r.Months {
		x := float64(axisLeft) + slot*float64(i) + (slot-barW)/2
		y := float64(base)
		for _, sa := range m.BySource {
			if sa.Known.Micros() <= 0 {
				continue
			}
			h := float64(sa.Known.Micros()) / float64(top) * spendHeight
			y -= h
			s.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n", num(x), num(y), num(barW), num(h),
				sourceColours[sa.Source], esc(m.Label+" "+sa.Source.Plural()+": "+sa.Amount.String()))
		}
		if m.Unknown > 0 {
			s.text(int(x+barW/2), int(y)-4, "middle", 12, "bold", "#c53030", "?")
		}
		if i%every == 0 {
			s.text(int(x+barW/2), base+16, "middle", 11, "", mutedColour, m.Label)
		}
	}
	s.f(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1"/>`+"\n", axisLeft, base, svgWidth-svgMargin, base, inkColour)
	switch {
	case r.Paid.Payments == 0:
		s.text(axisLeft+plotW/2, spendTop+spendHeight/2, "middle", 13, "", mutedColour, "nothing paid in this window")
	case r.Paid.Unknown > 0:
		s.text(axisLeft, base+36, "start", 11, "", "#c53030",
			"? "+model.Plural(r.Paid.Unknown, "payment", "payments")+" of unknown amount, not drawn (listed below)")
	}
}

// useChart draws, per reservation, its hours reserved in the window and those used.
func (s *svg) useChart(r Report, top int) {
	s.text(svgMargin, top, "start", 14, "bold", inkColour, "Use per reservation: instance-hours used of those reserved in the window")
	lx := svgMargin
	for _, k := range []struct{ fill, label string }{{usedFill, "used"}, {reservedFill, "reserved"}, {"url(#unknown-use)", "use unknown"}} {
		s.f(`<rect x="%d" y="%d" width="10" height="10" fill="%s" stroke="%s" stroke-width="0.5"/>`+"\n", lx, top+12, k.fill, gridColour)
		s.text(lx+14, top+21, "start", 11, "", inkColour, k.label)
		lx += 14 + len(k.label)*6 + 18
	}
	y := top + 40
	if len(r.Reservations) == 0 {
		s.text(svgWidth/2, y+rowHeight/2+4, "middle", 13, "", mutedColour, "no reservations in this window")
		return
	}
	var most float64
	for _, row := range r.Reservations {
		most = max(most, row.ReservedHours)
	}
	barX := svgMargin + labelWidth
	barW := svgWidth - svgMargin - valueWidth - barX
	scale := func(h float64) float64 {
		if most <= 0 {
			return 0
		}
		return h / most * float64(barW)
	}
	for _, row := range r.Reservations {
		s.text(svgMargin, y+13, "start", 12, "", inkColour, clip(row.Label(), 36))
		s.text(svgMargin, y+25, "start", 10, "", mutedColour, clip(row.Capacity()+" · "+row.Region, 42))
		resW := max(scale(row.ReservedHours), 1)
		fill := reservedFill
		if !row.UsedHours.Known {
			fill = "url(#unknown-use)"
		}
		s.f(`<rect x="%d" y="%d" width="%s" height="16" fill="%s" stroke="%s" stroke-width="0.5"><title>%s</title></rect>`+"\n",
			barX, y+5, num(resW), fill, gridColour, esc(row.Label()+": "+formatHours(row.ReservedHours)+" h reserved"))
		h := " h"
		if row.Unit != "instance" {
			h = " " + row.Unit + "-h"
		}
		value := "use unknown · " + formatHours(row.ReservedHours) + h + " reserved"
		if row.UsedHours.Known {
			usedW := min(scale(row.UsedHours.Value), resW)
			s.f(`<rect x="%d" y="%d" width="%s" height="16" fill="%s"><title>%s</title></rect>`+"\n", barX, y+5, num(usedW), usedFill,
				esc(row.Label()+": "+row.UsedHours.String()+" h used"))
			value = row.UsedHours.String() + " of " + formatHours(row.ReservedHours) + h
			if share, ok := row.UsedShare(); ok {
				value += " (" + percent(share) + ")"
			} else if row.ReservedHours <= 0 {
				value = "nothing reserved in the window"
			}
		} else {
			s.text(barX+6, y+17, "start", 11, "bold", mutedColour, "use unknown")
		}
		s.text(svgWidth-svgMargin-valueWidth+8, y+17, "start", 11, "", inkColour, value)
		y += rowHeight
	}
}

// svgNotes are the lines under the charts: the payments of unknown amount, why uses are
// unknown, and the problems.
func (r Report) svgNotes() []string {
	var out []string
	for _, p := range r.UnknownAmounts {
		out = append(out, clip(fmt.Sprintf("Unknown amount: %s, %s, paid %s", p.ReservationID, p.Kind, utc(p.At)), 140))
	}
	for _, row := range r.Reservations {
		if !row.UsedHours.Known {
			out = append(out, clip("Use unknown: "+row.Label()+": "+row.UseWhy, 140))
		}
	}
	for _, p := range r.Problems {
		out = append(out, clip("Not read: "+p, 140))
	}
	return out
}

// tickStep is a round step (1, 2 or 5 × a power of ten dollars) for about four grid
// lines up to top micro-dollars.
func tickStep(top int64) int64 {
	const dollar = 1_000_000
	for p := int64(dollar); ; p *= 10 {
		for _, k := range []int64{1, 2, 5} {
			if k*p*4 >= top || p > 1e17/10 {
				return k * p
			}
		}
	}
}

// wholeDollars is an axis label: "$12,000".
func wholeDollars(micros int64) string {
	return strings.TrimSuffix(model.MoneyFromMicros(micros).Dollars(), ".00")
}

// clip shortens user text to n characters, and takes out control characters.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

type svg struct{ b strings.Builder }

func (s *svg) f(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

// text writes one escaped line of text.
func (s *svg) text(x, y int, anchor string, size int, weight, fill, t string) {
	w := ""
	if weight != "" {
		w = ` font-weight="` + weight + `"`
	}
	s.f(`<text x="%d" y="%d" text-anchor="%s" font-size="%d"%s fill="%s">%s</text>`+"\n", x, y, anchor, size, w, fill, esc(t))
}

// esc escapes text for XML character data and attribute values alike (<, >, &, quotes),
// and drops what XML 1.0 cannot carry at all.
func esc(t string) string {
	t = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF) {
			return r
		}
		return -1
	}, strings.ToValidUTF8(t, "\uFFFD"))
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(t))
	return b.String()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
