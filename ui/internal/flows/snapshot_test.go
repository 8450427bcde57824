package flows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/snapshot/snapshottest"
)

// ctrl+g writes the screen as an SVG into the current directory, named by what it shows
// and when, never over a file; a real parser reads it (rsvg-convert where installed, and
// required under GPUBLOCK_REQUIRE_SVG_RENDERER=1; Go's encoding/xml always), and its text
// holds the table's rows.
func TestSnapshotHoldsTheTable(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	opts := testOptions(nil)
	opts.NoColor = false
	m := update(ui.New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	offs := uitest.SyntheticOfferings(8)
	m = withResults(m, offs)

	save := func(m ui.Model) ui.Model {
		t.Helper()
		mm, cmd := m.Update(uitest.Key("ctrl+g"))
		if cmd == nil {
			t.Fatal("ctrl+g gave no command")
		}
		return update(mm.(ui.Model), cmd())
	}
	m = save(m)
	name := filepath.Join(dir, "gpublock-offerings-"+testNow.UTC().Format("20060102-1504")+".svg")
	if !strings.Contains(m.Inspect().Flash, name) {
		t.Errorf("the status line does not say the path %s: %q", name, m.Inspect().Flash)
	}
	doc, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := snapshottest.Lines(t, doc)
	text := strings.Join(lines, "\n")
	for _, o := range offs {
		if !uitest.RowWithAll(text, o.InstanceType, o.AvailabilityZone, o.Fee.Dollars()) {
			t.Errorf("no line of the SVG holds the row %s %s %s:\n%s", o.InstanceType, o.AvailabilityZone, o.Fee.Dollars(), text)
		}
	}
	if !strings.Contains(string(doc), `fill="#`) || strings.Count(string(doc), "fill=") < 10 {
		t.Error("the SVG keeps no colours")
	}
	snapshottest.Render(t, doc)

	// A second picture in the same minute goes beside the first.
	before, _ := os.ReadFile(name)
	m = save(m)
	if after, _ := os.ReadFile(name); string(after) != string(before) {
		t.Error("the second picture was written over the first")
	}
	if !strings.Contains(m.Inspect().Flash, strings.TrimSuffix(name, ".svg")+"-2.svg") {
		t.Errorf("the second picture is not -2: %q", m.Inspect().Flash)
	}
}
