package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// PrintError says what went wrong in one line and where help is, for the errors cobra
// finds itself and the usage errors of a command's checks; a command's ExitError has been
// explained by the command.
func PrintError(w io.Writer, cmd *cobra.Command, err error) {
	var ee ExitError
	if errors.As(err, &ee) {
		return
	}
	if cmd == nil || !cmd.HasParent() || cmd.Name() == "help" {
		fmt.Fprintf(w, "gpublock: %v\n", err)
		fmt.Fprintln(w, "Run 'gpublock --help' for the commands and flags.")
		return
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	var ue UsageError
	if !errors.As(err, &ue) {
		fmt.Fprintf(w, "gpublock %s: %v\n", name, err)
		return
	}
	ReportUsage(w, name, err)
}

// ExitCode maps what the command line returned to the process's exit status: 0 ok, the
// command's own status, or 2 for the usage errors cobra finds (unknown command or flag,
// wrong number of arguments).
func ExitCode(err error) int {
	var ee ExitError
	var ue UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &ue):
		return 2
	}
	return 1
}
