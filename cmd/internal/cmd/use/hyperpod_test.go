package use

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A plan bought for HyperPod clusters only is used by its ARN for hyperpod; sagemaker and
// karpenter refuse it, and each refusal suggests a --for that takes it, which does.
func TestUseAHyperPodPlanByARN(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	arn := boughtPlan(t, cs, "--target", "hyperpod-cluster").TrainingPlanArn
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
