package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/advise"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/configcmd"
	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/iampolicy"
	"github.com/gpublock/gpublock/cmd/internal/cmd/journal"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/order"
	"github.com/gpublock/gpublock/cmd/internal/cmd/prices"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmd/report"
	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/tui"
	"github.com/gpublock/gpublock/cmd/internal/cmd/use"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// execute runs the command line: every command is a cobra command, its flags pflag's; the
// AWS flags are the root's persistent flags, so they work before or after the command name.
func execute(ctx context.Context, f *cmdutil.Factory, args []string) error {
	stdout, stderr := f.IOStreams.Out, f.IOStreams.ErrOut
	root := newRootCmd(ctx, f)
	root.SetArgs(goFlagForms(root, args))
	root.SetOut(stdout)
	root.SetErr(stderr)
	// The completion command is cobra's, made here because its scripts go to the output set
	// just above; a shell it does not know is bad usage, not its help.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Args = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.Usagef("no completion for %q: bash, zsh, fish or powershell", args[0])
			}
			return nil
		}
		c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	// fang.Execute would install its styled help on the root, which lists every flag in
	// one section; the root's help is fang's with the AWS flags taken out into their own.
	root.SilenceUsage, root.SilenceErrors = true, true
	root.Version = f.Version
	root.SetHelpFunc(cmdutil.GroupedHelp(cmdutil.FangHelp()))
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		cmdutil.PrintError(stderr, cmd, err)
	}
	return err
}

func newRootCmd(ctx context.Context, f *cmdutil.Factory) *cobra.Command {
	root := tui.NewCmdTUI(f, nil)
	root.SetFlagErrorFunc(cmdutil.FlagError)
	root.SetContext(ctx)
	root.AddGroup(&cobra.Group{ID: "capacity", Title: "Capacity Blocks and Training Plans"}, &cobra.Group{ID: "tools", Title: "Tools"})
	root.AddCommand(
		advise.NewCmdAdvise(f, nil),
		blocks.NewCmdBlocks(f, nil),
		extend.NewCmdExtend(f, nil),
		journal.NewCmdJournal(f, nil),
		launch.NewCmdLaunch(f, nil),
		offerings.NewCmdOfferings(f, nil),
		order.NewCmdOrder(f, nil),
		purchase.NewCmdPurchase(f, nil),
		report.NewCmdReport(f, nil),
		configcmd.NewCmdConfig(f),
		prices.NewCmdPrices(f, nil),
		sim.NewCmdSim(f, nil),
		use.NewCmdUse(f, nil),
		blocks.NewCmdWatch(f, nil),
		iampolicy.NewCmdIAMPolicy(f, nil),
	)
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
	cmdutil.PlainUsage(root)
	completeValues(root)
	return root
}

// toolCommands are listed apart from the Capacity Block commands in help.
var toolCommands = []string{"sim", "prices", "journal", "config", "iam-policy", "version", "completion"}

func manCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man",
		Short:  "print the manual page (roff)",
		Hidden: true,
		Args:   cmdutil.NoArgs,
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
		Args:    cmdutil.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "gpublock", version)
		},
	}
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
				return cmdutil.UnknownCommand(c.Root(), strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
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
		"type":   cmdutil.CatalogNames(),
		"source": sources,
		"target": cmdutil.SourceTargets(nil),
		"screen": tui.Screens,
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
	if cmd.Annotations[cmdutil.AnnotationOneRegion] == "" {
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
