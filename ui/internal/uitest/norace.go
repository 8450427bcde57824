//go:build !race

package uitest

// RaceBuild: the tests run without -race.
const RaceBuild = false
