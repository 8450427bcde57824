package ui

import (
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	helpdialog "github.com/gpublock/gpublock/ui/dialog/help"
)

// A dialog takes every key while it is open, so the footer names its keys, not those of
// the screen behind it (where q quits, / filters and enter buys).

// dialogFooter is a dialog that names its own keys for the footer.
type dialogFooter = uidialog.Footer

// dialogFooterLine is the footer's key line while d is open; false for the help, which
// leaves the screen's short help under it, the keys it explains.
func dialogFooterLine(d dialog) (string, bool) {
	if _, ok := d.(helpdialog.Model); ok {
		return "", false
	}
	if f, ok := d.(dialogFooter); ok {
		return f.Footer(), true
	}
	return "esc closes • ctrl+c quits", true
}
