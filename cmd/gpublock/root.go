package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"charm.land/fang/v2"
	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const rootLong = "gpublock finds, prices, books, launches into and watches AWS EC2 Capacity Blocks for ML. " +
	"With no command it starts the terminal UI. The AWS flags (--profile, --region, --endpoint-url, " +
	"--demo, --read-only, --max-spend, ...) work before or after the command name.\n\n" +
	"Exit status: 0 ok, 1 failure, 2 bad usage; some commands document a 3 of their own."

// execute runs the command line. The subcommands parse their own flags (each file's
// FlagSet, with the shared awsFlags.register), so cobra hands them every argument that is
// not the command's name, including the AWS flags given before it; the root declares the
// AWS flags (persistent) and the TUI's, so that it can tell a flag's value from a command
// name and complete both.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRootCmd(ctx, args, stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
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
func groupedHelp(help func(*cobra.Command, []string)) func(*cobra.Command, []string) {
	return func(c *cobra.Command, args []string) {
		var shared []*pflag.Flag
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if awsFlagNames[f.Name] && !f.Hidden {
				f.Hidden = true
				shared = append(shared, f)
			}
		})
		for p := c; p != nil; p = p.Parent() {
			if p.Annotations[annotationNoAWS] != "" {
				defer func(fs []*pflag.Flag) {
					for _, f := range fs {
						f.Hidden = false
					}
				}(shared)
				shared = nil
			}
		}
		help(c, args)
		width := 0
		for _, f := range shared {
			f.Hidden = false
			width = max(width, len(f.Name)+2)
		}
		if len(shared) == 0 {
			return
		}
		w := c.OutOrStdout()
		fmt.Fprintln(w, "  AWS FLAGS (before or after the command name)")
		fmt.Fprintln(w)
		for _, f := range shared {
			def := ""
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
				def = " (" + f.DefValue + ")"
			}
			fmt.Fprintf(w, "    %-*s  %s%s\n", width, "--"+f.Name, f.Usage, def)
		}
		fmt.Fprintln(w)
	}
}

// printError says what went wrong in one line and where help is, for the errors cobra
// finds itself; a command's exitError has been explained by the command.
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
	fmt.Fprintf(w, "%s: %v\n", cmd.CommandPath(), err)
	fmt.Fprintf(w, "Run '%s --help' for its flags.\n", cmd.CommandPath())
}

// usageWrap marks cobra's own complaints (bad flag, wrong arguments) as bad usage: exit 2.
func usageWrap(_ *cobra.Command, err error) error { return usageError{err.Error()} }

// codeError is the error RunE returns for a command's exit status.
func codeError(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code}
}

func newRootCmd(ctx context.Context, args []string, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "gpublock",
		Short: "find, price, book and watch AWS EC2 Capacity Blocks for ML",
		Long:  rootLong,
		Example: "  gpublock --demo\n" +
			"  gpublock offerings --type p5.48xlarge --duration 2d --region all\n" +
			"  gpublock --endpoint-url http://127.0.0.1:4566 blocks -o json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q (gpublock help lists the commands)", args[0])
			}
			return nil
		},
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		// With no command the flags are the TUI's: parseTUI reads them again from the
		// original arguments, with its own checks and messages.
		RunE: func(cmd *cobra.Command, _ []string) error {
			return codeError(runTUI(ctx, args, stdout, stderr))
		},
	}
	root.SetFlagErrorFunc(usageWrap)
	root.SetContext(ctx)
	root.AddGroup(&cobra.Group{ID: "capacity", Title: "Capacity Blocks"}, &cobra.Group{ID: "tools", Title: "Tools"})

	var g awsFlags
	gfs := flag.NewFlagSet("gpublock", flag.ContinueOnError)
	g.register(gfs)
	root.PersistentFlags().AddGoFlagSet(gfs)
	var t tuiArgs
	tfs := flag.NewFlagSet("gpublock", flag.ContinueOnError)
	t.register(tfs)
	root.Flags().AddGoFlagSet(tfs)
	// The flag package marks a value's name in `backquotes`; fang prints usage as it is.
	for _, fs := range []*pflag.FlagSet{root.PersistentFlags(), root.Flags()} {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "`", "") })
	}

	names := make([]string, 0, len(commands))
	for n := range commands {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		root.AddCommand(passthrough(ctx, n, commands[n]))
	}
	for _, mk := range nativeCommands {
		root.AddCommand(mk(ctx))
	}
	root.AddCommand(manCmd(), versionCmd())
	root.SetHelpCommand(helpCmd())
	root.SetHelpCommandGroupID("tools")
	root.SetCompletionCommandGroupID("tools")
	return root
}

