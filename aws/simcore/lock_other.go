//go:build !unix

package simcore

import "os"

// Without flock (Windows), emulators on one state file are not kept from each other:
// run one per file there.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }
