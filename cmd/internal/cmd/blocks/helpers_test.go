package blocks

import (
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs `gpublock blocks` as the program does, with the commands its tests run to buy
// what it acts on and to launch into it.
var cli = cmdtest.NewCLI(NewCmdBlocks, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(launch.NewCmdLaunch))
