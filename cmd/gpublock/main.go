// Command gpublock finds, prices, books, launches into and watches AWS EC2 Capacity Blocks
// for ML. With no subcommand it starts the terminal UI.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand. It returns the process exit code: 0 ok, 1 failure,
// 2 bad usage (and others documented by the command).
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands is filled by each subcommand's file in its init function, so that adding a
// subcommand touches only its own file.
var commands = map[string]command{}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "--help":
			usage(stdout)
			return 0
		case "version", "--version":
			fmt.Fprintln(stdout, "gpublock", version)
			return 0
		}
		if c, ok := commands[args[0]]; ok {
			return c.run(ctx, args[1:], stdout, stderr)
		}
		if args[0] != "" && args[0][0] != '-' {
			fmt.Fprintf(stderr, "gpublock: unknown command %q\n\n", args[0])
			usage(stderr)
			return 2
		}
	}
	if c, ok := commands[""]; ok { // the TUI, registered by tui.go
		return c.run(ctx, args, stdout, stderr)
	}
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gpublock: find, price, book and watch AWS EC2 Capacity Blocks for ML")
	fmt.Fprintln(w, "\nUsage: gpublock [flags]            start the terminal UI")
	fmt.Fprintln(w, "       gpublock COMMAND [flags]    run a command (COMMAND -h for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  version    print the version")
}