// nativeCommands are the commands written as cobra commands (flags, arguments and help
// cobra's own), added by their files' init functions.
var nativeCommands []func(context.Context) *cobra.Command

// noArgs is cobra.NoArgs as bad usage (exit 2).
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	return nil
}

// annotationNoAWS marks a command that takes none of the AWS flags: its help leaves
// them out and refuseAWSFlags refuses them.
const annotationNoAWS = "gpublock/no-aws-flags"

func refuseAWSFlags(cmd *cobra.Command, _ []string) error {
	var given []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if awsFlagNames[f.Name] {
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

// passthrough makes a cobra command of one of the commands map's entries: it parses its
// own flags and returns its own exit status; its help is its own usage.
func passthrough(ctx context.Context, name string, c command) *cobra.Command {
	group := "capacity"
	if slices.Contains(toolCommands, name) {
		group = "tools"
	}
	cmd := &cobra.Command{
		Use:                name,
		Short:              c.summary,
		GroupID:            group,
		DisableFlagParsing: true,
		SilenceUsage:       true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return codeError(c.run(ctx, args, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
		// Flags are completed from the command's own list, then the AWS flags.
		ValidArgsFunction: func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if !strings.HasPrefix(toComplete, "-") {
				return nil, cobra.ShellCompDirectiveDefault
			}
			var out []cobra.Completion
			for _, f := range commandFlags(ctx, c) {
				if strings.HasPrefix("--"+f, toComplete) {
					out = append(out, "--"+f)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
	}
	// `gpublock help NAME` prints the same usage as NAME -h, on stdout.
	cmd.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		c.run(ctx, []string{"-h"}, cmd.OutOrStdout(), cmd.OutOrStdout())
	})
	return cmd
}

// commandFlags are the names of a command's flags, read from its own usage (-h).
func commandFlags(ctx context.Context, c command) []string {
	var b strings.Builder
	c.run(ctx, []string{"-h"}, io.Discard, &b)
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "-") {
			continue
		}
		for _, alias := range strings.Split(line, ", ") { // -o, --output format
			name, _, _ := strings.Cut(strings.TrimLeft(alias, "-"), " ")
			if len(name) > 1 && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func manCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man",
		Short:  "print the manual page (roff)",
		Hidden: true,
		Args:   cobra.NoArgs,
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
		Args:    cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "gpublock", version)
		},
	}
}

// awsFlagNames are the flags awsFlags.register declares, listed apart in every help.
var awsFlagNames = func() map[string]bool {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	new(awsFlags).register(fs)
	names := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	return names
}()

// printFlagGroups prints a command's flags, its own first under "Flags:", then the shared
// AWS flags under a heading of their own; -o is shown with --output, the one flag it is.
func printFlagGroups(w io.Writer, fs *flag.FlagSet) {
	var own, shared []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case f.Name == "o" && fs.Lookup("output") != nil:
		case awsFlagNames[f.Name]:
			shared = append(shared, f)
		default:
			own = append(own, f)
		}
	})
	fmt.Fprintln(w, "Flags:")
	for _, f := range own {
		short := ""
		if f.Name == "output" && fs.Lookup("o") != nil {
			short = "o"
		}
		printFlag(w, f, short)
	}
	if len(shared) == 0 {
		return
	}
	fmt.Fprintln(w, "\nAWS flags (before or after the command name):")
	for _, f := range shared {
		printFlag(w, f, "")
	}
}

// printFlag prints one flag in the flag package's layout, with the -- that cobra's
// completion and the README use.
func printFlag(w io.Writer, f *flag.Flag, short string) {
	name, usage := flag.UnquoteUsage(f)
	line := "  "
	if short != "" {
		line += "-" + short + ", "
	}
	line += "--" + f.Name
	if name != "" {
		line += " " + name
	}
	line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
	switch d := f.DefValue; {
	case d == "" || d == "0" || d == "false" || d == "0s" || d == "[]":
	case fmt.Sprintf("%T", f.Value) == "*flag.stringValue":
		line += fmt.Sprintf(" (default %q)", d)
	default:
		line += " (default " + d + ")"
	}
	fmt.Fprintln(w, line)
}

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
				return usagef("no command %q (gpublock help lists the commands)", strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}
