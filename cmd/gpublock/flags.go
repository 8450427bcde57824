package main

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// awsCommands are the commands that take the AWS flags: each constructor gets the root's
// awsFlags, which the root declares once as persistent flags.
var awsCommands []func(context.Context, *awsFlags) *cobra.Command

// outputFlag declares -o/--output, the one output flag of every command that prints for
// scripts; formats is what the command allows, for its help.
func outputFlag(fs *pflag.FlagSet, p *string, formats string) {
	fs.StringVarP(p, "output", "o", "table", "output `format`: "+formats)
}

// flagError turns what pflag refused into a usage error that names the flag and the value
// and says what is allowed, in one line (exit 2).
func flagError(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return usageError{err.Error()}
	}
	f, v := ive.GetFlag(), ive.GetValue()
	name := "--" + f.Name
	if f.Name == "output" {
		name = "-o"
	}
	cause := errors.Unwrap(err)
	var ne *strconv.NumError
	switch {
	case f.Value.Type() == "duration":
		return usagef("%s %q: want a duration such as 45m, 90s or 2h", name, v)
	case errors.As(cause, &ne) && ne.Func == "ParseBool":
		return usagef("%s %q: want true or false (or no value for true)", name, v)
	case errors.As(cause, &ne) && (ne.Func == "ParseInt" || ne.Func == "ParseUint"):
		return usagef("%s %q: want a whole number", name, v)
	case errors.As(cause, &ne) && ne.Func == "ParseFloat":
		return usagef("%s %q: want a number", name, v)
	case cause == nil:
		return usagef("%s %q: not allowed", name, v)
	case strings.HasPrefix(cause.Error(), strconv.Quote(v)):
		return usagef("%s %v", name, cause) // the value's own message quotes it already
	}
	return usagef("%s %q: %v", name, v, cause)
}

// exactlyOne checks a command's one positional argument; what names it, as the error says.
func exactlyOne(what func(*cobra.Command) string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usagef("want exactly one %s, got %d arguments", what(cmd), len(args))
		}
		return nil
	}
}

// noFlagArgs is noArgs for the commands whose every option is a flag.
func noFlagArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q; every option is a flag", args[0])
	}
	return nil
}

// plainUsage takes the `backquotes` out of every flag's usage: fang prints usage as it is.
func plainUsage(c *cobra.Command) {
	for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "`", "") })
	}
	for _, sub := range c.Commands() {
		plainUsage(sub)
	}
}

// errHelpShown is what the parse helpers return when the arguments asked for help.
var errHelpShown = errors.New("help was shown")

// parseCommand runs `gpublock NAME args...` through cobra up to the command's checks, with
// mk's command under a root that declares the AWS flags as the real one does; mk is given
// the awsFlags and returns the command with a run that stops there. For the tests of parsing.
func parseCommand(args []string, stderr io.Writer, mk func(*awsFlags) *cobra.Command) error {
	root := &cobra.Command{Use: "gpublock", SilenceErrors: true, SilenceUsage: true}
	g := new(awsFlags)
	g.register(root.PersistentFlags())
	sub := mk(g)
	root.AddCommand(sub)
	return executeParse(root, append([]string{sub.Name()}, args...), stderr)
}

func executeParse(root *cobra.Command, args []string, stderr io.Writer) error {
	root.SetFlagErrorFunc(flagError)
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
