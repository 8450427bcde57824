package ec2sim

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/smithy-go"
	"github.com/gpublock/gpublock/aws/simcore/simcoretest"
)

func TestDescribeInstanceTypes(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	out, err := c.DescribeInstanceTypes(ctx, &ec2.DescribeInstanceTypesInput{InstanceTypes: []types.InstanceType{"p5.48xlarge", "trn1.32xlarge", "p6e-gb200.36xlarge"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.InstanceTypes) != 3 {
		t.Fatalf("%d types", len(out.InstanceTypes))
	}
	byName := map[types.InstanceType]types.InstanceTypeInfo{}
	for _, it := range out.InstanceTypes {
		byName[it.InstanceType] = it
	}
	p5 := byName["p5.48xlarge"]
	if aws.ToInt32(p5.VCpuInfo.DefaultVCpus) != 192 || aws.ToInt64(p5.MemoryInfo.SizeInMiB) != 2048*1024 ||
		p5.GpuInfo == nil || len(p5.GpuInfo.Gpus) != 1 || aws.ToInt32(p5.GpuInfo.Gpus[0].Count) != 8 ||
		aws.ToString(p5.GpuInfo.Gpus[0].Name) != "H100" || aws.ToString(p5.GpuInfo.Gpus[0].Manufacturer) != "NVIDIA" ||
		aws.ToInt32(p5.GpuInfo.TotalGpuMemoryInMiB) != 8*80*1024 {
		t.Fatalf("p5.48xlarge: %+v %+v %+v", p5.VCpuInfo, p5.MemoryInfo, p5.GpuInfo)
	}
	if !slices.Contains(p5.SupportedUsageClasses, types.UsageClassTypeCapacityBlock) ||
		!slices.Equal(p5.ProcessorInfo.SupportedArchitectures, []types.ArchitectureType{types.ArchitectureTypeX8664}) {
		t.Fatalf("p5.48xlarge usage classes %v, architectures %v", p5.SupportedUsageClasses, p5.ProcessorInfo.SupportedArchitectures)
	}
	if !aws.ToBool(p5.NetworkInfo.EfaSupported) || aws.ToInt32(p5.NetworkInfo.MaximumNetworkCards) != 32 ||
		aws.ToString(p5.NetworkInfo.NetworkPerformance) != "3200 Gigabit" || len(p5.NetworkInfo.NetworkCards) != 32 {
		t.Fatalf("p5.48xlarge network: %+v", p5.NetworkInfo)
	}
	trn := byName["trn1.32xlarge"]
	if trn.NeuronInfo == nil || trn.GpuInfo != nil || aws.ToInt32(trn.NeuronInfo.NeuronDevices[0].Count) != 16 {
		t.Fatalf("trn1.32xlarge: neuron %+v gpu %+v", trn.NeuronInfo, trn.GpuInfo)
	}
	gb := byName["p6e-gb200.36xlarge"]
	if !slices.Equal(gb.ProcessorInfo.SupportedArchitectures, []types.ArchitectureType{types.ArchitectureTypeArm64}) || aws.ToInt32(gb.GpuInfo.Gpus[0].Count) != 4 {
		t.Fatalf("p6e-gb200.36xlarge: %+v %+v", gb.ProcessorInfo, gb.GpuInfo)
	}

	// Every type sold in the region, with a filter; paged.
	var seen []types.InstanceType
	p := ec2.NewDescribeInstanceTypesPaginator(c, &ec2.DescribeInstanceTypesInput{MaxResults: aws.Int32(5),
		Filters: []types.Filter{filterOf("supported-usage-class", "capacity-block")}})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.InstanceTypes {
			seen = append(seen, it.InstanceType)
		}
	}
	if len(seen) < 6 || !slices.Contains(seen, "p5.48xlarge") || slices.Contains(seen, "p5e.48xlarge") {
		t.Fatalf("types of us-east-1: %v", seen)
	}
	arm, err := c.DescribeInstanceTypes(ctx, &ec2.DescribeInstanceTypesInput{Filters: []types.Filter{filterOf("processor-info.supported-architecture", "arm64")}})
	if err != nil || len(arm.InstanceTypes) != 1 {
		t.Fatalf("arm64 types: %v %d", err, len(arm.InstanceTypes))
	}

	_, err = c.DescribeInstanceTypes(ctx, &ec2.DescribeInstanceTypesInput{InstanceTypes: []types.InstanceType{"p5.48xlarge", "p9.huge"}})
	wantCode(t, err, "InvalidInstanceType")
	_, err = c.DescribeInstanceTypes(ctx, &ec2.DescribeInstanceTypesInput{Filters: []types.Filter{filterOf("gpu-count", "8")}})
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.DescribeInstanceTypes(ctx, &ec2.DescribeInstanceTypesInput{MaxResults: aws.Int32(2)})
	wantCode(t, err, "InvalidParameterValue")
}

func TestLaunchTemplates(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	data := &types.RequestLaunchTemplateData{
		InstanceType:          types.InstanceTypeP548xlarge,
		InstanceMarketOptions: &types.LaunchTemplateInstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.LaunchTemplateCapacityReservationSpecificationRequest{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String("cr-0123456789abcdef0")}},
	}
	out, err := c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("gpublock-cr-1"), LaunchTemplateData: data,
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeLaunchTemplate, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ml")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	lt := out.LaunchTemplate
	if !strings.HasPrefix(aws.ToString(lt.LaunchTemplateId), "lt-") || aws.ToInt64(lt.LatestVersionNumber) != 1 || aws.ToString(lt.LaunchTemplateName) != "gpublock-cr-1" {
		t.Fatalf("template %+v", lt)
	}
	_, err = c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("gpublock-cr-1"), LaunchTemplateData: data})
	wantCode(t, err, "InvalidLaunchTemplateName.AlreadyExistsException")
	for _, bad := range []string{"ab", "has space", strings.Repeat("x", 129), "bad*name"} {
		_, err = c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String(bad), LaunchTemplateData: data})
		wantCode(t, err, "InvalidLaunchTemplateName.MalformedException")
	}
	_, err = c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("other"), LaunchTemplateData: &types.RequestLaunchTemplateData{
		InstanceMarketOptions: &types.LaunchTemplateInstanceMarketOptionsRequest{MarketType: "capacity-blocks"}}})
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("other"), LaunchTemplateData: &types.RequestLaunchTemplateData{
		CapacityReservationSpecification: &types.LaunchTemplateCapacityReservationSpecificationRequest{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String("cr-1")}}}})
	wantCode(t, err, "InvalidCapacityReservationId.Malformed")
	_, err = c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("dry"), LaunchTemplateData: data, DryRun: aws.Bool(true)})
	wantCode(t, err, "DryRunOperation")

	desc, err := c.DescribeLaunchTemplates(ctx, &ec2.DescribeLaunchTemplatesInput{Filters: []types.Filter{filterOf("tag:team", "ml")}})
	if err != nil || len(desc.LaunchTemplates) != 1 || aws.ToString(desc.LaunchTemplates[0].LaunchTemplateId) != aws.ToString(lt.LaunchTemplateId) {
		t.Fatalf("describe by tag: %v %+v", err, desc)
	}
	_, err = c.DescribeLaunchTemplates(ctx, &ec2.DescribeLaunchTemplatesInput{LaunchTemplateNames: []string{"nope"}})
	wantCode(t, err, "InvalidLaunchTemplateName.NotFoundException")
	_, err = c.DescribeLaunchTemplates(ctx, &ec2.DescribeLaunchTemplatesInput{LaunchTemplateIds: []string{"lt-0123456789abcdef0"}})
	wantCode(t, err, "InvalidLaunchTemplateId.NotFound")
	_, err = c.DescribeLaunchTemplates(ctx, &ec2.DescribeLaunchTemplatesInput{LaunchTemplateIds: []string{"lt-x"}})
	wantCode(t, err, "InvalidLaunchTemplateId.Malformed")

	if _, err := c.DeleteLaunchTemplate(ctx, &ec2.DeleteLaunchTemplateInput{LaunchTemplateName: aws.String("gpublock-cr-1")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteLaunchTemplate(ctx, &ec2.DeleteLaunchTemplateInput{LaunchTemplateId: lt.LaunchTemplateId})
	wantCode(t, err, "InvalidLaunchTemplateId.NotFound")
	// The name is free again.
	if _, err := c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String("gpublock-cr-1"), LaunchTemplateData: data}); err != nil {
		t.Fatal(err)
	}
}

