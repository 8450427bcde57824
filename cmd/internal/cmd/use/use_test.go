package use

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

var cli = cmdtest.NewCLI(NewCmdUse, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// yamlDocs parses every document of a YAML stream, failing on any that does not parse.
func yamlDocs(t *testing.T, s string) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(s))
	var out []map[string]any
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("not YAML: %v\n%s", err, s)
		}
		out = append(out, m)
	}
}

// at walks a parsed document by keys and list indexes.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: not a map: %#v", path, v)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at %v: not a list of %d: %#v", path, k+1, v)
			}
			v = l[k]
		}
	}
	return v
}

// A bought Capacity Block is handed to each EC2 tool as a file that parses, names the
// block's id where the tool's documentation puts it, and says on stderr how to apply it;
// the SageMaker tools refuse it.
func TestUseABlock(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	id := b.CapacityReservationId
	use := func(tool string) (int, string, string) {
		return cli.Run("use", id, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", tool)
	}

	code, out, errs := use("karpenter")
	if code != 0 {
		t.Fatalf("karpenter: exit %d\n%s", code, errs)
	}
	docs := yamlDocs(t, out)
	if len(docs) != 2 || docs[0]["kind"] != "EC2NodeClass" || docs[1]["kind"] != "NodePool" {
		t.Fatalf("karpenter: want an EC2NodeClass and a NodePool:\n%s", out)
	}
	if got := at(t, docs[0], "spec", "capacityReservationSelectorTerms", 0, "id"); got != id {
		t.Errorf("EC2NodeClass selects %v, want %s", got, id)
	}
	if !strings.Contains(out, "karpenter.sh/capacity-type") || !strings.Contains(out, "reserved") || !strings.Contains(out, b.InstanceType) {
		t.Errorf("the NodePool does not require reserved %s capacity:\n%s", b.InstanceType, out)
	}
	if !strings.Contains(errs, "karpenter.yaml") || !strings.Contains(errs, "kubectl apply") || !strings.Contains(errs, "karpenter.sh") {
		t.Errorf("stderr does not say the file, how to apply it and its documentation:\n%s", errs)
	}

	code, out, errs = use("parallelcluster")
	if code != 0 {
		t.Fatalf("parallelcluster: exit %d\n%s", code, errs)
	}
	q := at(t, yamlDocs(t, out)[0], "Scheduling", "SlurmQueues", 0)
	cr := at(t, q, "ComputeResources", 0)
	if at(t, q, "CapacityType") != "CAPACITY_BLOCK" || at(t, cr, "CapacityReservationTarget", "CapacityReservationId") != id ||
		at(t, cr, "MinCount") != b.TotalInstanceCount || at(t, cr, "MaxCount") != b.TotalInstanceCount {
		t.Errorf("parallelcluster queue %v", q)
	}

	code, out, errs = use("eks")
	var lt map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &lt) != nil {
		t.Fatalf("eks: exit %d, not JSON:\n%s\n%s", code, out, errs)
	}
	if at(t, lt, "InstanceMarketOptions", "MarketType") != "capacity-block" ||
		at(t, lt, "CapacityReservationSpecification", "CapacityReservationTarget", "CapacityReservationId") != id || at(t, lt, "InstanceType") != b.InstanceType {
		t.Errorf("eks launch template %v", lt)
	}

	for _, tool := range []string{"skypilot", "dstack"} {
		code, out, errs = use(tool)
		if code != 0 || !strings.Contains(out, id) {
			t.Errorf("%s: exit %d, the file does not name %s:\n%s\n%s", tool, code, id, out, errs)
			continue
		}
		yamlDocs(t, out)
	}

	code, out, errs = use("sagemaker")
	if code != 1 || out != "" || !strings.Contains(errs, "sagemaker cannot use this reservation") {
		t.Errorf("sagemaker with a block: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// A bought training plan is handed to SageMaker by its ARN, found by the plan's name; the
// EC2 tools refuse it.
func TestUseAPlan(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	p := boughtPlan(t, cs)
	code, out, errs := cli.Run("use", p.TrainingPlanName, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", "sagemaker")
	var job map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &job) != nil {
		t.Fatalf("sagemaker: exit %d, not JSON:\n%s\n%s", code, out, errs)
	}
	if at(t, job, "ResourceConfig", "TrainingPlanArn") != p.TrainingPlanArn || !strings.HasPrefix(p.TrainingPlanArn, "arn:aws:sagemaker:us-east-1:") {
		t.Errorf("the training job does not take the plan %s: %v", p.TrainingPlanArn, job)
	}
	// By its ARN, as the help says and the TUI's y copies it.
	code, out, errs = cli.Run("use", p.TrainingPlanArn, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", "sagemaker")
	if code != 0 || json.Unmarshal([]byte(out), &job) != nil || at(t, job, "ResourceConfig", "TrainingPlanArn") != p.TrainingPlanArn {
		t.Errorf("sagemaker by ARN: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = cli.Run("use", p.TrainingPlanName, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", "karpenter")
	if code != 1 || out != "" || !strings.Contains(errs, "--for sagemaker") {
		t.Errorf("karpenter with a plan: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// Bad usage is said before any call and exits 2; an id nobody holds is not found (1).
func TestUseRefusals(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"use", "cr-0123456789abcdef0"}, 2, "--for is required"},
		{[]string{"use", "cr-0123456789abcdef0", "--for", "slurm"}, 2, `unknown tool "slurm"`},
		{[]string{"use", "--for", "eks"}, 2, "RESERVATION"},
		{[]string{"use", "not an id", "--for", "eks"}, 2, `"not an id" is neither a Capacity Block id`},
		{[]string{"use", "cr-0123456789abcdef0", "--for", "eks"}, 1, "there is no Capacity Block cr-0123456789abcdef0 in us-east-1"},
	} {
		args := append(tc.args, "--endpoint-url", cs.URL, "--region", "us-east-1")
		code, out, errs := cli.Run(args...)
		if code != tc.code || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
}

// boughtPlan is the training plan bought on cs, the first offered for 2 p5.48xlarge
// instances for 2 to 5 days, with more of the search's flags (a --target), as the blocks
// command lists it.
func boughtPlan(t *testing.T, cs *cmdtest.Sim, more ...string) printers.PlanJSON {
	t.Helper()
	search := append([]string{"--endpoint-url", cs.URL, "--source", "training-plans", "--region", "us-east-1",
		"--type", "p5.48xlarge", "--count", "2", "--duration", "2d-5d", "--from", "2026-12-01T08:00:00Z", "--to", "2027-01-20"}, more...)
	offers := cli.ListOfferings(t, search...)
	if code, _, errs := cli.Run(append([]string{"purchase", offers[0].TrainingPlanOfferingId, "--yes"}, search...)...); code != 0 {
		t.Fatalf("plan purchase: exit %d\n%s", code, errs)
	}
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--source", "training-plans", "-o", "json")
	var plans []printers.PlanJSON
	if code != 0 || json.Unmarshal([]byte(out), &plans) != nil || len(plans) != 1 {
		t.Fatalf("blocks: exit %d\n%s\n%s", code, out, errs)
	}
	return plans[0]
}

// A purchase of a segmented offering made one reservation per segment: `use` given any
// one of them writes every one into the tool's file, and says so.
func TestUseAGroupNamesEveryReservation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cli.BoughtGroup(t, cs)
	use := func(id, tool string) (string, string) {
		t.Helper()
		code, out, errs := cli.Run("use", id, "--endpoint-url", cs.URL, "--region", "us-east-1", "--for", tool)
		if code != 0 {
			t.Fatalf("use %s --for %s: exit %d\n%s", id, tool, code, errs)
		}
		return out, errs
	}
	last := rows[len(rows)-1].CapacityReservationId
	out, errs := use(last, "karpenter")
	docs := yamlDocs(t, out)
	terms, _ := at(t, docs[0], "spec", "capacityReservationSelectorTerms").([]any)
	if len(terms) != len(rows) {
		t.Fatalf("karpenter selects %d reservations, want %d:\n%s", len(terms), len(rows), out)
	}
	zones := at(t, docs[1], "spec", "template", "spec", "requirements", 3, "values").([]any)
	for _, r := range rows {
		if !strings.Contains(out, "id: "+r.CapacityReservationId) || !strings.Contains(errs, r.CapacityReservationId) {
			t.Errorf("karpenter file or note lacks %s:\n%s\n%s", r.CapacityReservationId, out, errs)
		}
		found := false
		for _, z := range zones {
			found = found || z == r.AvailabilityZone
		}
		if !found {
			t.Errorf("karpenter's zones %v lack %s", zones, r.AvailabilityZone)
		}
	}

	out, _ = use(rows[0].CapacityReservationId, "skypilot")
	ids, _ := at(t, yamlDocs(t, out)[0], "aws", "specific_reservations").([]any)
	if len(ids) != len(rows) {
		t.Errorf("skypilot's specific_reservations %v, want %d ids", ids, len(rows))
	}
	out, _ = use(last, "dstack")
	if docs := yamlDocs(t, out); len(docs) != len(rows) {
		t.Errorf("dstack: %d fleets, want one per reservation:\n%s", len(docs), out)
	}
	out, _ = use(last, "parallelcluster")
	if res, _ := at(t, yamlDocs(t, out)[0], "Scheduling", "SlurmQueues", 0, "ComputeResources").([]any); len(res) != len(rows) {
		t.Errorf("parallelcluster: %d compute resources, want one per reservation:\n%s", len(res), out)
	}
	out, _ = use(last, "eks")
	var templates []map[string]any
	if err := json.Unmarshal([]byte(out), &templates); err != nil || len(templates) != len(rows) {
		t.Errorf("eks: %d launch templates' data (%v), want one per reservation:\n%s", len(templates), err, out)
	}
}

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
