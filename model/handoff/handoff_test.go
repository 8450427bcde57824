package handoff

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"go.yaml.in/yaml/v3"
)

const (
	testCR      = "cr-0123456789abcdef0"
	testPlanARN = "arn:aws:sagemaker:us-east-1:123456789012:training-plan/llama-pretrain"
)

var start = time.Date(2027, 1, 11, 11, 30, 0, 0, time.UTC)

// testBlock is a scheduled Capacity Block of 4 p5.48xlarge in us-east-2b.
func testBlock() model.Block {
	return model.Block{Source: model.SourceCapacityBlock, ReservationID: testCR, BlockID: "cb-0123456789abcdef0",
		Region: "us-east-2", AvailabilityZone: "us-east-2b", InstanceType: "p5.48xlarge", Platform: "Linux/UNIX",
		TotalCount: 4, State: model.StateScheduled, Start: start, End: start.Add(7 * 24 * time.Hour)}
}

// testPlan is an active training plan of 2 ml.p5.48xlarge for training jobs and HyperPod.
func testPlan(targets ...string) model.Block {
	if targets == nil {
		targets = []string{model.TargetTrainingJob, model.TargetHyperPodCluster}
	}
	return model.Block{Source: model.SourceTrainingPlan, ReservationID: "llama-pretrain", ARN: testPlanARN,
		Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", TotalCount: 2,
		State: model.StateActive, Start: start, End: start.Add(48 * time.Hour), Targets: targets,
		Parts: []model.Part{{AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", Count: 2, Start: start,
			End: start.Add(48 * time.Hour), Hours: 48, ARN: "arn:aws:sagemaker:us-east-1:123456789012:reserved-capacity/llama-pretrain-rc1"}}}
}

func render(t *testing.T, tool Tool, b model.Block) File {
	t.Helper()
	f, err := Render(tool, b)
	if err != nil {
		t.Fatalf("Render(%s): %v", tool, err)
	}
	if f.Content == "" || f.Note == "" || !strings.HasPrefix(f.Doc, "https://") {
		t.Fatalf("Render(%s): empty content, note or doc: %+v", tool, f)
	}
	return f
}

// yamlDocs parses every document of a YAML stream into generic maps.
func yamlDocs(t *testing.T, f File) []map[string]any {
	t.Helper()
	if f.Format != YAML {
		t.Fatalf("%s: format %q, want yaml", f.Name, f.Format)
	}
	dec := yaml.NewDecoder(strings.NewReader(f.Content))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if err == io.EOF {
			return docs
		}
		if err != nil {
			t.Fatalf("%s is not YAML: %v\n%s", f.Name, err, f.Content)
		}
		docs = append(docs, d)
	}
}

func jsonDoc(t *testing.T, f File) map[string]any {
	t.Helper()
	if f.Format != JSON {
		t.Fatalf("%s: format %q, want json", f.Name, f.Format)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(f.Content), &d); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", f.Name, err, f.Content)
	}
	return d
}

// at walks a parsed document by map keys (string) and list indexes (int).
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for i, p := range path {
		switch k := p.(type) {
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %v", path, path[:i])
			}
			if v, ok = obj[k]; !ok {
				t.Fatalf("%v: no key %q", path, k)
			}
		case int:
			list, ok := v.([]any)
			if !ok || k >= len(list) {
				t.Fatalf("%v: no item %d at %v", path, k, path[:i])
			}
			v = list[k]
		}
	}
	return v
}

