package search

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/screen"
)

// resultsView is the inside of the results pane: the progress of the search, the region
// states (in one line on narrow terminals), then the table or, when nothing was found, why
// and what else to try.
func (m Model) resultsView(l layout) string {
	w, h := l.results.w-2, l.results.h-2
	if w <= 0 || h <= 0 {
		return ""
	}
	var lines []string
	lines = append(lines, m.progressLine(w))
	if !l.wide {
		lines = append(lines, m.compactStatus(w))
	}
	s := m.search
	switch {
	case m.connectErr != nil:
		lines = append(lines, "")
		for _, l := range text.Wrap("Could not connect: "+m.connectErr.Error(), w) {
			lines = append(lines, m.pc.Theme.Error.Render(l))
		}
		lines = append(lines, m.pc.Theme.Muted.Render("q quits."))
	case !s.has && m.table.Len() == 0:
		lines = append(lines, "")
		for _, l := range text.Wrap(firstHint, w) {
			lines = append(lines, m.pc.Theme.Muted.Render(l))
		}
	case !s.running && !s.cancelled && s.found == 0 && m.table.Len() == 0 && len(s.regions) > 0 && m.failedRegions() == len(s.regions):
		lines = append(lines, m.failedView(w)...)
	case !s.running && !s.cancelled && s.found == 0 && m.table.Len() == 0:
		lines = append(lines, m.emptyView(w)...)
	default:
		lines = append(lines, m.probeSummary(w)...)
		rows := h - len(lines)
		lines = append(lines, m.table.View(w, rows))
	}
	return strings.Join(lines, "\n")
}

// firstHint is what the results pane says before the first search: the form starts
// filled in, so enter searches at once what it shows.
const firstHint = "The form is filled in with a search already (the type, count, window, length and region shown): " +
	"press enter to search it as it is, or change any field first."

func (m Model) progressLine(w int) string {
	th, s := m.pc.Theme, m.search
	var line string
	switch {
	case !s.has:
		line = th.Muted.Render("No search yet.")
	case s.running:
		calls := fmt.Sprintf("%d of %d calls", s.callsDone, s.callsTotal)
		if th.Accessible {
			calls = a11y.Progress(s.callsDone, s.callsTotal, "calls")
		}
		text := fmt.Sprintf("Searching %s · %s · %s so far", screen.RegionList(s.query.Regions), calls, screen.Plural(s.found, "offering"))
		if note := model.PaceNote(s.progressByRegion(), m.pc.Now()); note != "" {
			// AWS's wait and the end matter more than the regions named and the count so
			// far: a narrow pane drops those first.
			for _, t := range []string{text + " · " + note, "Searching · " + calls + " · " + note, calls + " · " + note} {
				text = t
				if ansi.StringWidth(m.spin)+1+ansi.StringWidth(t) <= w {
					break
				}
			}
		}
		line = m.spin + " " + th.Value.Render(text)
		if m.table.Stale() && !s.cachedAt.IsZero() {
			line += th.Muted.Render(" · the rows shown are cached " + cachedAge(s.cachedAt) + " — refreshing")
		} else if m.table.Stale() {
			line += th.Muted.Render(" · the rows shown are from the previous search")
		}
	case s.cancelled:
		line = th.Warning.Render(fmt.Sprintf("Search cancelled after %d of %d calls · %s", s.callsDone, s.callsTotal, screen.Plural(s.found, "offering")))
		if m.table.Stale() {
			line += th.Muted.Render(" · the rows shown are from the previous search")
		}
	case s.found == 0:
		line = th.Warning.Render(fmt.Sprintf("Nothing found in %s (%s)", screen.RegionList(s.query.Regions), screen.Plural(s.callsDone, "call")))
		if bad := m.failedRegions(); bad > 0 {
			line += th.Error.Render(fmt.Sprintf(" · %s failed", screen.Plural(bad, "region")))
		}
	default:
		line = th.OK.Render(fmt.Sprintf("Found %s in %s (%s)", screen.Plural(s.found, "offering"), screen.RegionList(s.query.Regions), screen.Plural(s.callsDone, "call")))
		if s.started > 0 {
			line += th.Muted.Render(fmt.Sprintf(" · %d started since and left the table", s.started))
		}
		if bad := m.failedRegions(); bad > 0 {
			line += th.Error.Render(fmt.Sprintf(" · %s failed", screen.Plural(bad, "region")))
		}
	}
	return ansi.Truncate(line, w, "…")
}

