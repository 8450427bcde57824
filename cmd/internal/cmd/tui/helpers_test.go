package tui

import (
	"context"
	"io"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/ui/dialog"
)

// tuiOptions reads the TUI's flags, without a terminal: its AWS flags and whether it
// draws without colour.
func tuiOptions(args []string, stderr io.Writer) (*cmdutil.AWSFlags, bool, error) {
	a, err := parseTUI(args, stderr)
	return a.AWS, a.noColor, err
}

// parseTUI reads the TUI's flags as the root command does, for the tests of parsing.
func parseTUI(args []string, stderr io.Writer) (Options, error) {
	var got Options
	root := NewCmdTUI(cmdutil.New("test", cmdutil.System(io.Discard, stderr)), func(a *Options) error { got = *a; return nil })
	err := cmdtest.Parse(root, args, stderr)
	return got, err
}

// cli runs `gpublock` with no command, the TUI, as the program does.
var cli = cmdtest.CLI{Exec: func(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.ExecRoot(ctx, f, NewCmdTUI(f, nil), args...)
}}

// flashes keeps what the TUI's on-call rounds say on the status line (the messages that
// refresh the screens), as the program would show them.
type flashes struct {
	mu   sync.Mutex
	said []string
}

func (f *flashes) send(msg tea.Msg) {
	if m, ok := msg.(dialog.RootMsg); ok && m.Refresh {
		f.mu.Lock()
		f.said = append(f.said, m.Flash)
		f.mu.Unlock()
	}
}

// all is what was said so far.
func (f *flashes) all() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.said...)
}

// tuiBackend is the client as the TUI opens it with args: the journal and the attached
// launches are this machine's.
func tuiBackend(t *testing.T, ctx context.Context, args []string) *awsapi.Client {
	t.Helper()
	flags, _, err := tuiOptions(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	client, _, err := cmdutil.OpenBackend(ctx, flags, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return client
}
