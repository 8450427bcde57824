package flows

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// fillForm types a search as a person would: the H200 types besides the default, two
// instances, a window from a date to a relative date, 3 days, every region selling them.
func fillForm(s *screen) {
	s.Press("/")
	s.Type("h200")
	s.Press("space", "esc", "tab", "ctrl+u")
	s.Type("2")
	s.Press("tab", "ctrl+u")
	s.Type("2026-12-08")
	s.Press("tab", "ctrl+u")
	s.Type("+5w")
	s.Press("tab", "right", "tab", "a")
}

// The whole flow: fill the form, watch the rows stream in, sort, filter, select, read the
// detail and copy its CLI command; at both golden sizes.
func TestFlow(t *testing.T) {
	for _, size := range []struct{ w, h int }{{160, 48}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			b, _ := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, ui.New(testOptions(b)), size.w, size.h)
			s.WaitText("123456789012")
			fillForm(s)
			s.Press("enter")
			found := s.FoundCount()
			if found == 0 {
				t.Fatal("the search found nothing; the flow needs offerings")
			}
			s.Press("F")
			s.WaitText("Upfront fee▲")
			s.Press("/")
			s.Type("us-east-2")
			s.Press("enter")
			s.WaitText("filtered from")
			// enter buys (issue 6); d opens the detail.
			s.Press("g", "j", "j", "d")
			s.WaitText("Why 11:30 UTC")
			s.Press("y")
			s.WaitText("Copied the AWS CLI search command")
			m := final(s)

			// The count as the results pane says it at the end, under the filter.
			if counted := foundOnScreen(update(m, uitest.Key("esc"))); counted != found || m.Inspect().Search.Table().Len() != found {
				t.Errorf("the screen said %d offerings; the search counted %d and the table holds %d", found, counted, m.Inspect().Search.Table().Len())
			}
			if focusedPane(m) != paneDetail {
				t.Errorf("focus %d, want the detail pane", focusedPane(m))
			}
			if col, desc := m.Inspect().Search.Table().Sort(); col != offerings.ColFee || desc {
				t.Errorf("sort %v desc=%v, want by fee ascending", col, desc)
			}
			n := m.Inspect().Search.Table().Visible()
			if n == 0 || n >= found {
				t.Fatalf("the filter kept %d of %d rows; want some but not all", n, found)
			}
			var prev model.Money
			for i := 0; i < n; i++ {
				o := m.Inspect().Search.Table().Row(i)
				if o.Region != "us-east-2" {
					t.Errorf("row %d is in %s, past a filter for us-east-2", i, o.Region)
				}
				if i > 0 && o.Fee.Cmp(prev) < 0 {
					t.Errorf("row %d fee %s is below the row before it (%s) in a fee-ascending sort", i, o.Fee, prev)
				}
				prev = o.Fee
			}
			sel, ok := m.Inspect().Search.Table().Selected()
			if !ok || m.Inspect().Search.Table().Cursor() != 2 || sel.ID != m.Inspect().Search.Table().Row(2).ID {
				t.Fatalf("selected %v (cursor %d), want the third visible row", sel.ID, m.Inspect().Search.Table().Cursor())
			}
			view := ansi.Strip(m.View().Content)
			for _, want := range []string{sel.ID, sel.Fee.Dollars(), "terminated from 11:00 UTC", "03:30 PST"} {
				if !strings.Contains(view, want) {
					t.Errorf("the detail lacks %q:\n%s", want, view)
				}
			}
			osc := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(detail.SearchCommand(sel, m.Inspect().Search.Query())))
			if !bytes.Contains(s.Raw, []byte(osc)) {
				t.Errorf("no OSC 52 clipboard write of %q", detail.SearchCommand(sel, m.Inspect().Search.Query()))
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// A new search keeps the old rows until its own arrive, and esc cancels it.
func TestCancelSearchKeepsOldRows(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	first := s.FoundCount()
	if first == 0 {
		t.Fatal("the default search found nothing")
	}
	// Slow every call down so that the second search is still running when esc comes.
	sim.SetFaults(ec2sim.Faults{Latency: 2 * time.Second})
	s.Press("shift+tab", "a", "enter") // back to the form's last field, the regions
	s.WaitText("the rows shown are from the previous search")
	s.Press("esc")
	s.WaitText("Search cancelled")
	m := final(s)
	cancelledLine := strings.Contains(ansi.Strip(m.View().Content), "Search cancelled after")
	if searching(m) || !cancelledLine {
		t.Errorf("running=%v cancelled=%v after esc", searching(m), cancelledLine)
	}
	if m.Inspect().Search.Table().Len() != first || !m.Inspect().Search.Table().Stale() {
		t.Errorf("after the cancel the table holds %d rows (stale=%v), want the %d of the first search, marked stale", m.Inspect().Search.Table().Len(), m.Inspect().Search.Table().Stale(), first)
	}
	cancelled := 0
	searched, regions := regionsOnScreen(t, m)
	for _, st := range regions {
		if st.state == "cancelled" {
			cancelled++
		}
	}
	if len(searched) < 2 || cancelled == 0 {
		t.Errorf("%d regions searched, %d marked cancelled; want several, some cancelled", len(searched), cancelled)
	}
}

// altsRecorder keeps what the backend answered the screen's request for alternatives,
// which the screen lists as it got them.
type altsRecorder struct {
	source.Backend
	mu    sync.Mutex
	calls int
	last  []source.Suggestion
}

func (r *altsRecorder) Alternatives(ctx context.Context, q model.Query) ([]source.Suggestion, error) {
	alts, err := r.Backend.Alternatives(ctx, q)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.last = alts
	return alts, err
}

// asked reports whether the screen asked the backend for alternatives at all.
func asked(r *altsRecorder) bool { calls, _ := r.answered(); return calls > 0 }

func (r *altsRecorder) answered() (int, []source.Suggestion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls, r.last
}

// A search that finds nothing says why, lists the adapter's alternatives, runs the
// largest-count probe on L, and searches an alternative on its number.
func TestEmptyResultAlternativesAndProbe(t *testing.T) {
	eb, _ := emulatorBackend(t, ec2sim.Faults{})
	b := &altsRecorder{Backend: eb}
	s := newScreen(t, ui.New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("tab", "ctrl+u")
	s.Type("64")
	s.Press("tab", "ctrl+u")
	s.Type("now")
	s.Press("tab", "ctrl+u")
	s.Type("+16d")
	s.Press("tab", "ctrl+u")
	s.Type("14d")
	s.Press("enter")
	s.WaitText("No offerings for 64 × p5.48xlarge")
	text := s.WaitFor("the alternatives", func(text string) bool {
		return strings.Contains(text, "Alternatives (") || strings.Contains(text, "No nearby alternative")
	})
	if !regexp.MustCompile(`starting \w{3} \d\d \d\d:\d\d UTC → ending \w{3} \d\d \d\d:\d\d UTC`).MatchString(text) {
		t.Errorf("the empty result's window does not say its times are UTC:\n%s", text)
	}
	if !strings.Contains(text, "Why it may be: size") {
		t.Errorf("no explanation of an empty result:\n%s", text)
	}
	s.Press("L")
	s.WaitText("Largest count with any offering:")
	m := final(s)
	if nothing := strings.Contains(ansi.Strip(m.View().Content), "Nothing found in"); !nothing || m.Inspect().Search.Table().Len() != 0 {
		t.Fatalf("nothing found said %v, table %d; want an empty result", nothing, m.Inspect().Search.Table().Len())
	}
	calls, alts := b.answered()
	if calls != 1 || len(alts) == 0 {
		t.Fatalf("the adapter, asked %d times, suggested no alternative for 64 × p5.48xlarge for 14 days", calls)
	}
	view := ansi.Strip(m.View().Content)
	for _, a := range alts {
		if a.Offerings <= 0 || a.Description == "" || a.Query.Validate(testNow) != nil {
			t.Errorf("suggestion %+v: want a description, offerings and a valid query", a)
		}
		if !strings.Contains(view, a.Description) {
			t.Errorf("suggestion %q is not listed:\n%s", a.Description, view)
		}
	}
	probe := probeOnScreen(m)
	if len(probe) != 1 || probe[0].region != "us-east-1" || probe[0].err != "" {
		t.Fatalf("probe %+v: want one answer for us-east-1", probe)
	}
	if c := probe[0].count; c < 0 || c >= 64 {
		t.Errorf("largest count %d: 64 found nothing, so it must be below 64", c)
	}
	// With no row, enter takes the chosen alternative: the footer says so, not "buy".
	if foot := lastLine(m); !strings.Contains(foot, "enter search the chosen alternative") || strings.Contains(foot, "buy") || !strings.Contains(foot, "L largest count") {
		t.Errorf("footer of an empty result: %q", foot)
	}

	// The first alternative, chosen and taken with enter, is searched and finds what it
	// promised.
	s2 := newScreen(t, m, 160, 48)
	s2.Press("down", "up", "enter")
	got := s2.FoundCount()
	if got == 0 {
		t.Errorf("the first alternative (%s) found nothing", alts[0].Description)
	}
	final(s2)
}

// A region that is down is reported with its message; the others complete.
func TestRegionDown(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-west-2"}})
	s := newScreen(t, ui.New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	found := s.FoundCount()
	text := s.WaitText("1 region failed")
	m := final(s)
	_, regions := regionsOnScreen(t, m)
	if st := regions["us-west-2"]; st.state != "error" || st.message == "" {
		t.Errorf("us-west-2: %+v, want an error with a message", st)
	}
	ok := 0
	for r, st := range regions {
		if r != "us-west-2" && st.state == "ok" {
			ok++
		}
	}
	if ok < 2 || found == 0 {
		t.Errorf("%d other regions ok, %d offerings; want the others to complete", ok, found)
	}
	for i := 0; i < m.Inspect().Search.Table().Visible(); i++ {
		if m.Inspect().Search.Table().Row(i).Region == "us-west-2" {
			t.Errorf("a row from the region that is down: %+v", m.Inspect().Search.Table().Row(i))
		}
	}
	if !strings.Contains(text, "us-west-2") || !strings.Contains(text, "error") {
		t.Errorf("the screen does not show the failed region:\n%s", text)
	}
}

// When no region answers, the screen says the search failed, not that nothing is on offer.
func TestEveryRegionDown(t *testing.T) {
	eb, _ := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-east-1"}})
	b := &altsRecorder{Backend: eb}
	s := newScreen(t, ui.New(testOptions(b)), 100, 30)
	s.WaitText("SIMULATED")
	s.Press("enter")
	text := s.WaitText("failed in every region")
	m := final(s)
	// The search is over and no probe was asked for, so a busy screen would be looking
	// for alternatives.
	if strings.Contains(text, "No offerings for") || m.Inspect().Search.Busy() || asked(b) {
		t.Errorf("a failed search was treated as an empty one:\n%s", text)
	}
	if _, regions := regionsOnScreen(t, m); regions["us-east-1"].state != "error" || !strings.Contains(text, regions["us-east-1"].message[:min(20, len(regions["us-east-1"].message))]) {
		t.Errorf("us-east-1 %+v; the screen should carry its message:\n%s", regions["us-east-1"], text)
	}
}
