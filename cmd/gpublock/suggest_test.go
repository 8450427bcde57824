package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// A mistyped command name is bad usage (exit 2) that names the commands it is close to:
// any command's name short of its last letter, or with one letter wrong, at the top or
// under a command with commands of its own; a name close to none names none.
func TestMistypedCommandSuggests(t *testing.T) {
	try := func(args ...string) (int, string) {
		var out, errw bytes.Buffer
		code := cli.RunContext(context.Background(), &out, &errw, args...)
		if out.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", args, out.String())
		}
		return code, errw.String()
	}
	if code, msg := try("offering"); code != 2 || !strings.Contains(msg, `unknown command "offering". Did you mean: offerings?`) {
		t.Errorf("gpublock offering: exit %d, stderr %q", code, msg)
	}
	if code, msg := try("help", "offering"); code != 2 || !strings.Contains(msg, "Did you mean: offerings?") {
		t.Errorf("gpublock help offering: exit %d, stderr %q", code, msg)
	}
	if code, msg := try("zzzzzz"); code != 2 || strings.Contains(msg, "Did you mean") || !strings.Contains(msg, `unknown command "zzzzzz"`) {
		t.Errorf("gpublock zzzzzz: exit %d, stderr %q", code, msg)
	}
	root := newRootCmd(context.Background(), cmdutil.New(version, cmdutil.System(io.Discard, io.Discard)))
	checked := 0
	for _, parent := range append(root.Commands(), root) {
		for _, c := range parent.Commands() {
			if !c.IsAvailableCommand() || len(c.Name()) < 3 {
				continue
			}
			var path []string
			if parent != root {
				path = []string{parent.Name()}
			}
			n := c.Name()
			wrong := n[:1] + string(rune('a'+(n[1]-'a'+13)%26)) + n[2:]
			for _, typo := range []string{n[:len(n)-1], wrong} {
				code, msg := try(append(path, typo)...)
				if code != 2 || !strings.Contains(msg, "Did you mean: ") || !strings.Contains(msg, n) {
					t.Errorf("%v: exit %d, stderr %q; want exit 2 and %s suggested", append(path, typo), code, msg, n)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d typos tried", checked)
	}
}
