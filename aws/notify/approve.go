package notify

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpublock/gpublock/aws/source"
)

// ApproveTimeout bounds an approval command: one that does not answer has not approved.
const ApproveTimeout = 2 * time.Minute

// Approve asks command whether to spend what e describes, as a notify command is run (the
// event as JSON on stdin and GPUBLOCK_* variables, no credential variables, its own process
// group): only exit 0 within timeout approves. why says, in words safe to print, what
// refused.
func Approve(ctx context.Context, command string, e Event, timeout time.Duration) (ok bool, why string) {
	body, err := json.Marshal(e)
	if err != nil {
		return false, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := runCommand(ctx, command, e, body); err != nil {
		return false, source.Redact(err.Error())
	}
	return true, ""
}
