// Package filelock is how gpublock's shared files are kept whole: the one advisory lock they
// take (the emulator's state, the market cache, and the local store of records, aws/store), so that several processes updating one file do not lose each other's changes,
// and the one atomic write that replaces a file, so that a reader or a crash never sees half
// of one.
package filelock
