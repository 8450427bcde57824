package model

import "fmt"

// PlanUse is how a training plan is used by one kind of SageMaker resource: the field that
// takes its ARN, and an AWS CLI line to copy, with the placeholders a person fills in
// shown in capitals.
type PlanUse struct {
	Target  string // training-job, hyperpod-cluster, endpoint, studio-apps
	Field   string
	Command string
}

// PlanUses is how the plan b (a training plan reservation) is used, one entry per target
// resource it was bought for, in the order AWS lists them.
func PlanUses(b Block) []PlanUse {
	typ, count := b.InstanceType, b.TotalCount
	if len(b.Parts) > 0 {
		typ = b.Parts[0].InstanceType
		count = b.Parts[0].Count
	}
	count = max(1, count)
	var out []PlanUse
	for _, t := range b.Targets {
		switch t {
		case "training-job":
			out = append(out, PlanUse{t, "ResourceConfig.TrainingPlanArn", fmt.Sprintf(
				"aws sagemaker create-training-job --region %s --training-job-name JOB --role-arn ROLE_ARN --algorithm-specification TrainingImage=IMAGE,TrainingInputMode=File --output-data-config S3OutputPath=s3://BUCKET/out --stopping-condition MaxRuntimeInSeconds=86400 --resource-config '{\"InstanceType\":\"%s\",\"InstanceCount\":%d,\"VolumeSizeInGB\":100,\"TrainingPlanArn\":\"%s\"}'",
				b.Region, typ, count, b.ARN)})
		case "hyperpod-cluster":
			out = append(out, PlanUse{t, "InstanceGroups[].TrainingPlanArn", fmt.Sprintf(
				"aws sagemaker create-cluster --region %s --cluster-name CLUSTER --instance-groups '[{\"InstanceGroupName\":\"workers\",\"InstanceType\":\"%s\",\"InstanceCount\":%d,\"ExecutionRole\":\"ROLE_ARN\",\"LifeCycleConfig\":{\"SourceS3Uri\":\"s3://BUCKET/lifecycle\",\"OnCreate\":\"on_create.sh\"},\"TrainingPlanArn\":\"%s\"}]'",
				b.Region, typ, count, b.ARN)})
		case "endpoint":
			out = append(out, PlanUse{t, "ProductionVariants[].CapacityReservationConfig.MlReservationArn", fmt.Sprintf(
				"aws sagemaker create-endpoint-config --region %s --endpoint-config-name CONFIG --production-variants '[{\"VariantName\":\"AllTraffic\",\"ModelName\":\"MODEL\",\"InstanceType\":\"%s\",\"InitialInstanceCount\":%d,\"CapacityReservationConfig\":{\"CapacityReservationPreference\":\"capacity-reservations-only\",\"MlReservationArn\":\"%s\"}}]'",
				b.Region, typ, count, b.ARN)})
		case "studio-apps":
			out = append(out, PlanUse{t, "ResourceSpec.TrainingPlanArn", fmt.Sprintf(
				"aws sagemaker create-app --region %s --domain-id DOMAIN --space-name SPACE --app-type JupyterLab --app-name default --resource-spec '{\"InstanceType\":\"%s\",\"TrainingPlanArn\":\"%s\"}'",
				b.Region, typ, b.ARN)})
		}
	}
	return out
}
