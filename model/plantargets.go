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

// PlanStatus is a training plan's state in SageMaker's words (Pending, Scheduled, Active,
// Expired, Failed), as its console and CLI show it.
func PlanStatus(s BlockState) string {
	switch s {
	case StatePaymentPending:
		return "Pending"
	case StateScheduled:
		return "Scheduled"
	case StateActive:
		return "Active"
	case StateExpired:
		return "Expired"
	case StateFailed:
		return "Failed"
	}
	return string(s)
}
