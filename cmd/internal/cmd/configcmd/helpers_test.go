package configcmd

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock config` as the program does.
var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdConfig(f) }}
