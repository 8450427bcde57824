package ui

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/searchform"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The search screen's names, as the tests of the whole program read them.
const (
	paneForm    = searchscreen.PaneForm
	paneResults = searchscreen.PaneResults
	paneDetail  = searchscreen.PaneDetail
	tabDetail   = searchscreen.TabDetail
	tabChart    = searchscreen.TabChart
)

type (
	searchEventsMsg = searchscreen.EventsMsg
	watchTickMsg    = searchscreen.WatchTickMsg
)

// The search screen's steps, taken on the root as a key or a dialog would.
func (m Model) startSearch(q model.Query) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().StartSearch(q))
}

// updateOpen is update, and the dialog the last message asks for opened, as the program
// would open it from the message the screen sends.
func updateOpen(m Model, msgs ...tea.Msg) Model {
	m = update(m, msgs[:len(msgs)-1]...)
	mm, cmd := m.Update(msgs[len(msgs)-1])
	m = mm.(Model)
	if cmd != nil {
		if open := cmd(); uiscreen.IsOpen(open) {
			m = update(m, open)
		}
	}
	return m
}

// detailPage is the selected offering's detail as the detail pane lays it out now.
func (m Model) detailPage() (detail.Page, bool) { return m.searchNow().DetailPage() }

// standIn answers every search with nothing at once: a search started with it as the
// backend can be run for the id its first message carries, and the test then gives the
// stream's events itself. The backend it stands in for answers everything else.
type standIn struct{ source.Backend }

func (standIn) Search(context.Context, model.Query) <-chan source.SearchEvent {
	ch := make(chan source.SearchEvent)
	close(ch)
	return ch
}

// startedSearch starts a search with start, taken on the search screen and given to the
// root as the program would, and returns the id the search's own first message carries.
// The backend is stood in for meanwhile, so nothing is asked of it: the test delivers the
// events, with that id.
func startedSearch(m Model, start func(searchscreen.Model) (searchscreen.Model, tea.Cmd)) (Model, int) {
	real := m.pc.Backend
	m.pc.Backend = standIn{real}
	s, cmd := start(m.search())
	m.pc.Backend = real
	id, ok := searchID(cmd)
	if !ok {
		panic("no search was started")
	}
	m, _ = m.updateSearchWith(s, cmd)
	return m, id
}

// startedSearchBy gives msg to the root, as startedSearch starts a search on the screen,
// for a search the root starts on a message (a watch's tick).
func startedSearchBy(m Model, msg tea.Msg) (Model, int) {
	real := m.pc.Backend
	m.pc.Backend = standIn{real}
	mm, cmd := m.Update(msg)
	m.pc.Backend = real
	id, ok := searchID(cmd)
	if !ok {
		panic("no search was started")
	}
	return mm.(Model), id
}

// submitted presses enter at the search form, as a person starts its search: a second
// time when the first only closed the type filter.
func submitted(s searchscreen.Model) (searchscreen.Model, tea.Cmd) {
	s, cmd := s.Update(keyMsg("enter"))
	if cmd == nil {
		s, cmd = s.Update(keyMsg("enter"))
	}
	return s, cmd
}

// again starts the last search again.
func again(s searchscreen.Model) (searchscreen.Model, tea.Cmd) { return s.StartSearch(s.Query()) }

// searchID runs cmd, a search's command made while standIn was the backend, and returns
// the id of the search's first message.
func searchID(cmd tea.Cmd) (int, bool) {
	if cmd == nil {
		return 0, false
	}
	switch msg := cmd().(type) {
	case searchEventsMsg:
		return msg.ID, true
	case tea.BatchMsg:
		for _, c := range msg {
			if id, ok := searchID(c); ok {
				return id, true
			}
		}
	}
	return 0, false
}

// focusedPane is the search pane the view marks as focused: without colour, the one
// drawn with a heavy border. -1 when none is.
func focusedPane(m Model) searchscreen.Pane {
	for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		_, title, ok := strings.Cut(l, "┏━ ")
		switch {
		case !ok:
		case strings.HasPrefix(title, "Search"):
			return paneForm
		case strings.HasPrefix(title, "Offerings"):
			return paneResults
		case strings.HasPrefix(title, "Detail"), strings.HasPrefix(title, "Chart"):
			return paneDetail
		}
	}
	return -1
}

// formLabels are the search form's field labels, by field.
var formLabels = map[searchform.Field]string{
	searchform.Source: "Source", searchform.Types: "Types", searchform.Count: "Count", searchform.Start: "Start",
	searchform.End: "End", searchform.Duration: "Duration", searchform.Regions: "Regions",
}

// focusedField is the form's field the view marks (›) as focused; -1 when none is.
func focusedField(m Model) searchform.Field {
	v := ansi.Strip(m.View().Content)
	for f, l := range formLabels {
		if strings.Contains(v, "›"+l+" ") {
			return f
		}
	}
	return -1
}

