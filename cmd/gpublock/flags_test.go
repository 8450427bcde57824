package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// parsed is what the real command line made of some arguments: the command that would
// run, the flags given (by name, as the flag prints its value) and the positional arguments.
type parsed struct {
	cmd   string
	flags map[string]string
	args  []string
}

// parseLine runs args through the command line as execute does, every command's run
// replaced by one that records what it was given.
func parseLine(t *testing.T, args ...string) (parsed, error) {
	t.Helper()
	root := newRootCmd(context.Background(), cmdutil.New(version, cmdutil.System(io.Discard, io.Discard)))
	var got parsed
	var stub func(*cobra.Command)
	stub = func(c *cobra.Command) {
		if c.RunE != nil || c.Run != nil {
			c.Run, c.RunE = nil, func(c *cobra.Command, args []string) error {
				got = parsed{cmd: c.Name(), flags: map[string]string{}, args: args}
				c.Flags().VisitAll(func(f *pflag.Flag) {
					if f.Changed {
						got.flags[f.Name] = f.Value.String()
					}
				})
				return nil
			}
		}
		for _, sub := range c.Commands() {
			stub(sub)
		}
	}
	stub(root)
	root.SetArgs(goFlagForms(root, args))
	var out, errs strings.Builder
	root.SetOut(&out)
	root.SetErr(&errs)
	_, err := root.ExecuteC()
	return got, err
}

// Every form the flag package accepted before the move to cobra is still read the same way.
func TestEarlierFlagFormsStillParse(t *testing.T) {
	id, cr := "cbr-0123456789abcdef0", "cr-0123456789abcdef0"
	for _, tc := range []struct {
		args  []string
		cmd   string
		flags map[string]string
		pos   []string
	}{
		{[]string{"offerings", "--region=all", "--type", "p5.48xlarge", "--duration", "2d"}, "offerings",
			map[string]string{"region": "all", "type": "p5.48xlarge", "duration": "2d"}, nil},
		{[]string{"--region", "us-east-1,us-west-2", "--endpoint-url=http://127.0.0.1:1", "blocks", "-o", "json"}, "blocks",
			map[string]string{"region": "us-east-1,us-west-2", "endpoint-url": "http://127.0.0.1:1", "output": "json"}, nil},
		// flags after the positional argument, and between
		{[]string{"purchase", "--yes", id, "--tag", "a=1", "--tag", "b=2", "--max-spend", "25000"}, "purchase",
			map[string]string{"yes": "true", "tag": "a=1,b=2", "max-spend": "25000"}, []string{id}},
		{[]string{"extend", cr, "--yes=false", "--duration", "1d", "--dry-run=true"}, "extend",
			map[string]string{"yes": "false", "duration": "1d", "dry-run": "true"}, []string{cr}},
		{[]string{"blocks", "--warn-within", "45m", "--watch", "--interval=90s"}, "blocks",
			map[string]string{"warn-within": "45m0s", "watch": "true", "interval": "1m30s"}, nil},
		{[]string{"launch", cr, "--security-group", "sg-1", "--security-group=sg-2,sg-3", "--count", "2"}, "launch",
			map[string]string{"security-group": "sg-1,sg-2,sg-3", "count": "2"}, []string{cr}},
		// the flag package's single dash, and a value that looks like a flag
		{[]string{"sim", "-addr", "127.0.0.1:0", "-seed=7", "-fault", "throttle=0.5"}, "sim",
			map[string]string{"addr": "127.0.0.1:0", "seed": "7"}, nil},
		{[]string{"-region", "us-east-1", "blocks", "-notify-cmd", "-watch"}, "blocks",
			map[string]string{"region": "us-east-1", "notify-cmd": "-watch"}, nil},
		{[]string{"--screen", "blocks", "--no-color", "-refresh", "10s"}, "gpublock",
			map[string]string{"screen": "blocks", "no-color": "true", "refresh": "10s"}, nil},
		// past --, an argument is an argument
		{[]string{"purchase", "--", "-yes"}, "purchase", map[string]string{}, []string{"-yes"}},
	} {
		got, err := parseLine(t, tc.args...)
		if err != nil || got.cmd != tc.cmd || !slices.Equal(got.args, tc.pos) {
			t.Errorf("%q: err %v, ran %q with %q", tc.args, err, got.cmd, got.args)
			continue
		}
		for k, v := range tc.flags {
			if got.flags[k] != v {
				t.Errorf("%q: --%s read as %q, want %q (all: %v)", tc.args, k, got.flags[k], v, got.flags)
			}
		}
		if len(got.flags) != len(tc.flags) && tc.cmd != "sim" {
			t.Errorf("%q: flags %v, want %v", tc.args, got.flags, tc.flags)
		}
	}
}

// The shell completes flags' values from what the commands accept.
func TestCompletionOffersFlagValues(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"__complete", "offerings", "--region", ""}, "all", ""},
		{[]string{"__complete", "--region", ""}, "all", ""},
		{[]string{"__complete", "extend", "--region", ""}, "us-east-1", "all"},
		{[]string{"__complete", "--region", "all", "offerings", "--type", "p5"}, "p5.48xlarge", ""},
		{[]string{"__complete", "purchase", "-o", ""}, "json", "csv"},
		{[]string{"__complete", "blocks", "--source", ""}, "training-plans", ""},
		{[]string{"__complete", "--theme", ""}, "light", ""},
		{[]string{"__complete", "sim", "--region", ""}, "us-east-1", "all"},
	} {
		code, out, errs := cli.Run(tc.args...)
		got := strings.Fields(out)
		if code != 0 || !slices.Contains(got, tc.want) || tc.not != "" && slices.Contains(got, tc.not) {
			t.Errorf("%q: exit %d, offers %q\n%s", tc.args, code, got, errs)
		}
	}
}
