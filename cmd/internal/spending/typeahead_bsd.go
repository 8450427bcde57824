//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package spending

import (
	"os"

	"golang.org/x/sys/unix"
)

// fread is FREAD of <sys/fcntl.h>, the same on every BSD and on macOS; x/sys/unix does not
// define it. Given to TIOCFLUSH it names the input queue, as tcflush(fd, TCIFLUSH) does there.
const fread = 0x0001

// fionread is FIONREAD of <sys/filio.h>, _IOR('f', 127, int), the same on every BSD and on
// macOS; x/sys/unix does not define it there.
const fionread = 0x4004667f

// discardTypeAhead throws away what was typed at the terminal before the confirmation
// prompt appeared, so that a "buy" typed ahead, before the person could read what it buys,
// never confirms anything.
func discardTypeAhead(f *os.File) {
	_ = unix.IoctlSetPointerInt(int(f.Fd()), unix.TIOCFLUSH, fread)
}

// pendingInput is how many bytes wait in the terminal's input queue: in canonical mode,
// those of whole lines.
func pendingInput(f *os.File) int {
	n, err := unix.IoctlGetInt(int(f.Fd()), fionread)
	if err != nil {
		return 0
	}
	return n
}