// equal compares a parsed value with want, numbers by value whatever their decoded type.
func equal(t *testing.T, v any, want any, path ...any) {
	t.Helper()
	got := at(t, v, path...)
	if n, ok := got.(float64); ok {
		got = int(n)
	}
	if l, ok := got.([]any); ok {
		if w, ok := want.([]string); ok {
			s := make([]string, len(l))
			for i := range l {
				s[i], _ = l[i].(string)
			}
			got = s
			want = w
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%v = %#v, want %#v", path, got, want)
	}
}

func TestKarpenterSelectsTheBlockAndOnlyReservedCapacity(t *testing.T) {
	f := render(t, Karpenter, testBlock())
	docs := yamlDocs(t, f)
	if f.Name != "karpenter.yaml" || len(docs) != 2 {
		t.Fatalf("want karpenter.yaml of 2 documents, got %s of %d:\n%s", f.Name, len(docs), f.Content)
	}
	nc, np := docs[0], docs[1]
	equal(t, nc, "karpenter.k8s.aws/v1", "apiVersion")
	equal(t, nc, "EC2NodeClass", "kind")
	equal(t, nc, testCR, "spec", "capacityReservationSelectorTerms", 0, "id")
	for _, required := range []string{"amiSelectorTerms", "subnetSelectorTerms", "securityGroupSelectorTerms"} {
		if terms, _ := at(t, nc, "spec", required).([]any); len(terms) == 0 {
			t.Errorf("EC2NodeClass spec.%s is empty", required)
		}
	}
	if role, _ := at(t, nc, "spec", "role").(string); role == "" {
		t.Error("EC2NodeClass has no spec.role")
	}

	equal(t, np, "karpenter.sh/v1", "apiVersion")
	equal(t, np, "NodePool", "kind")
	ref := at(t, np, "spec", "template", "spec", "nodeClassRef")
	equal(t, ref, "karpenter.k8s.aws", "group")
	equal(t, ref, "EC2NodeClass", "kind")
	equal(t, ref, at(t, nc, "metadata", "name"), "name")
	reqs := map[string][]string{}
	for _, r := range at(t, np, "spec", "template", "spec", "requirements").([]any) {
		if at(t, r, "operator") != "In" {
			t.Errorf("requirement %v: operator is not In", r)
		}
		for _, v := range at(t, r, "values").([]any) {
			reqs[at(t, r, "key").(string)] = append(reqs[at(t, r, "key").(string)], v.(string))
		}
	}
	want := map[string][]string{
		"karpenter.sh/capacity-type":                  {"reserved"},
		"karpenter.k8s.aws/capacity-reservation-type": {"capacity-block"},
		"node.kubernetes.io/instance-type":            {"p5.48xlarge"},
		"topology.kubernetes.io/zone":                 {"us-east-2b"},
	}
	if !reflect.DeepEqual(reqs, want) {
		t.Errorf("NodePool requirements = %v, want %v", reqs, want)
	}
	if !strings.Contains(f.Note, "kubectl apply -f karpenter.yaml") {
		t.Errorf("note does not say how to apply: %s", f.Note)
	}
}

func TestSkyPilotListsTheBlockInSpecificReservations(t *testing.T) {
	f := render(t, SkyPilot, testBlock())
	docs := yamlDocs(t, f)
	if len(docs) != 1 || len(docs[0]) != 1 {
		t.Fatalf("want one document with only the aws key:\n%s", f.Content)
	}
	equal(t, docs[0], []string{testCR}, "aws", "specific_reservations")
	for _, s := range []string{"~/.sky/config.yaml", "sky launch", "aws/us-east-2/us-east-2b", "p5.48xlarge", "--num-nodes 4"} {
		if !strings.Contains(f.Note, s) {
			t.Errorf("note lacks %q: %s", s, f.Note)
		}
	}
}

func TestDstackFleetUsesTheReservation(t *testing.T) {
	f := render(t, Dstack, testBlock())
	if !strings.HasSuffix(f.Name, ".dstack.yml") {
		t.Errorf("name %q: dstack takes only .dstack.yml files", f.Name)
	}
	d := yamlDocs(t, f)[0]
	equal(t, d, "fleet", "type")
	equal(t, d, testCR, "reservation")
	equal(t, d, 4, "nodes")
	equal(t, d, "cluster", "placement")
	equal(t, d, []string{"aws"}, "backends")
	equal(t, d, []string{"us-east-2"}, "regions")
	equal(t, d, []string{"p5.48xlarge"}, "instance_types")
	equal(t, d, "on-demand", "spot_policy")
	if !strings.Contains(f.Note, "dstack apply -f "+f.Name) {
		t.Errorf("note does not say how to apply: %s", f.Note)
	}

	one := testBlock()
	one.TotalCount = 1
	d = yamlDocs(t, render(t, Dstack, one))[0]
	if _, ok := d["placement"]; ok {
		t.Errorf("a one-node fleet needs no cluster placement: %v", d)
	}
}

func TestParallelClusterQueueIsACapacityBlockOfStaticNodes(t *testing.T) {
	f := render(t, ParallelCluster, testBlock())
	d := yamlDocs(t, f)[0]
	equal(t, d, "us-east-2", "Region")
	equal(t, d, "slurm", "Scheduling", "Scheduler")
	q := at(t, d, "Scheduling", "SlurmQueues", 0)
	equal(t, q, "CAPACITY_BLOCK", "CapacityType")
	cr := at(t, q, "ComputeResources", 0)
	equal(t, cr, testCR, "CapacityReservationTarget", "CapacityReservationId")
	equal(t, cr, "p5.48xlarge", "InstanceType")
	equal(t, cr, 4, "MinCount")
	equal(t, cr, 4, "MaxCount")
	for _, required := range [][]any{{"HeadNode", "InstanceType"}, {"HeadNode", "Networking", "SubnetId"}, {"Image", "Os"}, {"Name"}} {
		root := any(d)
		if required[0] == "Name" {
			root = q
		}
		if s, _ := at(t, root, required...).(string); s == "" {
			t.Errorf("%v is empty", required)
		}
	}
	if !strings.Contains(f.Note, "pcluster create-cluster") || !strings.Contains(f.Note, "--cluster-configuration parallelcluster.yaml") {
		t.Errorf("note does not say how to apply: %s", f.Note)
	}
}

func TestEKSLaunchTemplateTargetsTheBlock(t *testing.T) {
	f := render(t, EKS, testBlock())
	d := jsonDoc(t, f)
	equal(t, d, "capacity-block", "InstanceMarketOptions", "MarketType")
	equal(t, d, testCR, "CapacityReservationSpecification", "CapacityReservationTarget", "CapacityReservationId")
	equal(t, d, "p5.48xlarge", "InstanceType")
	for _, s := range []string{"create-launch-template", "--launch-template-data file://" + f.Name, "--capacity-type CAPACITY_BLOCK", "maxSize=4"} {
		if !strings.Contains(f.Note, s) {
			t.Errorf("note lacks %q: %s", s, f.Note)
		}
	}
}

func TestUltraServerBlockLaunchesItsMemberType(t *testing.T) {
	b := testBlock()
	b.InstanceType, b.TotalCount = "u-p6e-gb200x72", 18
	d := jsonDoc(t, render(t, EKS, b))
	equal(t, d, "p6e-gb200.36xlarge", "InstanceType")
}

// clusterNamePattern is SageMaker's pattern for cluster, job and endpoint-config names.
var clusterNamePattern = regexp.MustCompile(`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`)

func TestHyperPodWorkerGroupTakesThePlan(t *testing.T) {
	f := render(t, HyperPod, testPlan())
	d := jsonDoc(t, f)
	if name, _ := at(t, d, "ClusterName").(string); !clusterNamePattern.MatchString(name) {
		t.Errorf("ClusterName %q does not match SageMaker's pattern", name)
	}
	var withPlan []any
	for _, g := range at(t, d, "InstanceGroups").([]any) {
		for _, k := range []string{"InstanceGroupName", "InstanceType", "InstanceCount", "ExecutionRole", "LifeCycleConfig"} {
			at(t, g, k)
		}
		if g.(map[string]any)["TrainingPlanArn"] != nil {
			withPlan = append(withPlan, g)
		}
	}
	if len(withPlan) != 1 {
		t.Fatalf("want one instance group on the plan, got %d:\n%s", len(withPlan), f.Content)
	}
	equal(t, withPlan[0], testPlanARN, "TrainingPlanArn")
	equal(t, withPlan[0], "ml.p5.48xlarge", "InstanceType")
	equal(t, withPlan[0], 2, "InstanceCount")
	if !strings.Contains(f.Note, "aws sagemaker create-cluster --region us-east-1 --cli-input-json file://"+f.Name) {
		t.Errorf("note does not say how to apply: %s", f.Note)
	}
}

func TestSageMakerTrainingJobTakesThePlan(t *testing.T) {
	f := render(t, SageMaker, testPlan())
	d := jsonDoc(t, f)
	equal(t, d, testPlanARN, "ResourceConfig", "TrainingPlanArn")
	equal(t, d, "ml.p5.48xlarge", "ResourceConfig", "InstanceType")
	equal(t, d, 2, "ResourceConfig", "InstanceCount")
	for _, required := range [][]any{{"TrainingJobName"}, {"RoleArn"}, {"AlgorithmSpecification", "TrainingImage"},
		{"AlgorithmSpecification", "TrainingInputMode"}, {"OutputDataConfig", "S3OutputPath"}} {
		if s, _ := at(t, d, required...).(string); s == "" {
			t.Errorf("%v is empty", required)
		}
	}
	if n, _ := at(t, d, "StoppingCondition", "MaxRuntimeInSeconds").(float64); n <= 0 {
		t.Errorf("MaxRuntimeInSeconds = %v", n)
	}
	if name := at(t, d, "TrainingJobName").(string); !clusterNamePattern.MatchString(name) {
		t.Errorf("TrainingJobName %q does not match SageMaker's pattern", name)
	}
	if !strings.Contains(f.Note, "aws sagemaker create-training-job --region us-east-1 --cli-input-json file://"+f.Name) {
		t.Errorf("note does not say how to apply: %s", f.Note)
	}
}

func TestSageMakerEndpointOnlyPlanGetsAnEndpointConfig(t *testing.T) {
	f := render(t, SageMaker, testPlan(model.TargetEndpoint))
	d := jsonDoc(t, f)
	v := at(t, d, "ProductionVariants", 0)
	equal(t, v, testPlanARN, "CapacityReservationConfig", "MlReservationArn")
	equal(t, v, "capacity-reservations-only", "CapacityReservationConfig", "CapacityReservationPreference")
	equal(t, v, "ml.p5.48xlarge", "InstanceType")
	equal(t, v, 2, "InitialInstanceCount")
	if f.Doc != endpointDoc || !strings.Contains(f.Note, "create-endpoint-config") {
		t.Errorf("doc %q, note %q: want the endpoint page and command", f.Doc, f.Note)
	}
}

func TestPlanCountIsTheSmallestPartsAndTypeIsMLNamed(t *testing.T) {
	b := testPlan()
	b.InstanceType, b.TotalCount = "p5.48xlarge", 6
	b.Parts = []model.Part{{InstanceType: "ml.p5.48xlarge", Count: 4}, {InstanceType: "ml.p5.48xlarge", Count: 2}}
	d := jsonDoc(t, render(t, SageMaker, b))
	equal(t, d, 2, "ResourceConfig", "InstanceCount")
	equal(t, d, "ml.p5.48xlarge", "ResourceConfig", "InstanceType")
}

func TestRefusals(t *testing.T) {
	studio := testPlan(model.TargetStudioApps)
	cases := []struct {
		name string
		tool Tool
		b    model.Block
		want []string // in the error
	}{
		{"karpenter plan", Karpenter, testPlan(), []string{"training plan", "--for hyperpod", "--for sagemaker"}},
		{"skypilot plan", SkyPilot, testPlan(), []string{"training plan", "--for hyperpod"}},
		{"dstack plan", Dstack, testPlan(), []string{"training plan", "--for hyperpod"}},
		{"parallelcluster plan", ParallelCluster, testPlan(), []string{"training plan", "--for hyperpod"}},
		{"eks plan", EKS, testPlan(), []string{"training plan", "--for hyperpod"}},
		{"hyperpod block", HyperPod, testBlock(), []string{"not EC2 Capacity Blocks", "--for karpenter", "--for eks"}},
		{"sagemaker block", SageMaker, testBlock(), []string{"not EC2 Capacity Blocks", "--for parallelcluster"}},
		{"hyperpod training-job plan", HyperPod, testPlan(model.TargetTrainingJob), []string{"training job", "not HyperPod", "--for sagemaker"}},
		{"hyperpod endpoint plan", HyperPod, testPlan(model.TargetEndpoint), []string{"endpoint", "--for sagemaker"}},
		{"sagemaker hyperpod plan", SageMaker, testPlan(model.TargetHyperPodCluster), []string{"HyperPod cluster", "--for hyperpod"}},
		{"sagemaker studio plan", SageMaker, studio, []string{"Studio apps", "ResourceSpec.TrainingPlanArn"}},
	}
	for _, state := range []model.BlockState{model.StateExpired, model.StateCancelled, model.StateFailed, model.StatePaymentFailed} {
		b, p := testBlock(), testPlan()
		b.State, p.State = state, state
		cases = append(cases,
			struct {
				name string
				tool Tool
				b    model.Block
				want []string
			}{"karpenter " + string(state), Karpenter, b, []string{string(state), "never be used", "buy a new one"}},
			struct {
				name string
				tool Tool
				b    model.Block
				want []string
			}{"sagemaker " + string(state), SageMaker, p, []string{string(state), "never be used"}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Render(c.tool, c.b)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("got %v (file %q), want a refusal", err, f.Name)
			}
			if r.Tool != c.tool {
				t.Errorf("refusal names %s, want %s", r.Tool, c.tool)
			}
			for _, s := range c.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q lacks %q", err, s)
				}
			}
		})
	}
}

