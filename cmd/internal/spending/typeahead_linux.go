package spending

import (
	"os"

	"golang.org/x/sys/unix"
)

// discardTypeAhead throws away what was typed at the terminal before the confirmation
// prompt appeared, so that a "buy" typed ahead, before the person could read what it buys,
// never confirms anything.
func discardTypeAhead(f *os.File) {
	_ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
}

// pendingInput is how many bytes wait in the terminal's input queue: in canonical mode,
// those of whole lines.
func pendingInput(f *os.File) int {
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	if err != nil {
		return 0
	}
	return n
}
