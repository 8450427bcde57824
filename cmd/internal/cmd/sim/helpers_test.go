package sim

import (
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs `gpublock sim` as the program does.
var cli = cmdtest.NewCLI(NewCmdSim)
