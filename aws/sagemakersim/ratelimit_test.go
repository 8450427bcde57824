package sagemakersim_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/simcore"
)

// A fixed bucket clock: nothing refills during the test.
func frozen() time.Time { return testStart }

func TestRateLimitsThrottleWhenTheBucketIsEmpty(t *testing.T) {
	sm := apilimit.SageMaker()
	sm.Actions["SearchTrainingPlanOfferings"] = apilimit.Limit{Burst: 3, Rate: 0.001}
	_, url := newServer(t, ec2sim.Options{RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2(), SageMaker: sm, Now: frozen}})
	east := smClient(url, "us-east-1")
	for i := 0; i < 3; i++ {
		if _, err := east.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", 1, 24)); err != nil {
			t.Fatalf("call %d of the burst of 3: %v", i+1, err)
		}
	}
	_, err := east.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", 1, 24))
	wantCode(t, err, "ThrottlingException")
	// Buckets are per region and per operation.
	if _, err := smClient(url, "us-west-2").SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", 1, 24)); err != nil {
		t.Errorf("another region's bucket is its own: %v", err)
	}
	if _, err := east.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{}); err != nil {
		t.Errorf("another operation's bucket is its own: %v", err)
	}
}

func TestRateLimitsOffNeverThrottle(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	c := smClient(url, "us-east-1")
	for i := 0; i < 30; i++ {
		if _, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{}); err != nil {
			t.Fatalf("call %d without rate limits: %v", i+1, err)
		}
	}
}

// An ec2sim.RateLimits made with EC2's table only still limits SageMaker, by the guess.
func TestRateLimitsUnsetSageMakerTableUsesTheGuess(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2(), Now: frozen}})
	c := smClient(url, "us-east-1")
	burst := int(apilimit.SageMaker().For("ListTrainingPlans", false).Burst)
	for i := 0; i < burst; i++ {
		if _, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{}); err != nil {
			t.Fatalf("call %d of the burst of %d: %v", i+1, burst, err)
		}
	}
	_, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{})
	wantCode(t, err, "ThrottlingException")
}

func TestEveryOperationHasANamedBucket(t *testing.T) {
	tab := apilimit.SageMaker()
	for _, op := range sagemakersim.Operations() {
		l, ok := tab.Actions[op]
		if !ok || l.Burst < 1 || l.Rate <= 0 {
			t.Errorf("%s: bucket %v, named %v", op, l, ok)
		}
	}
}

func TestSimLimitsServesSageMakersBuckets(t *testing.T) {
	rl := ec2sim.AWSRateLimits(4)
	_, url := newServer(t, ec2sim.Options{RateLimits: rl})
	resp, err := http.Get(url + "/_sim/limits?service=sagemaker")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	got, err := apilimit.Parse(string(b))
	if err != nil {
		t.Fatalf("%v in %q", err, b)
	}
	want := apilimit.SageMaker().For("SearchTrainingPlanOfferings", false)
	if l := got.For("SearchTrainingPlanOfferings", false); l.Burst != want.Burst || l.Rate != want.Rate*4 {
		t.Errorf("SearchTrainingPlanOfferings %v, want %v scaled ×4", l, want)
	}
}

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
