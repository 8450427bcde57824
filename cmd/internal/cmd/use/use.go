// Package use is `gpublock use`: what another tool needs to run in a bought reservation.
package use

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/handoff"
)

// Options are what `gpublock use` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources the AWS flags name.
	Backend cmdutil.BackendFunc
	// Args are the positional arguments: the one reservation id.
	Args []string
	// For is --for: the tool the file is for.
	For string

	aws cmdutil.AWSFlags
}

// NewCmdUse is `gpublock use`; runF, when not nil, is given the options instead of running
// them.
func NewCmdUse(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend}
	tools := make([]string, 0, len(handoff.Tools()))
	for _, t := range handoff.Tools() {
		tools = append(tools, string(t))
	}
	cmd := &cobra.Command{
		Use:   "use RESERVATION_ID",
		Short: "print what Karpenter, SkyPilot, dstack, ParallelCluster, EKS, HyperPod or SageMaker needs to use a reservation",
		Long: "Prints, on stdout, the file a tool takes to run in a reservation you hold, with the reservation's id\n" +
			"(or a plan's ARN), type, count, region and zone filled in; stderr says what to fill in, the file's\n" +
			"name and the command that applies it. Capacity Blocks (cr-…) go to karpenter, skypilot, dstack,\n" +
			"parallelcluster and eks; training plans (by name or ARN) to hyperpod and sagemaker. Each file\n" +
			"follows the tool's own documentation, named on stderr. Nothing is bought or started.\n\n" +
			"Exit status: 0 printed, 1 the reservation was not found or the tool cannot use it, 2 bad usage.",
		Example: "  gpublock use cr-0123456789abcdef0 --region us-east-1 --for karpenter > karpenter.yaml\n" +
			"  gpublock use my-plan --region us-west-2 --for sagemaker > sagemaker-training-job.json",
		Args: cmdutil.ExactlyOne(func(*cobra.Command) string {
			return "RESERVATION (cr-… or a training plan's name or ARN, from `gpublock blocks`)"
		}),
		Annotations: map[string]string{cmdutil.AnnotationOneRegion: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.aws = *f.AWS
			a.Args = args
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(useRun(cmd.Context(), a))
		},
	}
	cmd.Flags().StringVar(&a.For, "for", "", "the `tool`: "+strings.Join(tools, ", "))
	_ = cmd.RegisterFlagCompletionFunc("for", cobra.FixedCompletions(tools, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// check reads what can be checked before any call: the tool and the one region.
func (a *Options) check() (handoff.Tool, string, error) {
	if strings.TrimSpace(a.For) == "" {
		return "", "", cmdutil.Usagef("--for is required: %s", strings.Join(toolNames(), ", "))
	}
	tool, err := handoff.ParseTool(a.For)
	if err != nil {
		return "", "", cmdutil.Usagef("--for: %v", err)
	}
	id := strings.TrimSpace(a.Args[0])
	if id == "" {
		return "", "", cmdutil.Usagef("the reservation id is empty")
	}
	if err := a.aws.Validate(); err != nil {
		return "", "", err
	}
	if err := cmdutil.SingleRegion(&a.aws); err != nil {
		return "", "", err
	}
	return tool, id, nil
}

func toolNames() []string {
	var out []string
	for _, t := range handoff.Tools() {
		out = append(out, string(t))
	}
	return out
}

// useRun finds the reservation and prints the tool's file.
func useRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	tool, id, err := a.check()
	if err != nil {
		return cmdutil.ReportUsage(stderr, "use", err)
	}
	client, _, err := a.Backend(ctx, &a.aws)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "use", err)
	}
	region := a.aws.OneRegion(client)
	src, ok := source.Owning(cmdutil.SourcesOver(client), id)
	if !ok {
		// What no source could name is bad usage, known only once the sources are made.
		return cmdutil.ReportUsage(stderr, "use", cmdutil.Usagef("%q is neither a Capacity Block id (cr-…) nor a training plan's name or ARN", id))
	}
	// Every reservation of the purchase goes in the file: a segmented offering's purchase
	// made one per segment, and a tool given one of them would use only part of what
	// was bought.
	b, group, found, err := source.FindGroup(ctx, src, region, id)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "gpublock use: cancelled.")
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "gpublock use: %s %s could not be looked up: %s\n", src.Caps().Noun, id, client.ExplainError(err))
		return 1
	case !found:
		fmt.Fprintf(stderr, "gpublock use: there is no %s %s in %s (`%s` lists them; another region needs --region).\n",
			src.Caps().Noun, id, region, client.NextStep("blocks", region))
		return 1
	}
	file, err := handoff.RenderGroup(tool, group)
	if err != nil {
		var r *handoff.Refusal
		if errors.As(err, &r) {
			fmt.Fprintf(stderr, "gpublock use: %v\n", r)
		} else {
			fmt.Fprintf(stderr, "gpublock use: %s %s: %v\n", src.Caps().Noun, id, err)
		}
		return 1
	}
	fmt.Fprint(stdout, file.Content)
	if !strings.HasSuffix(file.Content, "\n") {
		fmt.Fprintln(stdout)
	}
	printNote(a.IO, b, group, file)
	return 0
}

// printNote says on stderr, so that stdout stays the file itself, what the file is and
// how it is used.
func printNote(ios *cmdutil.IOStreams, b model.Block, group []model.Block, f handoff.File) {
	what := b.ReservationID
	if len(group) > 1 {
		what = fmt.Sprintf("%s with every reservation of its purchase (%d: %s)", b.ReservationID, len(group), strings.Join(strings.Split(model.GroupIDs(group), ","), ", "))
	}
	fmt.Fprintf(ios.ErrOut, "gpublock use: %s for the %s %s in %s (%s, on stdout).\n", f.Name, b.Source.Title(), what, b.Region, strings.ToUpper(string(f.Format)))
	for _, line := range strings.Split(strings.TrimSpace(f.Note), "\n") {
		fmt.Fprintf(ios.ErrOut, "gpublock use: %s\n", line)
	}
	fmt.Fprintf(ios.ErrOut, "gpublock use: follows %s\n", f.Doc)
}
