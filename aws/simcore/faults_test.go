package simcore

import (
	"slices"
	"strings"
	"testing"
)

func init() {
	RegisterActions(ActionSet{Service: "ec2", Label: "EC2 actions", Primary: true, Names: func() []string { return []string{"RunInstances", "DescribeImages"} }})
	RegisterActions(ActionSet{Service: "sagemaker", Label: "SageMaker operations", Names: func() []string { return []string{"CreateTrainingPlan"} }})
}

// The deny fault names any registered service's action, in any case, with that service's
// IAM prefix or none; another service's prefix names nothing.
func TestDenyNamesRegisteredActions(t *testing.T) {
	var f Faults
	for _, spec := range []string{"deny=runinstances", "deny=sagemaker:createtrainingplan", "deny=ec2:RunInstances"} {
		if err := ParseFault(spec, &f); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	if !slices.Equal(f.Deny, []string{"RunInstances", "CreateTrainingPlan"}) {
		t.Errorf("deny %v", f.Deny)
	}
	for _, spec := range []string{"deny=ec2:CreateTrainingPlan", "deny=sagemaker:RunInstances", "deny=sts:GetCallerIdentity", "deny=Nothing"} {
		err := ParseFault(spec, &f)
		if err == nil {
			t.Errorf("%s accepted", spec)
			continue
		}
		if !strings.Contains(err.Error(), "EC2 actions among DescribeImages, RunInstances; or SageMaker operations among CreateTrainingPlan") {
			t.Errorf("%s: %v", spec, err)
		}
	}
	if !strings.Contains(FaultHelp, "also SageMaker operations among CreateTrainingPlan, which answer AccessDeniedException") {
		t.Errorf("FaultHelp %s", FaultHelp)
	}
	if !(Faults{Deny: []string{DenyAll}}).Denies("Anything") || (Faults{Deny: []string{"RunInstances"}}).Denies("DescribeImages") {
		t.Error("Denies")
	}
}

func TestDownNamesServedRegionsOnly(t *testing.T) {
	var f Faults
	if err := ParseFault("down=us-east-2,eu-north-1", &f); err != nil || !slices.Equal(f.Down, []string{"us-east-2", "eu-north-1"}) {
		t.Errorf("%v %v", err, f.Down)
	}
	if err := ParseFault("down=us-west-1", &f); err == nil || len(f.Down) != 2 {
		t.Errorf("us-west-1, where no Capacity Blocks are sold, accepted: %v", f.Down)
	}
}

// down=SERVICE:REGION takes one service of a region down, the others answering.
func TestDownOneServiceOfARegion(t *testing.T) {
	var f Faults
	if err := ParseFault("down=monitoring:us-west-2, us-east-2", &f); err != nil || !slices.Equal(f.Down, []string{"monitoring:us-west-2", "us-east-2"}) {
		t.Fatalf("%v %v", err, f.Down)
	}
	if !f.DownIn("monitoring", "us-west-2") || f.DownIn("ec2", "us-west-2") || f.DownIn("monitoring", "us-east-1") || !f.DownIn("ec2", "us-east-2") {
		t.Errorf("DownIn of %v", f.Down)
	}
	for _, bad := range []string{"down=cloudfront:us-west-2", "down=monitoring:us-west-1"} {
		if err := ParseFault(bad, &f); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
