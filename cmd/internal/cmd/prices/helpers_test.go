package prices

import (
	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs `gpublock prices` as the program does, with `gpublock sim` to serve it.
var cli = cmdtest.NewCLI(NewCmdPrices, cmdtest.Cmd(sim.NewCmdSim))
