//go:build race

package uitest

// RaceBuild: the tests run with -race, so a program they build uses it too and reuses the
// packages already compiled for the test, instead of compiling them all a second time.
const RaceBuild = true
