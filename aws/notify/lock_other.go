//go:build !unix

package notify

import "os"

// Without flock (Windows), runs at once on one record are not kept from each other: a
// warning may then be sent twice, and one run's record may lose the other's.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }
