package sagemakersim_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

// A plan is paid by the emulator's payment delay, as a Capacity Block is, and never later
// than the EC2 side's deadline before its start.
func TestPlanPaymentFollowsTheEmulatorsDelay(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{PaymentDelay: ec2sim.PaymentDelay{Min: 2 * time.Hour, Max: 2 * time.Hour}})
	region, o := findOfferings(t, url, 48, func(o types.TrainingPlanOffering) bool {
		return len(o.ReservedCapacityOfferings) == 1 && aws.ToTime(o.ReservedCapacityOfferings[0].StartTime).Sub(testStart) > 3*time.Hour
	})
	c := smClient(url, region)
	create(t, c, "plan-paid-late", aws.ToString(o.TrainingPlanOfferingId))
	status := func() types.TrainingPlanStatus {
		t.Helper()
		d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("plan-paid-late")})
		if err != nil {
			t.Fatal(err)
		}
		return d.Status
	}
	s.Advance(time.Hour)
	if st := status(); st != types.TrainingPlanStatusPending {
		t.Fatalf("an hour into a two-hour payment delay: %s, want Pending", st)
	}
	s.Advance(time.Hour + time.Minute)
	if st := status(); st != types.TrainingPlanStatusScheduled {
		t.Fatalf("after the payment delay: %s, want Scheduled", st)
	}
}

func TestPlanStartingSoonIsPaidBeforeItStarts(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{PaymentDelay: ec2sim.PaymentDelay{Min: 12 * time.Hour, Max: 12 * time.Hour}})
	now := testStart.Add(20 * time.Hour) // the next day's 11:30 start is 3½ hours away
	s.SetTime(now)
	region, o := findOfferings(t, url, 48, func(o types.TrainingPlanOffering) bool {
		st := aws.ToTime(o.ReservedCapacityOfferings[0].StartTime)
		return st.Sub(now) < 12*time.Hour && st.Sub(now) > ec2sim.PaymentLead
	})
	c := smClient(url, region)
	create(t, c, "plan-soon", aws.ToString(o.TrainingPlanOfferingId))
	s.SetTime(aws.ToTime(o.ReservedCapacityOfferings[0].StartTime).Add(-ec2sim.PaymentLead))
	d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("plan-soon")})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != types.TrainingPlanStatusScheduled {
		t.Fatalf("%s before the start, with a 12-hour delay: %s, want Scheduled (paid by the deadline)", ec2sim.PaymentLead, d.Status)
	}
}

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
