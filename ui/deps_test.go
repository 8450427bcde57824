package ui

import (
	"os/exec"
	"strings"
	"testing"
)

const (
	sdkPrefix = "github.com/aws/aws-sdk-go-v2"
	ourAWS    = "github.com/gpublock/gpublock/aws"
)

// The UI talks to its sources through aws/source only: neither it nor anything it links may
// pull in the SDK, which lives behind aws/sources. Our aws/ packages that stay clear of the
// SDK (aws/source) may be linked; one that links the SDK is named even before the SDK
// itself would show, so that the message says which of ours brought it in.
func TestUIDoesNotLinkTheSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Deps \" \"}}",
		"github.com/gpublock/gpublock/ui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string][]string{} // each package the UI links, with everything it links
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if _, ok := deps[ourAWS+"/source"]; len(deps) < 10 || !ok {
		t.Fatalf("go list gave %d packages without aws/source; the check would prove nothing:\n%s", len(deps), out)
	}
	for d, its := range deps {
		if strings.HasPrefix(d, sdkPrefix) {
			t.Errorf("ui links %s; only aws/sources may", d)
		}
		if d == ourAWS || strings.HasPrefix(d, ourAWS+"/") {
			if sdk := linksSDK(its); sdk != "" {
				t.Errorf("ui links %s, which links %s; only aws/sources may", d, sdk)
			}
		}
	}
}

// linksSDK is the first of deps in the SDK, or "".
func linksSDK(deps []string) string {
	for _, d := range deps {
		if strings.HasPrefix(d, sdkPrefix) {
			return d
		}
	}
	return ""
}
