package handoff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// The pages the SageMaker tools' files follow.
const (
	hyperpodDoc  = "https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-hyperpod-create-using-api-cli-sdk.html"
	sagemakerDoc = "https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-training-jobs-using-api-cli-sdk.html"
	endpointDoc  = "https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-inference-endpoints-using-api-cli-sdk.html"
)

// Placeholders the user fills in, in capitals as model.PlanUses writes them.
const (
	roleARN   = "arn:aws:iam::ACCOUNT_ID:role/ROLE_NAME"
	bucketURI = "s3://BUCKET/"
)

// plan is what the SageMaker tools take from a training plan.
type plan struct {
	name, arn, instanceType, region string
	count                           int
	targets                         []string
}

// trainingPlan reads b's ARN, ml.* instance type and count, or says which is missing. The
// count is the smallest part's: a plan's parts may differ, and a group or job that asks
// for more than the part of the moment holds would wait.
func trainingPlan(b model.Block) (plan, error) {
	p := plan{name: b.ReservationID, arn: b.ARN, instanceType: b.InstanceType, region: b.Region, count: b.TotalCount, targets: b.Targets}
	for i, part := range b.Parts {
		if p.instanceType == "" {
			p.instanceType = part.InstanceType
		}
		if i == 0 || part.Count < p.count {
			p.count = part.Count
		}
	}
	p.instanceType = model.SageMakerType(p.instanceType)
	switch {
	case !strings.Contains(p.arn, ":training-plan/"):
		return plan{}, fmt.Errorf("the training plan %q has no training-plan ARN, got %q", p.name, p.arn)
	case p.instanceType == "", p.region == "":
		return plan{}, fmt.Errorf("the training plan %q lacks its instance type or region", p.name)
	case p.count < 1:
		return plan{}, fmt.Errorf("the training plan %q holds no instances", p.name)
	}
	return p, nil
}

// has reports whether the plan was bought for target; a plan naming none is for training
// jobs, as SageMaker's search assumes (model.TargetsWords).
func (p plan) has(target string) bool {
	if len(p.targets) == 0 {
		return target == model.TargetTrainingJob
	}
	return slices.Contains(p.targets, target)
}

// resourceName is a SageMaker name made from the plan's: plan names and cluster, job and
// endpoint-config names share the pattern [a-zA-Z0-9](-*[a-zA-Z0-9])*, but plan names may
// be 64 characters and the others only 63.
func (p plan) resourceName() string {
	return strings.TrimRight(p.name[:min(len(p.name), 63)], "-")
}

// elsewhere is what to use a plan for instead, from the targets it was bought for.
func (p plan) elsewhere() string {
	var ways []string
	if p.has(model.TargetHyperPodCluster) {
		ways = append(ways, "use --for hyperpod")
	}
	if p.has(model.TargetTrainingJob) || p.has(model.TargetEndpoint) {
		ways = append(ways, "use --for sagemaker")
	}
	if p.has(model.TargetStudioApps) {
		ways = append(ways, "attach it to a SageMaker Studio JupyterLab or Code Editor app (ResourceSpec.TrainingPlanArn)")
	}
	return strings.Join(ways, ", or ")
}

// hyperpod writes a CreateCluster request whose worker instance group runs on the plan
// through InstanceGroups[].TrainingPlanArn, beside a controller group as the page's example
// has for Slurm (https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-hyperpod-create-using-api-cli-sdk.html;
// shapes: https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateCluster.html).
// A plan not bought for hyperpod-cluster is refused: SageMaker would reject the group.
func hyperpod(b model.Block) (File, error) {
	p, err := trainingPlan(b)
	if err != nil {
		return File{}, err
	}
	if !p.has(model.TargetHyperPodCluster) {
		return File{}, &Refusal{HyperPod, fmt.Sprintf("the plan was bought for %s, not HyperPod clusters", model.TargetsWords(p.targets)), p.elsewhere()}
	}
	lifecycle := m{"SourceS3Uri", bucketURI + "lifecycle/", "OnCreate", "on_create.sh"}
	out, err := toJSON(m{
		"ClusterName", p.resourceName(),
		"InstanceGroups", []any{
			m{"InstanceGroupName", "controller", "InstanceType", "ml.t3.xlarge", "InstanceCount", 1,
				"LifeCycleConfig", lifecycle, "ExecutionRole", roleARN, "ThreadsPerCore", 1},
			m{"InstanceGroupName", "workers", "InstanceType", p.instanceType, "InstanceCount", p.count,
				"LifeCycleConfig", lifecycle, "ExecutionRole", roleARN, "ThreadsPerCore", 1, "TrainingPlanArn", p.arn},
		},
	})
	if err != nil {
		return File{}, err
	}
	return File{Name: "hyperpod-cluster.json", Format: JSON, Content: out, Note: fmt.Sprintf(
		"Replace ACCOUNT_ID, ROLE_NAME and BUCKET (your lifecycle scripts). The workers group starts when the plan is active. "+
			"Apply: aws sagemaker create-cluster --region %s --cli-input-json file://hyperpod-cluster.json", p.region)}, nil
}

