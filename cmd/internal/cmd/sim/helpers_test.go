package sim

import (
	"context"
	"io"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

func cliFactory(stdout, stderr io.Writer) *cmdutil.Factory {
	return cmdutil.New("test", cmdutil.System(stdout, stderr))
}

// runWith runs `gpublock sim` as the program does.
func runWith(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.Exec(ctx, f, NewCmdSim(f, nil), args...)
}
