package blocks

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/screen"
)

// rects is where the screen's panes go: the table above the detail on wide terminals; on
// narrow ones the table, or the detail alone after enter.
type rects struct {
	table, detail screen.Rect
	rows          int // table rows that fit
}

func (m Model) layout() rects {
	var r rects
	w, body := m.area.Width, m.area.Height
	if w <= 0 || body <= 0 {
		return r
	}
	switch {
	case m.pc.Width >= screen.WideWidth && m.pc.Height >= screen.WideHeight:
		th := max(8, body*50/100)
		r.table, r.detail = screen.Rect{W: w, H: th}, screen.Rect{W: w, H: body - th}
	case m.detail:
		r.detail = screen.Rect{W: w, H: body}
	default:
		r.table = screen.Rect{W: w, H: body}
	}
	used := 2 + 1 + 1 // border, status line, header
	if m.table.Filtering() || m.table.FilterText() != "" {
		used++
	}
	used += len(m.aboveLines(r.table.W - 2))
	r.rows = max(1, r.table.H-used)
	return r
}

// Panes are the table's and the detail's panes in the screen's area (zero when not shown).
func (m Model) Panes() (table, detail screen.Rect) {
	r := m.layout()
	return r.table, r.detail
}

// render is the screen in its area.
func (m Model) render() string {
	r := m.layout()
	th := m.pc.Theme
	var parts []string
	if r.table.H > 0 {
		parts = append(parts, screen.Box(th, m.title(), m.TableView(r.table.W-2, r.table.H-2), r.table, !m.detail))
	}
	if r.detail.H > 0 {
		title := "Block"
		if b, ok := m.table.Selected(); ok && b.Source == model.SourceTrainingPlan {
			title = "Training plan"
		}
		if r.table.H == 0 {
			title += " · esc back"
		}
		parts = append(parts, screen.Box(th, title, m.detailView(r.detail.W-2, r.detail.H-2), r.detail, m.detail))
	}
	return strings.Join(parts, "\n")
}

func (m Model) title() string {
	t, _ := Words(m.list)
	if m.table.Len() > 0 {
		t += " · " + m.table.Position()
	}
	return t
}

// TableView is the table's pane of w×h cells: the status line, the regions' problems, then
// the table or what stands in its place.
func (m Model) TableView(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	th := m.pc.Theme
	lines := []string{ansi.Truncate(m.status(), w, "…")}
	lines = append(lines, m.aboveLines(w)...)
	switch {
	case m.connectErr != nil:
		for _, l := range text.Wrap("Could not connect: "+m.connectErr.Error(), w) {
			lines = append(lines, th.Error.Render(l))
		}
	case !m.loaded:
	case m.err != nil && len(m.list) == 0:
		for _, l := range text.Wrap("The blocks could not be listed: "+m.err.Error(), w) {
			lines = append(lines, th.Error.Render(l))
		}
		lines = append(lines, th.Muted.Render("r tries again."))
	case len(m.list) == 0:
		lines = append(lines, "", th.Muted.Render(ansi.Truncate("No Capacity Blocks in "+screen.RegionList(m.regions)+". The search screen (1) finds some to buy.", w, "…")))
	default:
		lines = append(lines, m.table.View(w, tableRows(h, len(lines))))
	}
	return strings.Join(lines, "\n")
}

// tableRows is the table's height in a pane of h lines with above lines over it (the
// status line and any region problems), so that the problems never push rows out of the
// frame; the mouse reads rows with the same height.
func tableRows(h, above int) int { return max(1, h-above) }

