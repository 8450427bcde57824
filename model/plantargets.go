package model

// The SageMaker resources a training plan can be bought for (SageMakerResourceName), in
// the order the API documents them; training jobs when a search names none.
const (
	TargetTrainingJob     = "training-job"
	TargetHyperPodCluster = "hyperpod-cluster"
	TargetEndpoint        = "endpoint"
	TargetStudioApps      = "studio-apps"
)

// TrainingPlanTargets lists the target resources of training plans.
func TrainingPlanTargets() []string {
	return []string{TargetTrainingJob, TargetHyperPodCluster, TargetEndpoint, TargetStudioApps}
}

// TargetLabel is a target resource as a sentence names it: "HyperPod cluster".
func TargetLabel(t string) string {
	switch t {
	case TargetTrainingJob:
		return "training job"
	case TargetHyperPodCluster:
		return "HyperPod cluster"
	case TargetEndpoint:
		return "endpoint"
	case TargetStudioApps:
		return "Studio apps"
	}
	return t
}