// fieldErrors is the ✗ the view shows under each of the form's fields, by field.
func fieldErrors(m Model) map[searchform.Field]string {
	errs := map[searchform.Field]string{}
	at := searchform.Field(-1)
	for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		// The form's pane is the leftmost: its lines start with its side.
		l, ok := strings.CutPrefix(l, "│")
		if !ok {
			if l, ok = strings.CutPrefix(l, "┃"); !ok {
				continue
			}
		}
		if i := strings.IndexAny(l, "│┃"); i >= 0 {
			l = l[:i]
		}
		for f, label := range formLabels {
			if strings.HasPrefix(l, " "+label+" ") || strings.HasPrefix(l, "›"+label+" ") {
				at = f
			}
		}
		if msg, ok := strings.CutPrefix(l, "  ✗ "); ok && at >= 0 {
			errs[at] += strings.TrimSpace(msg)
		}
	}
	return errs
}

// searched reports whether the view shows a search was made.
func searched(m Model) bool { return !strings.Contains(ansi.Strip(m.View().Content), "No search yet.") }

// foundOnScreen is the count of a finished search the view shows; -1 when it shows none.
func foundOnScreen(m Model) int {
	got := foundRE.FindStringSubmatch(ansi.Strip(m.View().Content))
	if got == nil {
		return -1
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

var aboveRE = regexp.MustCompile(`↑ (\d+) lines? above`)

// detailTop is the first line of the detail the view shows, from the count of the lines
// above it the pane says.
func detailTop(m Model) int {
	got := aboveRE.FindStringSubmatch(ansi.Strip(m.View().Content))
	if got == nil {
		return 0
	}
	n, _ := strconv.Atoi(got[1])
	return n
}

// probeAnswer is one line of the largest-count probe as the view shows it.
type probeAnswer struct {
	region, typ string
	count       int    // 0: none at any count
	err         string // what is shown in place of a count
}

var probeRE = regexp.MustCompile(`[│┃] ([a-z]{2}(?:-[a-z]+)+-\d+) +(\S+) +(.*?) *[│┃]`)

// probeOnScreen is the probe's answers under "Largest count with any offering:".
func probeOnScreen(m Model) []probeAnswer {
	var out []probeAnswer
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "Largest count with any offering:") {
			continue
		}
		for _, l := range lines[i+1:] {
			// The results pane is the rightmost: its part of the line is the last match.
			all := probeRE.FindAllStringSubmatch(l, -1)
			if all == nil {
				break
			}
			got := all[len(all)-1]
			a := probeAnswer{region: got[1], typ: got[2]}
			switch n, err := strconv.Atoi(got[3]); {
			case got[3] == "none at any count":
			case err == nil:
				a.count = n
			default:
				a.err = got[3]
			}
			out = append(out, a)
		}
	}
	return out
}

// regionLine is one region of the Regions box: its state word and the message under it.
type regionLine struct{ state, message string }

var regionLineRE = regexp.MustCompile(`^([a-z]{2}(?:-[a-z]+)+-\d+) +(?:\S+ )?(searching|ok|empty|throttled|error|cancelled)\b`)

// regionsOnScreen reads every region of the latest search from the Regions box, the view
// drawn tall enough that the box cuts none, in the order the search ran them.
func regionsOnScreen(t *testing.T, m Model) (order []string, lines map[string]regionLine) {
	t.Helper()
	m = update(m, tea.WindowSizeMsg{Width: 200, Height: 200})
	view := strings.Split(ansi.Strip(m.View().Content), "\n")
	lines = map[string]regionLine{}
	in, last := false, ""
	for _, l := range view {
		if strings.Contains(l, "╭─ Regions ─") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(l, "╰") {
			break
		}
		// The box is the leftmost pane: its text lies between the first two borders.
		cell, _, _ := strings.Cut(strings.TrimPrefix(l, "│"), "│")
		if got := regionLineRE.FindStringSubmatch(cell); got != nil {
			last = got[1]
			order = append(order, last)
			lines[last] = regionLine{state: got[2]}
		} else if msg := strings.TrimSpace(cell); last != "" && strings.HasPrefix(cell, "  ") && msg != "" {
			rl := lines[last]
			rl.message = strings.TrimSpace(rl.message + " " + msg)
			lines[last] = rl
		}
	}
	if !in {
		t.Fatalf("no Regions box on the screen:\n%s", strings.Join(view, "\n"))
	}
	return order, lines
}

// searching reports a search under way, as the header's word on it says.
func searching(m Model) bool {
	verb, _ := m.search().HeaderNote()
	return strings.Contains(verb, "searching")
}
