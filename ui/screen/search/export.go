package search

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
	"github.com/gpublock/gpublock/ui/internal/newfile"
	"github.com/gpublock/gpublock/ui/screen"
)

// exportTable writes the offerings as the table shows them (filtered and sorted, each with
// the comparison the table made with its catalog) to a CSV in the current directory, in
// the format of gpublock offerings -o csv. The rows are copied here; the file is written in
// the command.
func (m Model) exportTable() (Model, tea.Cmd) {
	n := m.table.Visible()
	switch {
	case m.table.Len() == 0:
		m.flash = screen.Say("Nothing to export: search first, then ctrl+s saves the table as CSV.")
		return m, nil
	case n == 0:
		m.flash = screen.Say("Nothing to export: the filter hides every offering (esc clears it).")
		return m, nil
	}
	cmps := make([]pricing.Comparison, 0, n)
	plans := 0
	for i := range n {
		c := m.table.RowComparison(i)
		if !export.InCSV(c.Offering) {
			plans++
			continue
		}
		cmps = append(cmps, c)
	}
	left := ""
	if plans > 0 {
		left = fmt.Sprintf(" (%s left out: the CSV has Capacity Blocks' columns only; gpublock offerings --source training-plans -o json lists them)",
			screen.Plural(plans, "training plan"))
	}
	if len(cmps) == 0 {
		m.flash = screen.Say("Nothing exported: every offering shown is a training plan" + left + ".")
		return m, nil
	}
	now := m.pc.Now()
	return m, func() tea.Msg {
		path, err := writeExport(".", now, cmps)
		if err != nil {
			return exportedMsg{"Nothing exported: cannot write the CSV: " + err.Error()}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return exportedMsg{fmt.Sprintf("Wrote %s to %s%s", screen.Plural(len(cmps), "offering"), path, left)}
	}
}

// writeExport writes the CSV to a new file in dir (newfile's name, never over a file).
func writeExport(dir string, now time.Time, cmps []pricing.Comparison) (string, error) {
	return newfile.Write(dir, "offerings", now, ".csv", nil, func(w io.Writer) error { return export.WriteCSV(w, cmps) })
}