// sagemaker writes a CreateTrainingJob request with ResourceConfig.TrainingPlanArn for a
// plan bought for training jobs (https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-training-jobs-using-api-cli-sdk.html:
// one plan per job, its instance type the plan's). A plan bought for endpoints only gets a
// CreateEndpointConfig request instead, whose ProductionVariants[].CapacityReservationConfig
// takes the plan's ARN as MlReservationArn with the preference capacity-reservations-only
// (https://docs.aws.amazon.com/sagemaker/latest/dg/use-training-plan-for-inference-endpoints-using-api-cli-sdk.html).
func sagemaker(b model.Block) (File, error) {
	p, err := trainingPlan(b)
	if err != nil {
		return File{}, err
	}
	switch {
	case p.has(model.TargetTrainingJob):
		out, err := toJSON(m{
			"TrainingJobName", p.resourceName(),
			"RoleArn", roleARN,
			"AlgorithmSpecification", m{
				"TrainingImage", "ACCOUNT_ID.dkr.ecr." + p.region + ".amazonaws.com/IMAGE:TAG",
				"TrainingInputMode", "File",
			},
			"OutputDataConfig", m{"S3OutputPath", bucketURI + "output/"},
			"ResourceConfig", m{
				"InstanceType", p.instanceType,
				"InstanceCount", p.count,
				"VolumeSizeInGB", 100,
				"TrainingPlanArn", p.arn,
			},
			"StoppingCondition", m{"MaxRuntimeInSeconds", 86400},
		})
		if err != nil {
			return File{}, err
		}
		return File{Name: "sagemaker-training-job.json", Format: JSON, Content: out, Note: fmt.Sprintf(
			"Replace ACCOUNT_ID, ROLE_NAME, IMAGE:TAG and BUCKET; set MaxRuntimeInSeconds to your job's. The job waits (Pending) until the plan is active. "+
				"Apply: aws sagemaker create-training-job --region %s --cli-input-json file://sagemaker-training-job.json", p.region)}, nil
	case p.has(model.TargetEndpoint):
		out, err := toJSON(m{
			"EndpointConfigName", p.resourceName(),
			"ProductionVariants", []any{m{
				"VariantName", "AllTraffic",
				"ModelName", "MODEL_NAME",
				"InstanceType", p.instanceType,
				"InitialInstanceCount", p.count,
				"CapacityReservationConfig", m{
					"CapacityReservationPreference", "capacity-reservations-only",
					"MlReservationArn", p.arn,
				},
			}},
		})
		if err != nil {
			return File{}, err
		}
		return File{Name: "sagemaker-endpoint-config.json", Format: JSON, Content: out, Doc: endpointDoc, Note: fmt.Sprintf(
			"Replace MODEL_NAME (a model you created). The plan must be active; the endpoint fails its invocations once the plan ends. "+
				"Apply: aws sagemaker create-endpoint-config --region %s --cli-input-json file://sagemaker-endpoint-config.json, then aws sagemaker create-endpoint",
			p.region)}, nil
	}
	return File{}, &Refusal{SageMaker, fmt.Sprintf("the plan was bought for %s, not training jobs or endpoints", model.TargetsWords(p.targets)), p.elsewhere()}
}
