package sagemakersim_test

import (
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

// The emulator's price drop (the demo's, started by POST /_sim/price-drop) makes Training
// Plans cheaper too, as it does Capacity Blocks: the same plan two steps on costs less.
func TestPriceDropMakesPlansCheaper(t *testing.T) {
	drop := simcore.DemoPriceDrop
	s, url := newServer(t, ec2sim.Options{Speed: 1e-9, PriceDrop: &drop})
	resp, err := http.Post(url+"/_sim/price-drop", "", nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("starting the drop: %v %v", resp, err)
	}
	resp.Body.Close()
	region, first := findOfferings(t, url, 72, nil)
	key := func(o types.TrainingPlanOffering) string {
		rc := o.ReservedCapacityOfferings[0]
		return aws.ToString(rc.AvailabilityZone) + " " + aws.ToTime(rc.StartTime).String() + " " + aws.ToTime(rc.EndTime).String()
	}
	fee := func(o types.TrainingPlanOffering) model.Money {
		m, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
		if err != nil {
			t.Fatalf("fee %q: %v", aws.ToString(o.UpfrontFee), err)
		}
		return m
	}
	s.Advance(2 * drop.Every)
	out, err := smClient(url, region).SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", aws.ToInt32(first.ReservedCapacityOfferings[0].InstanceCount), 72))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out.TrainingPlanOfferings {
		if len(o.ReservedCapacityOfferings) == len(first.ReservedCapacityOfferings) && key(o) == key(first) {
			if fee(o).Cmp(fee(first)) >= 0 {
				t.Fatalf("two steps of the drop on, %s costs %s, as much as %s before", key(o), fee(o), fee(first))
			}
			return
		}
	}
	t.Fatalf("%s is no longer offered two minutes on: %d offerings", key(first), len(out.TrainingPlanOfferings))
}
