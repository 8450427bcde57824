package flows

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// The tests' clock: the UI's Now and the emulator's start.
var (
	testNow = uitest.Now
	testLoc = uitest.Loc
)

// emulatorBackend is the emulator of the UI's tests (seed 7, at testNow) through the real
// adapters and SDK, as the root's tests have it.
func emulatorBackend(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Backend(t, ec2sim.Options{Seed: 7, Start: testNow, Faults: faults})
}

func testOptions(b source.Backend) ui.Options {
	return ui.Options{
		Backend: b, Simulated: true, Profile: "test", Region: "us-east-1", NoColor: true,
		Now: func() time.Time { return testNow }, Location: testLoc,
		// A person who reads before every key: each reading is past the confirmation's dwell.
		Wall: spend.NewFakeClock(testNow, 2*model.ConfirmDwell).Now,
	}
}

// actionTestOptions are the test options with a short poll, so that receipts and launches
// look at their block again at once (the emulator's clock only moves when a test moves it).
func actionTestOptions(b source.Backend) ui.Options {
	o := testOptions(b)
	o.PollInterval = 5 * time.Millisecond
	return o
}

// newScreen runs the program in a terminal of w×h.
func newScreen(t testing.TB, m ui.Model, w, h int) *uitest.Screen {
	t.Helper()
	return uitest.NewScreen(t, m, w, h)
}

// final quits the program and returns its last model.
func final(s *uitest.Screen) ui.Model {
	s.T.Helper()
	return s.Final().(ui.Model)
}
