package use

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// A plan bought for HyperPod clusters only is used by its ARN for hyperpod; sagemaker and
// karpenter refuse it, and each refusal suggests a --for that takes it, which does.
func TestUseAHyperPodPlanByARN(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	search := []string{"--endpoint-url", cs.URL, "--source", "training-plans", "--target", "hyperpod-cluster", "--region", "us-east-1",
		"--type", "p5.48xlarge", "--count", "2", "--duration", "2d-5d", "--from", "2026-12-01T08:00:00Z", "--to", "2027-01-20"}
	code, out, errs := cli.Run(append([]string{"offerings", "-o", "json"}, search...)...)
	var offers []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &offers) != nil || len(offers) == 0 {
		t.Fatalf("plan offerings: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := cli.Run(append([]string{"purchase", offers[0].TrainingPlanOfferingId, "--yes"}, search...)...); code != 0 {
		t.Fatalf("plan purchase: exit %d\n%s", code, errs)
	}
	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--source", "training-plans", "-o", "json")
	var plans []printers.PlanJSON
	if code != 0 || json.Unmarshal([]byte(out), &plans) != nil || len(plans) != 1 {
		t.Fatalf("blocks: exit %d\n%s\n%s", code, out, errs)
	}
	arn := plans[0].TrainingPlanArn
	use := func(tool string) (int, string, string) {
		return cli.Run("use", arn, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", tool)
	}
	if code, out, errs := use("hyperpod"); code != 0 || !strings.Contains(out, arn) {
		t.Fatalf("hyperpod by ARN: exit %d\n%s\n%s", code, out, errs)
	}
	suggests := regexp.MustCompile(`--for (\w+)`)
	for _, tool := range []string{"sagemaker", "karpenter"} {
		code, out, errs := use(tool)
		if code == 0 || out != "" {
			t.Fatalf("%s took a HyperPod plan: exit %d\n%s", tool, code, out)
		}
		m := suggests.FindAllStringSubmatch(errs, -1)
		if len(m) == 0 {
			t.Fatalf("%s: the refusal suggests no --for:\n%s", tool, errs)
		}
		for _, s := range m {
			if code, _, errs2 := use(s[1]); code != 0 {
				t.Errorf("%s: the refusal suggests --for %s, which refuses it too (exit %d):\n%s\n%s", tool, s[1], code, errs, errs2)
			}
		}
	}
}
