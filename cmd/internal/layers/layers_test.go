package layers

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/gpublock/gpublock"

// A rule is a set of packages and what none of them may link, directly or through others.
type rule struct {
	what      string
	packages  func(pkg string) bool
	forbidden func(dep string) bool
}

func under(pkg, dir string) bool {
	return pkg == module+"/"+dir || strings.HasPrefix(pkg, module+"/"+dir+"/")
}

var rules = []rule{
	{
		what: "the domain, the price maths and the configuration import nothing under aws/ or ui/",
		packages: func(p string) bool {
			return under(p, "model") || under(p, "pricing") || under(p, "cmd/internal/config")
		},
		forbidden: func(d string) bool { return under(d, "aws") || under(d, "ui") },
	},
	{
		what:      "the domain links nothing of the price maths, which stand on it",
		packages:  func(p string) bool { return under(p, "model") },
		forbidden: func(d string) bool { return under(d, "pricing") },
	},
	{
		what:      "the adapters and the emulator link nothing of the front ends",
		packages:  func(p string) bool { return under(p, "aws") },
		forbidden: func(d string) bool { return under(d, "ui") || under(d, "cmd") },
	},
	{
		what:      "the TUI links nothing of the commands",
		packages:  func(p string) bool { return under(p, "ui") },
		forbidden: func(d string) bool { return under(d, "cmd") },
	},
	{
		what:      "the domain and the price maths link neither the AWS SDK nor Bubble Tea",
		packages:  func(p string) bool { return under(p, "model") || under(p, "pricing") },
		forbidden: func(d string) bool { return linksSDK(d) || linksBubbleTea(d) },
	},
	{
		what:      "the TUI links no AWS SDK: it speaks to sources through aws/source",
		packages:  func(p string) bool { return under(p, "ui") },
		forbidden: linksSDK,
	},
	{
		what: "no CLI command but tui links Bubble Tea",
		packages: func(p string) bool {
			return under(p, "cmd/internal/cmd") && p != module+"/cmd/internal/cmd" && !under(p, "cmd/internal/cmd/tui")
		},
		forbidden: linksBubbleTea,
	},
}

func linksSDK(dep string) bool {
	return strings.HasPrefix(dep, "github.com/aws/aws-sdk-go-v2") || strings.HasPrefix(dep, "github.com/aws/smithy-go")
}

func linksBubbleTea(dep string) bool { return strings.HasPrefix(dep, "charm.land/bubbletea/") }

// TestArrowsPointDown reads every package's dependencies from go list (without tests: a
// test may reach up for a fixture) and holds each rule.
func TestArrowsPointDown(t *testing.T) {
	deps := moduleDeps(t)
	for _, r := range rules {
		checked := 0
		for pkg, ds := range deps {
			if !r.packages(pkg) {
				continue
			}
			checked++
			var bad []string
			for _, d := range ds {
				if r.forbidden(d) {
					bad = append(bad, d)
				}
			}
			if len(bad) > 0 {
				sort.Strings(bad)
				t.Errorf("%s: %s links %s", r.what, pkg, strings.Join(bad, ", "))
			}
		}
		if checked == 0 {
			t.Errorf("%s: no package of the module is under the rule (was it renamed?)", r.what)
		}
	}
}

// The rules see a breach: a package that links what they forbid is named.
func TestRulesSeeABreach(t *testing.T) {
	for _, tc := range []struct {
		rule     int
		pkg, dep string
	}{
		{0, module + "/pricing", module + "/aws/filelock"},
		{0, module + "/cmd/internal/config", module + "/ui/theme"},
		{1, module + "/model/report", module + "/pricing"},
		{2, module + "/aws/ec2sim", module + "/ui/theme"},
		{2, module + "/aws/sources", module + "/cmd/internal/config"},
		{3, module + "/ui/dialog/use", module + "/cmd/internal/cmdutil"},
		{4, module + "/model", "github.com/aws/aws-sdk-go-v2/aws"},
		{5, module + "/ui/dialog/extend", "github.com/aws/aws-sdk-go-v2/service/ec2"},
		{6, module + "/cmd/internal/cmd/blocks", "charm.land/bubbletea/v2"},
	} {
		r := rules[tc.rule]
		if !r.packages(tc.pkg) || !r.forbidden(tc.dep) {
			t.Errorf("%s: %s linking %s is not seen", r.what, tc.pkg, tc.dep)
		}
	}
	if rules[6].packages(module+"/cmd/internal/cmd/tui") || rules[0].forbidden(module+"/aws2") {
		t.Error("a rule reaches past what it names")
	}
}

// moduleDeps is each of the module's packages with every package it links.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command(goTool(t), "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	if len(deps) < 20 {
		t.Fatalf("go list gave %d packages; want the module's", len(deps))
	}
	return deps
}

// goTool is the go command that runs the tests.
func goTool(t *testing.T) string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(p); err != nil {
		t.Fatalf("no go command on PATH nor at %s: the rules cannot be read", p)
	}
	return p
}
