package cmdutil

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/model"
)

// OutputFlag declares -o/--output, the one output flag of every command that prints for
// scripts; formats are what the command allows, for its help and its completion.
func OutputFlag(cmd *cobra.Command, p *string, formats ...string) {
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

// FlagError turns what pflag refused into a usage error that names the flag and the value
// and says what is allowed, in one line (exit 2).
func FlagError(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	var vre *pflag.ValueRequiredError
	switch {
	case errors.As(err, &vre) && vre.GetFlag() != nil:
		return Usagef("--%s needs a value (--%s VALUE or --%s=VALUE)", vre.GetFlag().Name, vre.GetFlag().Name, vre.GetFlag().Name)
	case !errors.As(err, &ive):
		return UsageError{err.Error()}
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
		return Usagef("%s %q: want a duration such as 45m, 90s or 2h", name, v)
	case errors.As(cause, &ne) && ne.Func == "ParseBool":
		return Usagef("%s %q: want true or false (or no value for true)", name, v)
	case errors.As(cause, &ne) && (ne.Func == "ParseInt" || ne.Func == "ParseUint"):
		return Usagef("%s %q: want a whole number", name, v)
	case errors.As(cause, &ne) && ne.Func == "ParseFloat":
		return Usagef("%s %q: want a number", name, v)
	case cause == nil:
		return Usagef("%s %q: not allowed", name, v)
	case strings.HasPrefix(cause.Error(), strconv.Quote(v)):
		return Usagef("%s %v", name, cause) // the value's own message quotes it already
	}
	return Usagef("%s %q: %v", name, v, cause)
}

// ExactlyOne checks a command's one positional argument; what names it, as the error says.
func ExactlyOne(what func(*cobra.Command) string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return Usagef("want exactly one %s, got %d arguments", what(cmd), len(args))
		}
		return nil
	}
}

// PlainUsage takes the `backquotes` out of every flag's usage: fang prints usage as it is.
func PlainUsage(c *cobra.Command) {
	for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "`", "") })
	}
	for _, sub := range c.Commands() {
		PlainUsage(sub)
	}
}

// UnknownCommand is the bad usage of a command name parent does not have, with the names
// it has that are close (cobra's suggestions: a typo, a prefix or a command's SuggestFor).
func UnknownCommand(parent *cobra.Command, name string) error {
	what := "gpublock help lists the commands"
	if parent.HasParent() {
		what = "gpublock help " + strings.TrimPrefix(parent.CommandPath(), parent.Root().Name()+" ") + " lists its commands"
	}
	if parent.SuggestionsMinimumDistance <= 0 {
		parent.SuggestionsMinimumDistance = 2 // cobra's own default, which SuggestionsFor alone does not set
	}
	if near := parent.SuggestionsFor(name); len(near) > 0 {
		return Usagef("unknown command %q. Did you mean: %s? (%s)", name, strings.Join(near, " or "), what)
	}
	return Usagef("unknown command %q (%s)", name, what)
}

// NoArgs is cobra.NoArgs as bad usage (exit 2); a command without commands of its own
// takes every option as a flag, and says so.
func NoArgs(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return nil
	case cmd.HasSubCommands():
		return UnknownCommand(cmd, args[0])
	}
	return Usagef("unexpected argument %q; every option is a flag", args[0])
}

// AnnotationNoAWS marks a command that takes none of the AWS flags: its help leaves
// them out and refuseAWSFlags refuses them.
const AnnotationNoAWS = "gpublock/no-aws-flags"

// AnnotationOneRegion marks a command that acts in one region: its help says so of --region.
const AnnotationOneRegion = "gpublock/one-region"

const oneRegionUsage = "the one AWS region of the Capacity Block or offering (default: $AWS_REGION or the profile's)"

// RefuseAWSFlags refuses the root's AWS flags given to a command that takes none of them;
// a flag of its own with the same name is its own.
func RefuseAWSFlags(cmd *cobra.Command, _ []string) error {
	var given []string
	// Visit would see none: the set of inherited flags is made afresh, without what was set.
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if awsFlagNames[f.Name] && f.Changed {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		return Usagef("the AWS flags are not for this command (%s given)", strings.Join(given, ", "))
	}
	return nil
}

// awsFlagNames are the flags AWSFlags.Register declares, listed apart in every help.
var awsFlagNames = func() map[string]bool {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	new(AWSFlags).Register(fs)
	names := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
	return names
}()

// OutputFormat is the -o flag of the commands for scripts.
type OutputFormat string

func ParseOutputFormat(s string) (OutputFormat, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "table", "":
		return "table", nil
	case "json":
		return "json", nil
	case "csv":
		return "csv", nil
	}
	return "", Usagef("-o %q: allowed table, json or csv", s)
}

// TagFlag is a repeatable --tag KEY=VALUE of the commands that buy (purchase, order).
type TagFlag map[string]string

func (t TagFlag) String() string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k+"="+t[k])
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func (t TagFlag) Type() string { return "KEY=VALUE" }

// Set adds the tags of one --tag under model.AddTags, the parser of the purchase dialog's
// tags field too: --tag team=ml,project=llm is two tags.
func (t TagFlag) Set(s string) error { return model.AddTags(t, s) }
