package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"charm.land/fang/v2"
	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const rootLong = "gpublock finds, prices, books, launches into and watches short-term AWS GPU capacity: EC2 Capacity Blocks for ML and SageMaker Training Plans. " +
	"With no command it starts the terminal UI. The AWS flags (--profile, --region, --endpoint-url, " +
	"--demo, --read-only, --max-spend, ...) work before or after the command name.\n\n" +
	"Exit status: 0 ok, 1 failure, 2 bad usage; some commands document a 3 of their own."

// execute runs the command line: every command is a cobra command, its flags pflag's; the
// AWS flags are the root's persistent flags, so they work before or after the command name.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRootCmd(ctx)
	root.SetArgs(goFlagForms(root, args))
	root.SetOut(stdout)
	root.SetErr(stderr)
	// The completion command is cobra's, made here because its scripts go to the output set
	// just above; a shell it does not know is bad usage, not its help.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Args = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("no completion for %q: bash, zsh, fish or powershell", args[0])
			}
			return nil
		}
		c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	// fang.Execute would install its styled help on the root, which lists every flag in
	// one section; the root's help is fang's with the AWS flags taken out into their own.
	root.SilenceUsage, root.SilenceErrors = true, true
	root.Version = version
	root.SetHelpFunc(groupedHelp(fangHelp()))
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		printError(stderr, cmd, err)
	}
	return err
}

// fangHelp is fang's styled help renderer, taken from a command it was applied to.
func fangHelp() func(*cobra.Command, []string) {
	probe := &cobra.Command{Use: "probe", Run: func(*cobra.Command, []string) {}}
	probe.SetArgs([]string{})
	probe.SetOut(io.Discard)
	probe.SetErr(io.Discard)
	_ = fang.Execute(context.Background(), probe, fang.WithoutManpage(), fang.WithoutCompletions(), fang.WithoutVersion())
	return probe.HelpFunc()
}

// groupedHelp prints help without the AWS flags, then the AWS flags under their own heading.
// The AWS flags are the root's persistent ones: a command's own flag of the same name (the
// Price List endpoint of prices, the signing region of sim) is the command's, listed with it.
func groupedHelp(help func(*cobra.Command, []string)) func(*cobra.Command, []string) {
	return func(c *cobra.Command, args []string) {
		persistent := c.Root().PersistentFlags()
		noAWS := false
		for p := c; p != nil; p = p.Parent() {
			noAWS = noAWS || p.Annotations[annotationNoAWS] != ""
		}
		var shared []*pflag.Flag
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if awsFlagNames[f.Name] && !f.Hidden && persistent.Lookup(f.Name) == f {
				f.Hidden = true
				shared = append(shared, f)
			}
		})
		defer func() {
			for _, f := range shared {
				f.Hidden = false
			}
		}()
		help(c, args)
		if noAWS || len(shared) == 0 {
			return
		}
		width := 0
		for _, f := range shared {
			width = max(width, len(f.Name)+2)
		}
		w := c.OutOrStdout()
		fmt.Fprintln(w, "  AWS FLAGS (before or after the command name)")
		fmt.Fprintln(w)
		for _, f := range shared {
			def, usage := "", f.Usage
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
				def = " (" + f.DefValue + ")"
			}
			if f.Name == "region" && c.Annotations[annotationOneRegion] != "" {
				usage = oneRegionUsage
			}
			if usage != "" { // capitalised as fang does the command's own flags
				usage = strings.ToUpper(usage[:1]) + usage[1:]
			}
			fmt.Fprintf(w, "    %-*s  %s%s\n", width, "--"+f.Name, usage, def)
		}
		fmt.Fprintln(w)
	}
}

// printError says what went wrong in one line and where help is, for the errors cobra
// finds itself and the usage errors of a command's checks; a command's exitError has been
// explained by the command.
func printError(w io.Writer, cmd *cobra.Command, err error) {
	var ee exitError
	if errors.As(err, &ee) {
		return
	}
	if cmd == nil || !cmd.HasParent() || cmd.Name() == "help" {
		fmt.Fprintf(w, "gpublock: %v\n", err)
		fmt.Fprintln(w, "Run 'gpublock --help' for the commands and flags.")
		return
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	var ue usageError
	if !errors.As(err, &ue) {
		fmt.Fprintf(w, "gpublock %s: %v\n", name, err)
		return
	}
	reportUsage(w, name, err)
}

// codeError is the error RunE returns for a command's exit status.
func codeError(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code}
}

