package trainingplans

import (
	"context"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// AWS documents a plan extension's PaymentStatus as Pending then Completed; an unknown word
// stays pending, so that nothing is called paid that may not be.
func TestPlanExtensionStatus(t *testing.T) {
	for in, want := range map[string]model.ExtensionStatus{"Pending": model.ExtensionPaymentPending, "Completed": model.ExtensionPaymentSucceeded,
		"Failed": model.ExtensionPaymentFailed, "Whatever": model.ExtensionPaymentPending, "": model.ExtensionPaymentPending} {
		if got := ExtensionStatus(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// The plans are a source beside the blocks, with their differences as capabilities: no
// dry run, no launch, targets; a reservation id is routed by its form.
func TestPlansSource(t *testing.T) {
	src := Source(New(&awsapi.Client{}))
	caps := src.Caps()
	if caps.Source != model.SourceTrainingPlan || caps.DryRun || caps.Launch || len(caps.Targets) == 0 {
		t.Errorf("caps %+v", caps)
	}
	if reg := Caps; reg.Noun != caps.Noun || reg.DryRun || reg.NoDryRun == "" {
		t.Errorf("caps without a client %+v", reg)
	}
	o := model.Offering{Source: model.SourceTrainingPlan, ID: "tpo-1", Region: "us-east-1", Parts: []model.Part{{AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", Count: 1}}}
	if call, err := src.SpendCall(context.Background(), source.Intent{Kind: source.SpendPurchase, Offering: o}); err != nil || call.DryRun != nil || call.NoDryRun != caps.NoDryRun {
		t.Errorf("purchase: dry run %v, %q (%v), want none and the caps' sentence", call.DryRun != nil, call.NoDryRun, err)
	}
	if _, err := src.SpendCall(context.Background(), source.Intent{Kind: source.SpendLaunch}); err == nil {
		t.Error("a launch into a plan was not refused")
	}
	blocks := capacityblocks.New(&awsapi.Client{})
	all := []source.Source{blocks, src}
	for id, want := range map[string]model.Source{"cr-0123456789abcdef0": model.SourceCapacityBlock, "gpb-0123456789abcdef01234567": model.SourceTrainingPlan,
		"my-plan": model.SourceTrainingPlan} {
		if got, ok := source.Owning(all, id); !ok || got.Caps().Source != want {
			t.Errorf("%s: routed to %v, want %s", id, got, want)
		}
	}
	if _, ok := source.Owning(all, "not a name!"); ok {
		t.Error("an id no source could have was routed")
	}
}

// The adapter's own guard before any call is model's rule of training plans: the types
// they reserve, 1 to 64 instances by powers of two (UltraServers from 1), 1 to 182 days.
func TestQueryCheckIsModelsRule(t *testing.T) {
	ok := Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 4, Days: []int{2, 30}}
	if err := ok.Check(); err != nil {
		t.Fatalf("a valid query: %v", err)
	}
	for name, q := range map[string]Query{
		"type":        {InstanceTypes: []string{"g5.xlarge"}, Count: 4, Days: []int{2}},
		"count":       {InstanceTypes: []string{"p5.48xlarge"}, Count: 3, Days: []int{2}},
		"ultra count": {InstanceTypes: []string{"ml.u-p6e-gb200x72"}, Count: 0, Days: []int{2}},
		"days":        {InstanceTypes: []string{"p5.48xlarge"}, Count: 4, Days: []int{183}},
	} {
		if err := q.Check(); err == nil {
			t.Errorf("%s: %+v accepted", name, q)
		}
	}
	if err := (Query{InstanceTypes: []string{"ml.u-p6e-gb200x72"}, Count: 3, Days: []int{2}}).Check(); err != nil {
		t.Errorf("3 UltraServers: %v", err)
	}
}
