// Package filelock is the one advisory lock that gpublock's shared files take (the
// emulator's state, the notification record, the market cache), so that several processes
// updating one file do not lose each other's changes.
package filelock
