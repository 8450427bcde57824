package cmdutil

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/fang/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// FangHelp is fang's styled help renderer, taken from a command it was applied to.
func FangHelp() func(*cobra.Command, []string) {
	probe := &cobra.Command{Use: "probe", Run: func(*cobra.Command, []string) {}}
	probe.SetArgs([]string{})
	probe.SetOut(io.Discard)
	probe.SetErr(io.Discard)
	_ = fang.Execute(context.Background(), probe, fang.WithoutManpage(), fang.WithoutCompletions(), fang.WithoutVersion())
	styled := probe.HelpFunc()
	plain := (&cobra.Command{}).HelpFunc() // cobra's own template: text alone
	return func(c *cobra.Command, args []string) {
		if DumbTerminal() && term.IsTerminal(os.Stdout.Fd()) {
			// fang asks the terminal on stdout for its background colour, an escape
			// sequence a dumb terminal prints as it is. (Off a terminal it asks nothing.)
			plain(c, args)
			return
		}
		styled(c, args)
	}
}

// DumbTerminal reports TERM=dumb: a terminal that takes no escape sequence at all.
func DumbTerminal() bool { return os.Getenv("TERM") == "dumb" }

// GroupedHelp prints help without the AWS flags, then the AWS flags under their own heading.
// The AWS flags are the root's persistent ones: a command's own flag of the same name (the
// Price List endpoint of prices, the signing region of sim) is the command's, listed with it.
func GroupedHelp(help func(*cobra.Command, []string)) func(*cobra.Command, []string) {
	return func(c *cobra.Command, args []string) {
		persistent := c.Root().PersistentFlags()
		noAWS := false
		for p := c; p != nil; p = p.Parent() {
			noAWS = noAWS || p.Annotations[AnnotationNoAWS] != ""
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
			if f.Name == "region" && c.Annotations[AnnotationOneRegion] != "" {
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
