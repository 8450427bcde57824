package orders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/handoff"
)

// ThenOf is what an order asks once bought, done through c: a launch attached to the
// first reservation's start (aws/atstart, one launch per block, so a second attempt is
// refused rather than doubled), and the hand-off file written whole.
func ThenOf(c *awsapi.Client) func(ctx context.Context, o model.Order, blocks []model.Block) error {
	return func(_ context.Context, o model.Order, blocks []model.Block) error {
		if len(blocks) == 0 {
			return errors.New("AWS does not list the reservation bought yet")
		}
		var errs []error
		if o.Then.Launch {
			b := blocks[0]
			count := o.Then.LaunchCount
			if count == 0 {
				count = b.TotalCount
			}
			if _, err := atstart.Attach(c, b, source.LaunchSpec{ImageID: o.Then.ImageID, Count: count, Name: o.ID}); err != nil {
				var ae *source.ActionError
				if !errors.As(err, &ae) || !isAttachedAlready(c, b) {
					errs = append(errs, fmt.Errorf("launch at the start of %s: %w", b.ReservationID, err))
				}
			}
		}
		if o.Then.Handoff {
			if err := writeHandoff(o, blocks); err != nil {
				errs = append(errs, fmt.Errorf("hand-off file: %w", err))
			}
		}
		return errors.Join(errs...)
	}
}

// isAttachedAlready: a launch is attached to b already (by an earlier try of this order).
func isAttachedAlready(c *awsapi.Client, b model.Block) bool {
	ls, err := atstart.List(c)
	if err != nil {
		return false
	}
	for _, l := range ls {
		if l.ReservationID == b.ReservationID && l.State != atstart.Cancelled {
			return true
		}
	}
	return false
}

func writeHandoff(o model.Order, blocks []model.Block) error {
	tool, err := handoff.ParseTool(o.Then.HandoffTool)
	if err != nil {
		return err
	}
	f, err := handoff.RenderGroup(tool, blocks)
	if err != nil {
		return err
	}
	path := o.Then.HandoffPath
	if path == "" {
		return errors.New("no file to write it to")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return filelock.WriteAtomic(path, []byte(f.Content))
}
