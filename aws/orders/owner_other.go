//go:build !unix

package orders

// processGone cannot tell here: every claim waits for its lease.
func processGone(int) bool { return false }
