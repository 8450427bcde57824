package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
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

// exportName is the file's name at now (UTC), with a suffix when an export of the same
// second exists: an export never replaces a file.
func exportName(now time.Time, try int) string {
	name := "gpublock-offerings-" + now.UTC().Format("20060102-150405")
	if try > 1 {
		name += "-" + strconv.Itoa(try)
	}
	return name + ".csv"
}

// writeExport creates a new file in dir and writes the CSV to it; a file it could not
// finish is removed, so that a half table is never left to be read as the whole.
func writeExport(dir string, now time.Time, cmps []pricing.Comparison) (string, error) {
	var (
		f    *os.File
		path string
		err  error
	)
	for try := 1; try <= 100; try++ {
		path = filepath.Join(dir, exportName(now, try))
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	err = export.WriteCSV(f, cmps)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}