// capacityBlockTemplate is what the EKS hand-off's template carries: the image, the type,
// the market type and the targeted reservation, and a tag list.
func capacityBlockTemplate(crID string) *types.RequestLaunchTemplateData {
	return &types.RequestLaunchTemplateData{
		ImageId:               aws.String("ami-0123456789abcdef0"),
		InstanceType:          types.InstanceTypeP548xlarge,
		InstanceMarketOptions: &types.LaunchTemplateInstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.LaunchTemplateCapacityReservationSpecificationRequest{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String(crID)}},
		TagSpecifications: []types.LaunchTemplateTagSpecificationRequest{{ResourceType: types.ResourceTypeInstance,
			Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("from-template")}, {Key: aws.String("team"), Value: aws.String("ml")}}}},
	}
}

// RunInstances launches from a template by id or name, the request's parameters
// overwriting the template's (a list whole), and refuses what the merged parameters lack
// as it refuses a bare request.
func TestRunInstancesFromLaunchTemplate(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	crID, subnet := activeBlock(t, s, c) // 2 instances
	template := func(name string, edit func(*types.RequestLaunchTemplateData)) string {
		t.Helper()
		data := capacityBlockTemplate(crID)
		edit(data)
		out, err := c.CreateLaunchTemplate(ctx, &ec2.CreateLaunchTemplateInput{LaunchTemplateName: aws.String(name), LaunchTemplateData: data})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.LaunchTemplate.LaunchTemplateId)
	}
	launch := func(spec types.LaunchTemplateSpecification, edit func(*ec2.RunInstancesInput)) (*ec2.RunInstancesOutput, error) {
		in := &ec2.RunInstancesInput{LaunchTemplate: &spec, MinCount: aws.Int32(1), MaxCount: aws.Int32(1)}
		edit(in)
		return c.RunInstances(ctx, in)
	}
	same := func(*ec2.RunInstancesInput) {}
	message := func(err error) string {
		t.Helper()
		var ae smithy.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("want an API error, got %v", err)
		}
		return ae.ErrorCode() + ": " + ae.ErrorMessage()
	}

	ltID := template("cb-plain", func(*types.RequestLaunchTemplateData) {})
	p4d := template("cb-p4d", func(d *types.RequestLaunchTemplateData) { d.InstanceType = types.InstanceTypeP4d24xlarge })
	noMarket := template("cb-no-market", func(d *types.RequestLaunchTemplateData) { d.InstanceMarketOptions = nil })
	noTarget := template("cb-no-target", func(d *types.RequestLaunchTemplateData) { d.CapacityReservationSpecification = nil })
	otherGroup := template("cb-other-group", func(d *types.RequestLaunchTemplateData) { d.SecurityGroupIds = []string{"sg-0fffffffffffffff0"} })

	for _, tc := range []struct {
		name string
		spec types.LaunchTemplateSpecification
		edit func(*ec2.RunInstancesInput)
		code string
	}{
		{"both id and name", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID), LaunchTemplateName: aws.String("cb-plain")}, same, "InvalidParameterCombination"},
		{"neither id nor name", types.LaunchTemplateSpecification{Version: aws.String("1")}, same, "MissingParameter"},
		{"missing id", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String("lt-0123456789abcdef0")}, same, "InvalidLaunchTemplateId.NotFound"},
		{"malformed id", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String("lt-x")}, same, "InvalidLaunchTemplateId.Malformed"},
		{"missing name", types.LaunchTemplateSpecification{LaunchTemplateName: aws.String("nope")}, same, "InvalidLaunchTemplateName.NotFoundException"},
		{"version 2", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID), Version: aws.String("2")}, same, "InvalidLaunchTemplateId.VersionNotFound"},
		{"version latest, no $", types.LaunchTemplateSpecification{LaunchTemplateName: aws.String("cb-plain"), Version: aws.String("latest")}, same, "InvalidLaunchTemplateId.VersionNotFound"},
		{"the template's type", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(p4d)}, same, "InvalidParameterValue"},
		{"the request's type", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID)}, func(in *ec2.RunInstancesInput) { in.InstanceType = types.InstanceTypeP4d24xlarge }, "InvalidParameterValue"},
		{"the template's group", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(otherGroup)}, same, "InvalidGroup.NotFound"},
		{"dry run, default version", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID), Version: aws.String("$Default")}, func(in *ec2.RunInstancesInput) { in.DryRun = aws.Bool(true) }, "DryRunOperation"},
		{"dry run, the request's group", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(otherGroup)}, func(in *ec2.RunInstancesInput) {
			in.DryRun, in.SecurityGroupIds = aws.Bool(true), []string{s.defaultGroupID("us-east-1")}
		}, "DryRunOperation"},
		{"dry run, no market type", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(noMarket)}, func(in *ec2.RunInstancesInput) { in.DryRun = aws.Bool(true) }, "InvalidParameterValue"},
		{"the request's market type", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(noMarket)}, func(in *ec2.RunInstancesInput) {
			in.DryRun, in.InstanceMarketOptions = aws.Bool(true), &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock}
		}, "DryRunOperation"},
		{"too many", types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID)}, func(in *ec2.RunInstancesInput) { in.MinCount, in.MaxCount = aws.Int32(3), aws.Int32(3) }, "ReservationCapacityExceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := launch(tc.spec, tc.edit)
			wantCode(t, err, tc.code)
		})
	}

	// A template that lacks the market type or the reservation is refused as a bare
	// request that lacks it is, in the same words.
	bare := launchInput(crID, subnet, 1)
	bare.InstanceMarketOptions = nil
	_, want := c.RunInstances(ctx, bare)
	_, got := launch(types.LaunchTemplateSpecification{LaunchTemplateName: aws.String("cb-no-market")}, func(in *ec2.RunInstancesInput) { in.SubnetId = aws.String(subnet) })
	if message(got) != message(want) {
		t.Errorf("without the market type: %q, a bare request %q", message(got), message(want))
	}
	bare = launchInput(crID, subnet, 1)
	bare.CapacityReservationSpecification = nil
	_, want = c.RunInstances(ctx, bare)
	_, got = launch(types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(noTarget)}, same)
	if message(got) != message(want) {
		t.Errorf("without the reservation: %q, a bare request %q", message(got), message(want))
	}
	if n := len(instanceStates(t, c, crID)); n != 0 {
		t.Fatalf("%d instances started by refused launches", n)
	}

	// By id, at its latest version: all from the template.
	out, err := launch(types.LaunchTemplateSpecification{LaunchTemplateId: aws.String(ltID), Version: aws.String("$Latest")}, same)
	if err != nil {
		t.Fatal(err)
	}
	in := out.Instances[0]
	if aws.ToString(in.CapacityReservationId) != crID || in.InstanceType != types.InstanceTypeP548xlarge || aws.ToString(in.ImageId) != "ami-0123456789abcdef0" ||
		in.InstanceLifecycle != types.InstanceLifecycleTypeCapacityBlock || len(in.Tags) != 2 {
		t.Errorf("from the template: %+v", in)
	}
	// By name, version 1: the request's type and tag list overwrite the template's.
	out, err = launch(types.LaunchTemplateSpecification{LaunchTemplateName: aws.String("cb-p4d"), Version: aws.String("1")}, func(in *ec2.RunInstancesInput) {
		in.InstanceType, in.SubnetId = types.InstanceTypeP548xlarge, aws.String(subnet)
		in.TagSpecifications = []types.TagSpecification{{ResourceType: types.ResourceTypeInstance, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("override")}}}}
	})
	if err != nil {
		t.Fatal(err)
	}
	in = out.Instances[0]
	if in.InstanceType != types.InstanceTypeP548xlarge || aws.ToString(in.SubnetId) != subnet ||
		len(in.Tags) != 1 || aws.ToString(in.Tags[0].Key) != "Name" || aws.ToString(in.Tags[0].Value) != "override" {
		t.Errorf("overwritten: type %s, subnet %s, tags %+v", in.InstanceType, aws.ToString(in.SubnetId), in.Tags)
	}
	if n := len(instanceStates(t, c, crID)); n != 2 {
		t.Fatalf("%d instances, want 2", n)
	}
}

