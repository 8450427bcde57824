package cmdtest

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// errHelpShown is what the parse helpers return when the arguments asked for help.
var errHelpShown = errors.New("help was shown")

// ParseCommand runs `gpublock NAME args...` through cobra up to the command's checks, with
// mk's command under a root that declares the AWS flags as the real one does; mk is given
// the Factory and returns the command with a run that stops there (NewCmdX(f, runF)).
func ParseCommand(args []string, stderr io.Writer, mk func(*cmdutil.Factory) *cobra.Command) error {
	root := &cobra.Command{Use: "gpublock", SilenceErrors: true, SilenceUsage: true}
	f := cmdutil.New("test", cmdutil.System(io.Discard, stderr))
	f.AWS.Register(root.PersistentFlags())
	sub := mk(f)
	root.AddCommand(sub)
	return Parse(root, append([]string{sub.Name()}, args...), stderr)
}

// Parse runs args through root up to the command's checks, whose run stops there.
func Parse(root *cobra.Command, args []string, stderr io.Writer) error {
	root.SetFlagErrorFunc(cmdutil.FlagError)
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(stderr)
	ran := false
	root.PersistentPostRun = func(*cobra.Command, []string) { ran = true }
	err := root.Execute()
	if err == nil && !ran {
		return errHelpShown
	}
	return err
}
