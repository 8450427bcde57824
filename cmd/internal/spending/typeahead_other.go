//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package spending

import "os"

// discardTypeAhead is a no-op where no terminal flush is wired (Windows, Solaris, Plan 9…):
// there the prompt may read input typed ahead of it.
func discardTypeAhead(*os.File) {}

// pendingInput is unknown where no terminal ioctl is wired: nothing is said discarded.
func pendingInput(*os.File) int { return 0 }