// What real tools run, through the AWS CLI (botocore): Karpenter's tag lookup, the
// README's create-tags, ParallelCluster's type check, the EKS hand-off's template and a
// search. The calls that do not depend on each other run at once: each CLI start takes
// seconds. This CLI's botocore (1.43) predates InstanceTypePreferences (service/ec2
// v1.349.0's search), which the Go SDK tests cover.
func TestRealToolsThroughTheAWSCLI(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI is not installed")
	}
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, r := buy(t, c, p5Search(1, 24))
	id := aws.ToString(r.CapacityReservationId)
	file := filepath.Join(t.TempDir(), "eks-launch-template.json")
	tmpl := `{"InstanceType":"p5.48xlarge","InstanceMarketOptions":{"MarketType":"capacity-block"},"CapacityReservationSpecification":{"CapacityReservationTarget":{"CapacityReservationId":"` + id + `"}}}`
	if err := os.WriteFile(file, []byte(tmpl), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("tags", func(t *testing.T) {
		t.Parallel()
		if out, err := simcoretest.AWSCLI(t, url, "ec2", "create-tags", "--resources", id, "--tags", "Key=gpublock:auto-extend,Value=true"); err != nil {
			t.Fatalf("create-tags: %v\n%s", err, out)
		}
		out, err := simcoretest.AWSCLI(t, url, "ec2", "describe-capacity-reservations", "--filters", "Name=tag-key,Values=gpublock:auto-extend")
		if err != nil {
			t.Fatalf("describe-capacity-reservations: %v\n%s", err, out)
		}
		var crs struct {
			CapacityReservations []struct{ CapacityReservationId string }
		}
		if err := json.Unmarshal([]byte(out), &crs); err != nil || len(crs.CapacityReservations) != 1 || crs.CapacityReservations[0].CapacityReservationId != id {
			t.Fatalf("describe-capacity-reservations by tag-key: %v\n%s", err, out)
		}
	})
	t.Run("instance types", func(t *testing.T) {
		t.Parallel()
		out, err := simcoretest.AWSCLI(t, url, "ec2", "describe-instance-types", "--instance-types", "p5.48xlarge")
		if err != nil {
			t.Fatalf("describe-instance-types: %v\n%s", err, out)
		}
		var its struct {
			InstanceTypes []struct {
				InstanceType string
				VCpuInfo     struct{ DefaultVCpus int }
			}
		}
		if err := json.Unmarshal([]byte(out), &its); err != nil || len(its.InstanceTypes) != 1 || its.InstanceTypes[0].VCpuInfo.DefaultVCpus != 192 {
			t.Fatalf("describe-instance-types: %v\n%s", err, out)
		}
	})
	t.Run("launch template", func(t *testing.T) {
		t.Parallel()
		out, err := simcoretest.AWSCLI(t, url, "ec2", "create-launch-template", "--launch-template-name", "gpublock-"+id, "--launch-template-data", "file://"+file)
		if err != nil || !strings.Contains(out, `"LaunchTemplateId": "lt-`) {
			t.Fatalf("create-launch-template: %v\n%s", err, out)
		}
	})
	t.Run("search", func(t *testing.T) {
		t.Parallel()
		out, err := simcoretest.AWSCLI(t, url, "ec2", "describe-capacity-block-offerings", "--instance-type", "p5.48xlarge", "--instance-count", "1", "--capacity-duration-hours", "24")
		if err != nil || !strings.Contains(out, "cbr-") {
			t.Fatalf("describe-capacity-block-offerings: %v\n%s", err, out)
		}
	})
}