func newRootCmd(ctx context.Context) *cobra.Command {
	g := new(awsFlags)
	root := tuiCmd(g, func(cmd *cobra.Command, a tuiArgs) error {
		return codeError(runTUI(cmd.Context(), a, cmd.OutOrStdout(), cmd.ErrOrStderr()))
	})
	root.SetFlagErrorFunc(flagError)
	root.SetContext(ctx)
	root.AddGroup(&cobra.Group{ID: "capacity", Title: "Capacity Blocks and Training Plans"}, &cobra.Group{ID: "tools", Title: "Tools"})
	for _, mk := range awsCommands {
		root.AddCommand(mk(ctx, g))
	}
	for _, mk := range nativeCommands {
		root.AddCommand(mk(ctx))
	}
	root.AddCommand(manCmd(), versionCmd())
	root.SetHelpCommand(helpCmd())
	root.SetHelpCommandGroupID("tools")
	root.SetCompletionCommandGroupID("tools")
	for _, c := range root.Commands() {
		if c.GroupID == "" && c.Name() != "man" {
			c.GroupID = "capacity"
			if slices.Contains(toolCommands, c.Name()) {
				c.GroupID = "tools"
			}
		}
	}
	plainUsage(root)
	completeValues(root)
	return root
}

// nativeCommands are the commands written as cobra commands (flags, arguments and help
// cobra's own), added by their files' init functions.
var nativeCommands []func(context.Context) *cobra.Command

// unknownCommand is the bad usage of a command name parent does not have, with the names
// it has that are close (cobra's suggestions: a typo, a prefix or a command's SuggestFor).
func unknownCommand(parent *cobra.Command, name string) error {
	what := "gpublock help lists the commands"
	if parent.HasParent() {
		what = "gpublock help " + strings.TrimPrefix(parent.CommandPath(), parent.Root().Name()+" ") + " lists its commands"
	}
	if parent.SuggestionsMinimumDistance <= 0 {
		parent.SuggestionsMinimumDistance = 2 // cobra's own default, which SuggestionsFor alone does not set
	}
	if near := parent.SuggestionsFor(name); len(near) > 0 {
		return usagef("unknown command %q. Did you mean: %s? (%s)", name, strings.Join(near, " or "), what)
	}
	return usagef("unknown command %q (%s)", name, what)
}

// noArgs is cobra.NoArgs as bad usage (exit 2); a command without commands of its own
// takes every option as a flag, and says so.
func noArgs(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return nil
	case cmd.HasSubCommands():
		return unknownCommand(cmd, args[0])
	}
	return usagef("unexpected argument %q; every option is a flag", args[0])
}

// annotationNoAWS marks a command that takes none of the AWS flags: its help leaves
// them out and refuseAWSFlags refuses them.
const annotationNoAWS = "gpublock/no-aws-flags"

// annotationOneRegion marks a command that acts in one region: its help says so of --region.
const annotationOneRegion = "gpublock/one-region"

const oneRegionUsage = "the one AWS region of the Capacity Block or offering (default: $AWS_REGION or the profile's)"

// refuseAWSFlags refuses the root's AWS flags given to a command that takes none of them;
// a flag of its own with the same name is its own.
func refuseAWSFlags(cmd *cobra.Command, _ []string) error {
	var given []string
	// Visit would see none: the set of inherited flags is made afresh, without what was set.
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if awsFlagNames[f.Name] && f.Changed {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		return usagef("the AWS flags are not for this command (%s given)", strings.Join(given, ", "))
	}
	return nil
}

// toolCommands are listed apart from the Capacity Block commands in help.
var toolCommands = []string{"sim", "prices", "journal", "config", "version", "completion"}

func manCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man",
		Short:  "print the manual page (roff)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			page, err := mango.NewManPage(1, cmd.Root())
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), page.Build(roff.NewDocument()))
			return err
		},
	}
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "print the version",
		GroupID: "tools",
		Args:    noArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "gpublock", version)
		},
	}
}

// awsFlagNames are the flags awsFlags.register declares, listed apart in every help.
var awsFlagNames = func() map[string]bool {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	new(awsFlags).register(fs)
	names := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
	return names
}()

// helpCmd is `gpublock help [COMMAND]`; an unknown command is bad usage, not the root's help.
func helpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "help about any command",
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var out []cobra.Completion
			for _, sub := range c.Root().Commands() {
				if sub.IsAvailableCommand() && len(args) == 0 {
					out = append(out, sub.Name())
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 && target == c.Root() || target == nil {
				return unknownCommand(c.Root(), strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}
