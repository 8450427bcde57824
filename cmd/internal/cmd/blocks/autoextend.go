package blocks

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// autoExtend is the watch's auto-extension step (aws/autoextend's Watcher), by the
// --auto-extend policy; its lines are said on stderr. The error is the decisions that
// could not be read or kept: the run fails.
func (a *Options) autoExtend(ctx context.Context, client *awsapi.Client, blocks []model.Block, now time.Time, stderr io.Writer) error {
	if a.extender == nil {
		a.extender = &autoextend.Watcher{Client: client, Spend: cmdutil.SpendPath(client), Sources: a.sources, Notifier: a.notifier,
			Policy: a.auto.Policy, ApproveCmd: a.auto.ApproveCmd, Say: func(s string) { fmt.Fprintln(stderr, "gpublock blocks:", s) }}
	}
	return a.extender.Round(ctx, blocks, now)
}
