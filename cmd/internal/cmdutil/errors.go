package cmdutil

import (
	"errors"
	"fmt"
	"io"

	"github.com/gpublock/gpublock/aws/awsapi"
)

// ExitError carries a command's exit status; the command has already said why.
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// CodeError is the error RunE returns for a command's exit status.
func CodeError(code int) error {
	if code == 0 {
		return nil
	}
	return ExitError{code}
}

// UsageError is bad usage: exit 2, with a message naming the flag and what is allowed.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// ReportUsage prints a usage error and returns exit code 2.
func ReportUsage(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "gpublock %s: %v\n", cmd, err)
	fmt.Fprintf(stderr, "Run 'gpublock %s --help' for its flags.\n", cmd)
	return 2
}

// BackendFailure reports a failure to open the backend: exit 2 for bad flags, else 1.
func BackendFailure(stderr io.Writer, cmd string, err error) int {
	var ue UsageError
	if errors.As(err, &ue) {
		return ReportUsage(stderr, cmd, err)
	}
	fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, awsapi.ExplainError(err))
	return 1
}
