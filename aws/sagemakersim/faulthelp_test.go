package sagemakersim_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/simcore"
)

func TestFaultHelpListsSageMakersOperations(t *testing.T) {
	if !strings.Contains(simcore.FaultHelp, "SageMaker operations among") {
		t.Errorf("FaultHelp does not say which SageMaker operations deny= takes: %s", simcore.FaultHelp)
	}
	var f ec2sim.Faults
	err := ec2sim.ParseFault("deny=BuyEverything", &f)
	if err == nil {
		t.Fatal("deny=BuyEverything accepted")
	}
	for _, op := range sagemakersim.Operations() {
		if !strings.Contains(simcore.FaultHelp, op) {
			t.Errorf("FaultHelp lacks %s", op)
		}
		if !strings.Contains(err.Error(), op) {
			t.Errorf("the deny error lacks %s: %v", op, err)
		}
	}
	if !strings.Contains(err.Error(), "PurchaseCapacityBlock") {
		t.Errorf("the deny error lacks the EC2 actions: %v", err)
	}
}

func TestDenyFaultReadsSageMakerNames(t *testing.T) {
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("deny=sagemaker:createtrainingplan, ExtendTrainingPlan", &f); err != nil {
		t.Fatal(err)
	}
	if want := []string{"CreateTrainingPlan", "ExtendTrainingPlan"}; !slices.Equal(f.Deny, want) {
		t.Errorf("Deny = %q, want %q", f.Deny, want)
	}
	for _, bad := range []string{"deny=ec2:CreateTrainingPlan", "deny=sts:CreateTrainingPlan", "deny=sagemaker:RunInstances"} {
		var g ec2sim.Faults
		if err := ec2sim.ParseFault(bad, &g); err == nil {
			t.Errorf("%s accepted: %q (another service's prefix)", bad, g.Deny)
		}
	}
}
