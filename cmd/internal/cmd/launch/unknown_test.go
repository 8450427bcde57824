package launch

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

func TestLaunchUnknownReservation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, "cr-0123456789abcdef0", "--yes")...)
	if code != 1 || !strings.Contains(errs, "no Capacity Block cr-0123456789abcdef0 in us-east-1") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}
