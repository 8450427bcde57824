//go:build !unix

package filelock

import "os"

// Without flock (Windows), processes sharing a file are not kept from each other there.
func Lock(*os.File) error { return nil }

// Unlock releases Lock.
func Unlock(*os.File) error { return nil }