func (m Model) failedRegions() int {
	n := 0
	for _, st := range m.search.status {
		if st.State == model.RegionError {
			n++
		}
	}
	return n
}

func (m Model) stateStyle(st model.RegionState) func(...string) string {
	switch st {
	case model.RegionOK:
		return m.pc.Theme.OK.Render
	case model.RegionThrottled, model.RegionCancelled:
		return m.pc.Theme.Warning.Render
	case model.RegionError:
		return m.pc.Theme.Error.Render
	}
	return m.pc.Theme.Muted.Render
}

func (m Model) stateWord(st model.RegionStatus) string {
	switch st.State {
	case model.RegionOK:
		return fmt.Sprintf("ok %d", st.Offerings)
	case model.RegionSearching:
		return m.spin + " searching"
	}
	return st.State.String()
}

// regionStatusLines is one line per region, its state and offerings, with the message
// of a troubled region wrapped on the lines under it.
func (m Model) regionStatusLines(w int) []string {
	var lines []string
	for _, r := range m.search.regions {
		st := m.search.status[r]
		lines = append(lines, ansi.Truncate(fmt.Sprintf("%-15s ", r)+m.stateStyle(st.State)(m.stateWord(st)), w, "…"))
		if st.Message != "" {
			for _, l := range text.Wrap(st.Message, w-2) {
				lines = append(lines, "  "+m.pc.Theme.Muted.Render(l))
			}
		}
	}
	return lines
}

func (m Model) regionStatusView(w, h int) string {
	lines := m.regionStatusLines(w)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// compactStatus puts every region on one line, the troubled ones first with their message.
func (m Model) compactStatus(w int) string {
	if !m.search.has {
		return ""
	}
	var bad, good []string
	for _, r := range m.search.regions {
		st := m.search.status[r]
		item := r + " " + m.stateStyle(st.State)(m.stateWord(st))
		if st.State == model.RegionError || st.State == model.RegionThrottled {
			if st.Message != "" {
				item += " (" + st.Message + ")"
			}
			bad = append(bad, item)
		} else {
			good = append(good, item)
		}
	}
	return ansi.Truncate(strings.Join(append(bad, good...), " · "), w, "…")
}

// failedView is a search that no region answered: the messages, not "nothing found".
func (m Model) failedView(w int) []string {
	th := m.pc.Theme
	lines := []string{th.Error.Render("The search failed in every region, so nothing is known about what is on offer.")}
	seen := map[string]bool{}
	for _, r := range m.search.regions {
		msg := m.search.status[r].Message
		if msg == "" || seen[msg] {
			continue
		}
		seen[msg] = true
		for _, l := range text.Wrap(msg, w-2) {
			lines = append(lines, "  "+th.Value.Render(l))
		}
	}
	return append(lines, th.Muted.Render("r searches again."))
}

// probeSummary is the largest-count probe, for a search that found offerings: by type, then
// region, on up to probeLines lines (one line cut the answers of a search in many regions
// after the first two or three).
func (m Model) probeSummary(w int) []string {
	th := m.pc.Theme
	switch {
	case m.extra.probeLoading:
		return []string{m.spin + th.Value.Render(" Probing the largest count with any offering…")}
	case m.extra.probe == nil:
		return nil
	}
	var types []string
	byType := map[string][]string{}
	for _, p := range m.extra.probe {
		if _, ok := byType[p.Type]; !ok {
			types = append(types, p.Type)
		}
		switch {
		case p.Err != nil:
			byType[p.Type] = append(byType[p.Type], p.Region+" error")
		case p.Count == 0:
			byType[p.Type] = append(byType[p.Type], p.Region+" none")
		default:
			byType[p.Type] = append(byType[p.Type], fmt.Sprintf("%s %d", p.Region, p.Count))
		}
	}
	var parts []string
	for _, t := range types {
		parts = append(parts, t+": "+strings.Join(byType[t], ", "))
	}
	const label = "Largest count: "
	wrapped := text.Wrap(label+strings.Join(parts, " · "), w)
	cut := len(wrapped) > probeLines
	if cut {
		wrapped = wrapped[:probeLines]
	}
	lines := make([]string, len(wrapped))
	for i, l := range wrapped {
		if cut && i == len(wrapped)-1 {
			l = ansi.Truncate(l+" …", w, "…")
		}
		if rest, ok := strings.CutPrefix(l, label); ok && i == 0 {
			l = th.Label.Render(label) + th.Value.Render(rest)
		} else {
			l = th.Value.Render(l)
		}
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return lines
}

// probeLines is the most lines the probe's answers take above the table.
const probeLines = 3

// emptyView says why a search may have found nothing and what else to try.
func (m Model) emptyView(w int) []string {
	th, q := m.pc.Theme, m.search.query
	var lines []string
	add := func(style func(...string) string, s string) {
		for _, l := range text.Wrap(s, w) {
			lines = append(lines, style(l))
		}
	}
	add(th.Warning.Render, fmt.Sprintf("No offerings for %d × %s, %s, starting %s → ending %s, in %s.",
		q.Count, strings.Join(q.InstanceTypes, ", "), q.Durations, q.Start.UTC().Format(model.LayoutShortUTC), q.End.UTC().Format(model.LayoutShortUTC), screen.RegionList(q.Regions)))
	add(th.Muted.Render, "Why it may be: size — the larger the count, the rarer a block; duration — a long block needs free capacity on every day of it; lead time — the next days are often sold out, while weeks ahead (up to 8) have more.")
	if _, blocks := blocksPart(q); !blocks {
		// The hints are the searched source's rules; the alternatives and the probe are
		// Capacity Block searches, not asked for it.
		s := searchedSource(q)
		add(th.Muted.Render, fmt.Sprintf("Try another count (%s reserve %s instances), another length (%s) or a wider window.", s.Label()+"s", s.CountRule(), s.LengthRule()))
		return lines
	}
	switch {
	case m.extra.altsLoading:
		add(th.Value.Render, m.spin+" Looking for alternatives…")
	case m.extra.altsErr != nil:
		add(th.Error.Render, "Alternatives could not be found: "+m.extra.altsErr.Error())
	case len(m.extra.alts) == 0 && !m.extra.probeLoading && m.extra.probe == nil:
		add(th.Muted.Render, "No nearby alternative found either.")
	case len(m.extra.alts) > 0:
		lines = append(lines, th.Label.Render("Alternatives (↑↓ choose, enter searches):"))
		for i, a := range m.extra.alts {
			s := "  " + a.Description
			if a.Offerings > 0 {
				s += " — " + screen.Plural(a.Offerings, "offering")
			}
			style := th.Value
			if i == m.extra.altCursor {
				s, style = "› "+a.Description+s[2+len(a.Description):], th.Selected
			}
			lines = append(lines, ansi.Truncate(style.Render(s), w, "…"))
		}
	}
	switch {
	case m.extra.probeLoading:
		add(th.Value.Render, m.spin+" Probing the largest count with any offering…")
	case m.extra.probe != nil:
		lines = append(lines, th.Label.Render("Largest count with any offering:"))
		for _, p := range m.extra.probe {
			s := fmt.Sprintf(" %-15s %-17s ", p.Region, p.Type)
			switch {
			case p.Err != nil:
				s += th.Error.Render(p.Err.Error())
			case p.Count == 0:
				s += th.Muted.Render("none at any count")
			default:
				s += th.OK.Render(fmt.Sprintf("%d", p.Count))
			}
			lines = append(lines, ansi.Truncate(s, w, "…"))
		}
	default:
		add(th.Muted.Render, fmt.Sprintf("Press L to find the largest count (1–%d) that has any offering.", model.MaxCount))
	}
	return lines
}

// cachedAge says how old a cached answer is, by the wall clock the cache was written with.
func cachedAge(asked time.Time) string {
	d := time.Since(asked)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	default:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
}

// progressByRegion is the regions' progress in the order of their names, so that the line
// reads the same whatever order the events came in.
func (s search) progressByRegion() []model.RegionProgress {
	out := make([]model.RegionProgress, 0, len(s.progress))
	for _, p := range s.progress {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b model.RegionProgress) int {
		return cmp.Or(strings.Compare(a.Region, b.Region), a.Left-b.Left)
	})
	return out
}
