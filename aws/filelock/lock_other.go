//go:build !unix

package filelock

import "os"

// Without flock (Windows), processes sharing a file are not kept from each other there.
func Lock(*os.File) error { return nil }

// Unlock releases Lock.
func Unlock(*os.File) error { return nil }

// syncDir is nothing where a directory cannot be synced (Windows: the rename is already
// durable once it returns).
func syncDir(string) error { return nil }
