package cmdutil

import (
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/gpublock/gpublock/model"
)

// IOStreams are the program's standard streams, and whether a person is at them.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// Dwell is how long after a confirmation's prompt typed input starts to count: the
	// TUI's (model.ConfirmDwell, where the reasoning is).
	Dwell time.Duration

	stdinTTY  *bool
	stderrTTY *bool
}

// System is the process's own streams, with stdout and stderr as given.
func System(stdout, stderr io.Writer) *IOStreams {
	return &IOStreams{In: os.Stdin, Out: stdout, ErrOut: stderr, Dwell: model.ConfirmDwell}
}

// CanPrompt reports whether a person can type at In: a confirmation is asked only then.
func (s *IOStreams) CanPrompt() bool {
	if s.stdinTTY != nil {
		return *s.stdinTTY
	}
	// A mode check would take /dev/null, a character device, for a terminal; the ioctl
	// behind term.IsTerminal does not.
	f, ok := s.In.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// IsStderrTTY reports whether ErrOut is a terminal: live progress lines and the bell go
// only there, not into a log or a pipe a script reads.
func (s *IOStreams) IsStderrTTY() bool {
	if s.stderrTTY != nil {
		return *s.stderrTTY
	}
	f, ok := s.ErrOut.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// ColorEnabled reports whether colour may be drawn: not when $NO_COLOR is set and not
// empty (no-color.org).
func (s *IOStreams) ColorEnabled() bool { return os.Getenv("NO_COLOR") == "" }

// SetStdinTTY says whether In is a terminal, whatever it is.
func (s *IOStreams) SetStdinTTY(tty bool) { s.stdinTTY = &tty }

// SetStderrTTY says whether ErrOut is a terminal, whatever it is.
func (s *IOStreams) SetStderrTTY(tty bool) { s.stderrTTY = &tty }
