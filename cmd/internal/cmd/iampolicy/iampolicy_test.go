package iampolicy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/iampolicy"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	f := cmdutil.New("test", cmdutil.System(&out, &errb))
	code := cmdtest.Exec(context.Background(), f, NewCmdIAMPolicy(f, nil), append([]string{"iam-policy"}, args...)...)
	return code, out.String(), errb.String()
}

func TestPrintsThePolicy(t *testing.T) {
	code, out, errs := runCmd("--for", "watcher", "--state", "s3://team-gpu-state/gpublock")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc iampolicy.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(doc.Statement) < 3 || !strings.Contains(out, `"ec2:RunInstances"`) || !strings.Contains(out, "arn:aws:s3:::team-gpu-state/gpublock/*") || strings.Contains(out, "PurchaseCapacityBlock\"") {
		t.Errorf("watcher's policy:\n%s", out)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--for", "admin"}, {"--for", "reader", "--state", "bucket/prefix"}, {"--for", "reader", "extra"}} {
		code, out, errs := runCmd(args...)
		if code != 2 || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q: want 2, nothing printed, a message", args, code, out, errs)
		}
	}
}
