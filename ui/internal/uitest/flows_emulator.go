package uitest

import (
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
)

// Emulator is the emulator of the UI's tests (seed 7, at Now, with faults) through the real
// adapters and SDK: the backend the root's tests and the whole-app scenarios drive.
func Emulator(t testing.TB, faults ec2sim.Faults) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Backend(t, ec2sim.Options{Seed: 7, Start: Now, Faults: faults})
}