// status is the line over the table: what was listed where and when, the refresh period,
// the notifications, and the regions that failed.
func (m Model) status() string {
	th := m.pc.Theme
	if m.pc.Backend == nil {
		return th.Muted.Render("Not connected.")
	}
	if !m.loaded {
		return m.spin + th.Value.Render(" Listing the blocks in "+screen.RegionList(m.Regions())+"…")
	}
	_, count := Words(m.list)
	line := th.Value.Render(fmt.Sprintf("%s in %s", count, screen.RegionList(m.regions)))
	if n := len(m.quiet); n > 0 {
		line += th.Muted.Render(fmt.Sprintf(" (%d without blocks, listed every 5m)", n))
	}
	if !m.at.IsZero() {
		line += th.Muted.Render(" · as of " + m.at.UTC().Format(model.LayoutSecondsUTC))
	}
	line += th.Muted.Render(fmt.Sprintf(" · refresh every %s (r now)", m.refreshEvery().Round(time.Second)))
	if m.loading {
		line += " " + m.spin
	}
	if m.pc.NotifyOff {
		line += th.Muted.Render(" · notifications off (n)")
	} else {
		line += th.Muted.Render(" · bell on (n)")
	}
	return line
}

// ProblemLines name every region that could not be read, with its error, under the status
// line, whole: a region cut off the end of a line would read as a region without blocks.
func (m Model) ProblemLines(w int) []string {
	if w <= 0 || !m.loaded {
		return nil
	}
	var out []string
	for _, p := range m.problems {
		what := "could not be listed"
		if p.Partial {
			what = "listed with some details missing"
		}
		region := p.Region
		if region == "" {
			region = "A region"
		}
		line := fmt.Sprintf("✖ %s %s: %s", region, what, p.Message)
		if p.Account != "" {
			// The message names the account, and the region when it is one region's.
			line = fmt.Sprintf("✖ %s%s: %s", strings.ToUpper(what[:1]), what[1:], p.Message)
		}
		for _, l := range text.Wrap(line, w) {
			out = append(out, m.pc.Theme.Error.Render(l))
		}
	}
	return out
}

// aboveLines are the lines between the status line and the table: the listing's problems,
// then the organization's figures.
func (m Model) aboveLines(w int) []string {
	return append(m.ProblemLines(w), m.OrganizationLines(w)...)
}

// OrganizationLines state, with Options.Organization, the most Capacity Block instances the
// organization's blocks hold on a date from today on, against AWS's cap: in red past it, in
// amber within a tenth of it.
func (m Model) OrganizationLines(w int) []string {
	if w <= 0 || !m.loaded || !m.opts.Organization {
		return nil
	}
	held := model.InstancesHeld(m.list)
	line := held.Line(m.now)
	if len(m.problems) > 0 || m.opts.OrganizationPartial {
		line += model.IncompleteNote
	}
	style := m.pc.Theme.Muted
	if peak, _ := held.Peak(m.now); peak.Instances > model.MaxOrganizationInstances {
		style = m.pc.Theme.Error
	} else if peak.Instances*10 >= model.MaxOrganizationInstances*9 {
		style = m.pc.Theme.Warning
	}
	var out []string
	for _, l := range text.Wrap(line, w) {
		out = append(out, style.Render(l))
	}
	return out
}

func (m Model) detailView(w, h int) string {
	p, ok := m.DetailPage(w, h)
	if !ok {
		return m.pc.Theme.Muted.Render("Select a block to see its instances, extensions, tags and ids.")
	}
	// The scroll keys are named only where they scroll: with the detail focused.
	return p.View(m.scroll, m.detail)
}

// DetailPage is the selected block's detail laid out for a pane of w×h cells.
func (m Model) DetailPage(w, h int) (pager.Page, bool) {
	b, ok := m.table.Selected()
	if !ok {
		return pager.Page{}, false
	}
	fee, hasFee := m.table.Fee()
	return blockstable.DetailPageMore(m.pc.Theme, m.rules(), b, fee, hasFee, m.now, m.pc.Location, append(m.groupFacts(b), m.attachedFacts(b)...), w, h), true
}

// Words are the screen's title and its count of what is listed: "Capacity Blocks" and
// "2 blocks" while it holds only blocks, "Reservations" and "1 block and 1 training plan"
// once it holds a plan.
func Words(list []model.Block) (title, count string) {
	plans := 0
	for _, b := range list {
		if b.Source == model.SourceTrainingPlan {
			plans++
		}
	}
	if plans == 0 {
		return "Capacity Blocks", screen.Plural(len(list), "block")
	}
	return "Reservations", fmt.Sprintf("%s and %s", screen.Plural(len(list)-plans, "block"), screen.Plural(plans, "training plan"))
}
