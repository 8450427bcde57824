//go:build !linux

package main

import "os"

// discardTypeAhead is a no-op off Linux: there the prompt may read input typed ahead of it.
func discardTypeAhead(*os.File) {}
