package main

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// awsCommands are the commands that take the AWS flags: each constructor gets the root's
// awsFlags, which the root declares once as persistent flags.
var awsCommands []func(context.Context, *awsFlags) *cobra.Command

// outputFlag declares -o/--output, the one output flag of every command that prints for
// scripts; formats are what the command allows, for its help and its completion.
func outputFlag(cmd *cobra.Command, p *string, formats ...string) {
	cmd.Flags().StringVarP(p, "output", "o", formats[0], "output `format`: "+orList(formats))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// flagError turns what pflag refused into a usage error that names the flag and the value
// and says what is allowed, in one line (exit 2).
func flagError(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	var vre *pflag.ValueRequiredError
	switch {
	case errors.As(err, &vre) && vre.GetFlag() != nil:
		return usagef("--%s needs a value (--%s VALUE or --%s=VALUE)", vre.GetFlag().Name, vre.GetFlag().Name, vre.GetFlag().Name)
	case !errors.As(err, &ive):
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

// completeValues offers the values of the flags that take one of a known list, for every
// command that has them: regions, types, sources, screens and themes. A value the shell
// offers is one the command accepts.
func completeValues(root *cobra.Command) {
	sources := []string{"all"}
	for _, s := range model.Sources() {
		sources = append(sources, s.Name())
	}
	lists := map[string][]string{
		"type":   catalogNames(),
		"source": sources,
		"target": sourceTargets(nil),
		"screen": tuiScreens,
		"theme":  {"auto", "light", "dark"},
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range lists {
			if c.LocalFlags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if c.LocalFlags().Lookup("region") != nil {
			_ = c.RegisterFlagCompletionFunc("region", completeRegion)
		}
		if c.ValidArgsFunction == nil && c.Args != nil && !c.HasSubCommands() {
			c.ValidArgsFunction = cobra.NoFileCompletions // ids come from AWS, not from files
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeRegion offers the regions that sell Capacity Blocks, and all where the command
// searches; sim's --region is the one region its printed setup signs for.
func completeRegion(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if cmd.Name() == "sim" {
		return ec2sim.Regions(), cobra.ShellCompDirectiveNoFileComp
	}
	regions := slices.Clone(model.Regions())
	if cmd.Annotations[annotationOneRegion] == "" {
		regions = append(regions, "all")
	}
	return regions, cobra.ShellCompDirectiveNoFileComp
}

// longFlagNames are the long flags of every command: the names goFlagForms rewrites.
func longFlagNames(root *cobra.Command) map[string]*pflag.Flag {
	// cobra adds --help and --version when it runs; both take no value.
	names := map[string]*pflag.Flag{
		"help":    {Name: "help", NoOptDefVal: "true"},
		"version": {Name: "version", NoOptDefVal: "true"},
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if _, ok := names[f.Name]; !ok {
					names[f.Name] = f
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return names
}

// goFlagForms rewrites -name and -name=value, the Go flag package's spelling of a long flag
// that gpublock took before (and that scripts may still use), to --name: pflag would read
// -name as the shorthands n, a, m and e. Only the names of gpublock's long flags are
// rewritten; a value that follows a flag which takes one, and anything after --, are left.
func goFlagForms(root *cobra.Command, args []string) []string {
	names := longFlagNames(root)
	out := make([]string, len(args))
	copy(out, args)
	value := false // the previous argument was a flag waiting for its value
	for i, arg := range out {
		if arg == "--" {
			break
		}
		if value {
			value = false
			continue
		}
		dashes := 1
		if strings.HasPrefix(arg, "--") {
			dashes = 2
		} else if !strings.HasPrefix(arg, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(arg[dashes:], "=")
		f, ok := names[name]
		if !ok || len(name) < 2 {
			continue
		}
		if dashes == 1 {
			out[i] = "-" + arg
		}
		value = !hasValue && f.NoOptDefVal == ""
	}
	return out
}
