package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/ui"
)

func init() {
	commands[""] = command{summary: "start the terminal UI", run: runTUI}
}

// tuiOptions reads the TUI's flags. It is separate from runTUI so that the flags are
// tested without a terminal.
func tuiOptions(args []string, stderr io.Writer) (*awsFlags, bool, error) {
	fs := flag.NewFlagSet("gpublock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gpublock [flags]   start the terminal UI (gpublock help lists the commands)")
		fs.PrintDefaults()
	}
	var f awsFlags
	f.register(fs)
	noColor := fs.Bool("no-color", false, "draw without colour (also when $NO_COLOR is set)")
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	if fs.NArg() > 0 {
		return nil, false, usagef("unexpected argument %q (gpublock help lists the commands)", fs.Arg(0))
	}
	if err := f.validate(); err != nil {
		return nil, false, err
	}
	f.autoDemo = true
	return &f, *noColor || os.Getenv("NO_COLOR") != "", nil
}

func runTUI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, noColor, err := tuiOptions(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stderr, "gpublock:", err)
		}
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	client, info, err := openBackend(ctx, f, stderr)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stderr, "gpublock:", err)
			return 2
		}
		fmt.Fprintln(stderr, "gpublock:", aws.ExplainError(err).String())
		return 1
	}
	// Relative dates and the 8-week limit are read on the backend's clock: the emulator's
	// may be moved. Its offset is read once, so the UI's clock is never I/O.
	var offset time.Duration
	if info.Endpoint != "" {
		offset = client.Now(ctx).Sub(time.Now())
	}
	opts := ui.Options{
		Backend:   ui.FromAWS(client),
		Simulated: info.Mode == modeSimulated,
		Profile:   client.Profile(),
		Region:    client.Region(),
		NoColor:   noColor,
		Now:       func() time.Time { return time.Now().Add(offset) },
		Context:   ctx,
	}
	switch {
	case info.Sim != nil && !f.demo: // openBackend fell back to the simulator
		opts.Notice = "No AWS credentials found: this is the built-in simulator (as --demo). Nothing is real; nothing can be bought."
	case opts.Simulated && info.Sim == nil:
		opts.Notice = "This is the emulator at " + info.Endpoint + " (gpublock sim): nothing is real; nothing can be bought."
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(stdout)}
	if noColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	if _, err := tea.NewProgram(ui.New(opts), popts...).Run(); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, tea.ErrInterrupted) {
		fmt.Fprintln(stderr, "gpublock:", err)
		return 1
	}
	return 0
}
