package launch

import (
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cli runs `gpublock launch` as the program does.
var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdLaunch(f, nil) }}

func runCLI(args ...string) (int, string, string) { return cli.Run(args...) }
