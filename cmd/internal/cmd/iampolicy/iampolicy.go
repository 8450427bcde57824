// Package iampolicy is `gpublock iam-policy`: the least-privilege IAM policy of each use of
// gpublock, from the list of the calls the program makes (aws/iampolicy).
package iampolicy

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/iampolicy"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

const long = "Prints the least-privilege IAM policy (JSON) that a role needs, built from the list of every AWS\n" +
	"call gpublock makes (a test fails when the code calls an action that list lacks):\n\n" +
	"  reader   lists blocks and plans, searches offerings, prices and usage; never spends\n" +
	"  on-call  a reader who also extends blocks and plans and launches instances into blocks\n" +
	"  buyer    an on-call engineer who also buys Capacity Blocks and training plans\n" +
	"  watcher  gpublock watch (blocks --watch) unattended: lists, fires the launches attached to a\n" +
	"           block's start and extends by --auto-extend; no market search, purchase, prices or usage\n\n" +
	"--state s3://BUCKET/PREFIX adds the team state's objects under PREFIX (get, put, delete) and the\n" +
	"listing of PREFIX alone. Tags are allowed only as part of the calls that create what they tag\n" +
	"(ec2:CreateTags with the condition ec2:CreateAction). No iam:PassRole: gpublock launches no\n" +
	"instance profile. sts:GetCallerIdentity needs no permission; it is listed because it is called.\n" +
	"ARNs are of the commercial partition (arn:aws).\n\n" +
	"Exit status: 0 printed; 1 an output error; 2 bad usage."

// Options are what `gpublock iam-policy` runs with.
type Options struct {
	IO    *cmdutil.IOStreams
	Role  string
	State string
}

// NewCmdIAMPolicy is `gpublock iam-policy`; runF, when not nil, is given the options instead
// of running them.
func NewCmdIAMPolicy(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	o := &Options{IO: f.IOStreams}
	roles := make([]string, len(iampolicy.Roles))
	for i, r := range iampolicy.Roles {
		roles[i] = string(r)
	}
	cmd := &cobra.Command{
		Use:   "iam-policy --for ROLE",
		Short: "print the least-privilege IAM policy of a role: " + strings.Join(roles, ", "),
		Long:  long,
		Example: "  gpublock iam-policy --for reader\n" +
			"  gpublock iam-policy --for watcher --state s3://team-gpu-state/gpublock > watcher-policy.json\n" +
			"  aws iam create-policy --policy-name gpublock-buyer --policy-document \"$(gpublock iam-policy --for buyer)\"",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return run(o)
		},
	}
	cmd.Flags().StringVar(&o.Role, "for", "", "the `role`: "+strings.Join(roles, ", "))
	cmd.Flags().StringVar(&o.State, "state", "", "a team's state in S3, s3://`BUCKET/PREFIX`: adds its objects and listing")
	_ = cmd.RegisterFlagCompletionFunc("for", cobra.FixedCompletions(roles, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func run(o *Options) error {
	if o.Role == "" {
		return cmdutil.Usagef("--for is required: one of reader, on-call, buyer, watcher")
	}
	role, err := iampolicy.ParseRole(o.Role)
	if err != nil {
		return cmdutil.Usagef("--for %v", err)
	}
	var store *iampolicy.Store
	if o.State != "" {
		s, err := iampolicy.ParseStore(o.State)
		if err != nil {
			return cmdutil.Usagef("--state %v", err)
		}
		store = &s
	}
	_, err = o.IO.Out.Write(iampolicy.Policy(role, store).JSON())
	return err
}
