package iampolicy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const sdkServices = "github.com/aws/aws-sdk-go-v2/service/"

// calledInCode scans every Go file of the module but tests and the emulator for the SDK
// operations it calls: an operation is called where its input type (ec2.RunInstancesInput,
// sagemaker.CreateTrainingPlanInput…) is named, since no call can be made without one. It
// returns each "service:Operation" with a file that calls it, and the services imported.
func calledInCode(t *testing.T) (calls map[string]string, imported map[string]bool) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	calls, imported = map[string]string{}, map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// The emulator serves these calls, and test fixtures make them only for tests.
			if name == "testdata" || strings.HasPrefix(name, ".") && path != root || strings.HasSuffix(name, "sim") || name == "simcore" || strings.HasSuffix(name, "test") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		services := map[string]string{} // the file's name of an SDK service package → the service
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			svc, ok := strings.CutPrefix(p, sdkServices)
			if !ok || strings.Contains(svc, "/") {
				continue
			}
			local := svc
			if im.Name != nil {
				local = im.Name.Name
			}
			services[local] = svc
			imported[svc] = true
		}
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || services[pkg.Name] == "" {
				return true
			}
			if op, ok := strings.CutSuffix(sel.Sel.Name, "Input"); ok && op != "" {
				calls[services[pkg.Name]+":"+op] = rel
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return calls, imported
}

// Every operation the code calls is in the list the policies are built from, with a use
// that some role has; and every entry of the list is called (an action no code calls is
// a permission granted for nothing). The team state's S3 calls are checked once the code
// calls S3.
func TestEveryCallIsInAPolicy(t *testing.T) {
	calls, imported := calledInCode(t)
	if len(calls) < 10 {
		t.Fatalf("the scan found %d calls: %v", len(calls), calls)
	}
	listed := map[string]Call{}
	for _, c := range append(slices.Clone(Calls), StoreCalls...) {
		listed[c.Service+":"+c.Operation] = c
	}
	for op, file := range calls {
		c, ok := listed[op]
		if !ok {
			t.Errorf("%s calls %s, which is in no IAM policy: add it to iampolicy.Calls with the uses that call it", file, op)
			continue
		}
		if !slices.ContainsFunc(Roles, func(r Role) bool {
			return slices.ContainsFunc(c.Uses, func(u Use) bool { return u == TeamState || slices.Contains(r.Uses(), u) })
		}) {
			t.Errorf("%s is in no role's policy", op)
		}
	}
	for _, c := range Calls {
		if _, ok := calls[c.Service+":"+c.Operation]; !ok {
			t.Errorf("iampolicy.Calls lists %s:%s, which no code calls: remove it", c.Service, c.Operation)
		}
	}
	if imported["s3"] {
		for _, c := range StoreCalls {
			if _, ok := calls[c.Service+":"+c.Operation]; !ok {
				t.Errorf("iampolicy.StoreCalls lists %s:%s, which no code calls: remove it", c.Service, c.Operation)
			}
		}
	} else {
		t.Logf("no code calls S3 yet: StoreCalls not checked against the code")
	}
	for action := range TagsOnCreate {
		if !slices.ContainsFunc(Calls, func(c Call) bool { return c.IAMAction() == action }) {
			t.Errorf("TagsOnCreate names %s, which is no call", action)
		}
	}
}

// The scanner finds a call written in any of the ways the code writes one.
func TestScannerFindsCalls(t *testing.T) {
	calls, imported := calledInCode(t)
	for _, op := range []string{
		"ec2:RunInstances",                   // &ec2.RunInstancesInput{...}
		"ec2:DescribeCapacityBlockOfferings", // through a paginator
		"pricing:GetProducts",                // imported under another name (awspricing)
		"sagemaker:ExtendTrainingPlan",
	} {
		if calls[op] == "" {
			t.Errorf("the scan missed %s", op)
		}
	}
	if !imported["ec2"] || imported["types"] {
		t.Errorf("imported services %v", imported)
	}
}
