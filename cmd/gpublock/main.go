// Command gpublock finds, prices, books, launches into and watches AWS EC2 Capacity Blocks
// for ML. With no subcommand it starts the terminal UI.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program behind main, for tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, cmdutil.New(version, cmdutil.System(stdout, stderr)), args)
}

// runWith runs the command line with f: it is parsed by cobra (root.go) and every error it
// returns is mapped to the exit status here, once.
func runWith(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdutil.ExitCode(execute(ctx, f, args))
}
