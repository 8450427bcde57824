package ui

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
)

// exportTable writes the offerings as the table shows them (filtered and sorted, each with
// the comparison the table made with its catalog) to a CSV in the current directory, in
// the format of gpublock offerings -o csv. The rows are copied here; the file is written in
// the command.
func (m Model) exportTable() (tea.Model, tea.Cmd) {
	n := m.table.Visible()
	switch {
	case m.table.Len() == 0:
		m.flash = "Nothing to export: search first, then ctrl+s saves the table as CSV."
		return m, nil
	case n == 0:
		m.flash = "Nothing to export: the filter hides every offering (esc clears it)."
		return m, nil
	}
	cmps := make([]pricing.Comparison, n)
	for i := range cmps {
		cmps[i] = m.table.RowComparison(i)
	}
	now := m.pc.Clock.Now()
	return m, func() tea.Msg {
		path, err := writeExport(".", now, cmps)
		if err != nil {
			return rootMsg{Flash: "Nothing exported: cannot write the CSV: " + err.Error()}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return rootMsg{Flash: fmt.Sprintf("Wrote %s to %s", plural(len(cmps), "offering"), path)}
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
