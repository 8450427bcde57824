package ui

import (
	"os/exec"
	"strings"
	"testing"
)

// The UI talks to its sources through aws/source only: neither it nor anything it links may
// pull in the SDK, which lives behind aws/sources.
func TestUIDoesNotLinkTheSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/gpublock/gpublock/ui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !contains(deps, "github.com/gpublock/gpublock/aws/source") {
		t.Fatalf("go list gave %d packages without aws/source; the check would prove nothing:\n%s", len(deps), out)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/aws/aws-sdk-go-v2") || d == "github.com/gpublock/gpublock/aws" {
			t.Errorf("ui links %s; only aws/sources may", d)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
