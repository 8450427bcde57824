package purchase

import (
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs `gpublock purchase` as the program does, with offerings to find what to buy and
// blocks to see what was bought.
var cli = cmdtest.NewCLI(NewCmdPurchase, cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))