func TestUsableStatesRender(t *testing.T) {
	for _, state := range []model.BlockState{model.StatePaymentPending, model.StateScheduled, model.StateActive} {
		b, p := testBlock(), testPlan()
		b.State, p.State = state, state
		for _, tool := range Tools() {
			r := b
			if tool.Source() == model.SourceTrainingPlan {
				r = p
			}
			if _, err := Render(tool, r); err != nil {
				t.Errorf("%s, %s: %v", tool, state, err)
			}
		}
	}
}

func TestMissingFieldsAreErrorsNotRefusals(t *testing.T) {
	noID := testBlock()
	noID.ReservationID = "cb-0123456789abcdef0"
	noARN := testPlan()
	noARN.ARN = ""
	noZone := testBlock()
	noZone.AvailabilityZone = ""
	for _, c := range []struct {
		tool Tool
		b    model.Block
	}{{Karpenter, noID}, {ParallelCluster, noZone}, {SageMaker, noARN}, {HyperPod, noARN}} {
		_, err := Render(c.tool, c.b)
		var r *Refusal
		if err == nil || errors.As(err, &r) {
			t.Errorf("%s: got %v, want an error about the missing field", c.tool, err)
		}
	}
}

func TestParseTool(t *testing.T) {
	for _, in := range []string{"karpenter", " SkyPilot ", "DSTACK", "parallelcluster", "eks", "hyperpod", "sagemaker"} {
		got, err := ParseTool(in)
		if err != nil || string(got) != strings.ToLower(strings.TrimSpace(in)) {
			t.Errorf("ParseTool(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "kubernetes", "karpenter.sh", "sky"} {
		_, err := ParseTool(in)
		if err == nil {
			t.Errorf("ParseTool(%q): no error", in)
			continue
		}
		for _, name := range Tools() {
			if !strings.Contains(err.Error(), string(name)) {
				t.Errorf("ParseTool(%q) error %q does not list %s", in, err, name)
			}
		}
	}
	if _, err := Render("kubernetes", testBlock()); err == nil {
		t.Error("Render of an unknown tool: no error")
	}
}

func TestToolsTable(t *testing.T) {
	all := Tools()
	if len(all) != 7 {
		t.Fatalf("Tools() = %v, want 7 tools", all)
	}
	blocks, plans := ToolsFor(model.SourceCapacityBlock), ToolsFor(model.SourceTrainingPlan)
	if !reflect.DeepEqual(blocks, []Tool{Karpenter, SkyPilot, Dstack, ParallelCluster, EKS}) || !reflect.DeepEqual(plans, []Tool{HyperPod, SageMaker}) {
		t.Errorf("ToolsFor: blocks %v, plans %v", blocks, plans)
	}
	for _, tool := range all {
		if !strings.HasPrefix(tool.Doc(), "https://") {
			t.Errorf("%s has no documentation page", tool)
		}
	}
}

// Files keep the order the tools' documentation shows, so they read as its examples do.
func TestKeysKeepTheirOrder(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(render(t, Dstack, testBlock()).Content), &n); err != nil {
		t.Fatal(err)
	}
	if keys := n.Content[0].Content; keys[0].Value != "type" || keys[2].Value != "name" {
		t.Errorf("dstack fleet starts with %q, %q; want type, name", keys[0].Value, keys[2].Value)
	}
	dec := json.NewDecoder(strings.NewReader(render(t, SageMaker, testPlan()).Content))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	if k, err := dec.Token(); err != nil || k != "TrainingJobName" {
		t.Errorf("training job starts with %v (%v); want TrainingJobName", k, err)
	}
}

// An EC2 tool refusing a plan suggests only the tools the plan was bought for: a
// HyperPod-only plan is not sent to --for sagemaker, which would refuse it too.
func TestRefusingAPlanSuggestsWhatTakesIt(t *testing.T) {
	_, err := Render(Karpenter, testPlan(model.TargetHyperPodCluster))
	if err == nil || !strings.Contains(err.Error(), "--for hyperpod") || strings.Contains(err.Error(), "--for sagemaker") {
		t.Errorf("karpenter with a HyperPod-only plan: %v", err)
	}
	_, err = Render(Karpenter, testPlan(model.TargetTrainingJob))
	if err == nil || !strings.Contains(err.Error(), "--for sagemaker") || strings.Contains(err.Error(), "--for hyperpod") {
		t.Errorf("karpenter with a training-job plan: %v", err)
	}
}
