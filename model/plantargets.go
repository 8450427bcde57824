package model

import (
	"fmt"
	"strings"
)

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

// TargetsWords is what a plan is for, in words: "training job", "endpoint, Studio apps";
// training jobs when it names none, as SageMaker's search assumes.
func TargetsWords(targets []string) string {
	if len(targets) == 0 {
		return TargetLabel(TargetTrainingJob)
	}
	words := make([]string, len(targets))
	for i, t := range targets {
		words[i] = TargetLabel(t)
	}
	return strings.Join(words, ", ")
}

// Summary is one reserved capacity in a line: zone, count × type, start – end in UTC, its
// hours, and its status once bought.
func (p Part) Summary() string {
	what := fmt.Sprintf("%d × %s", p.Count, p.InstanceType)
	if p.UltraServerType != "" {
		what = fmt.Sprintf("%d × %s", max(1, p.UltraServerCount), p.UltraServerType)
	}
	const layout = "Jan 02 15:04"
	s := fmt.Sprintf("%s · %s · %s – %s UTC · %dh", p.AvailabilityZone, what, p.Start.UTC().Format(layout), p.End.UTC().Format(layout), p.minutes()/60)
	if p.Status != "" {
		s += " · " + p.Status
	}
	return s
}
