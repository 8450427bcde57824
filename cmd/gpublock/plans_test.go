package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
)

// startPlanSim is startCLISim serving SageMaker too.
func startPlanSim(t *testing.T, tweak ...func(*ec2sim.Options)) *cliSim {
	t.Helper()
	return startCLISim(t, append([]func(*ec2sim.Options){func(o *ec2sim.Options) {
		o.Protocols = []ec2sim.Protocol{sagemakersim.Protocol()}
	}}, tweak...)...)
}

// planSearch is a training plan search every test of this file runs.
var planSearch = []string{"--source", "training-plans", "--region", "us-east-1,us-east-2,us-west-2", "--type", "p5.48xlarge",
	"--count", "2", "--duration", "2d-5d", "--from", "2026-12-01T08:00:00Z", "--to", "2027-01-20"}

func planOfferings(t *testing.T, url string, extra ...string) []offeringJSON {
	t.Helper()
	args := append(append([]string{"offerings", "--endpoint-url", url, "-o", "json"}, planSearch...), extra...)
	code, out, errs := runCLI(args...)
	var rows []offeringJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("offerings: exit %d, stderr %q\n%s", code, errs, out)
	}
	return rows
}

func TestOfferingsTrainingPlansJSON(t *testing.T) {
	cs := startPlanSim(t)
	rows := planOfferings(t, cs.url)
	if len(rows) == 0 {
		t.Fatal("no training plan offering")
	}
	for _, r := range rows {
		if r.Source.Name() != "training-plans" || !strings.HasPrefix(r.TrainingPlanOfferingId, "tpo-") || r.CapacityBlockOfferingId != "" {
			t.Fatalf("row: %+v", r)
		}
		if !strings.HasPrefix(r.InstanceType, "ml.") || len(r.ReservedCapacityOfferings) == 0 || len(r.TargetResources) == 0 {
			t.Fatalf("row without the plan's fields: %+v", r)
		}
		var hours int64
		for _, p := range r.ReservedCapacityOfferings {
			hours += p.DurationHours
		}
		if hours != r.DurationHours {
			t.Fatalf("DurationHours %d is not the sum of the parts' %d", r.DurationHours, hours)
		}
		if r.OnDemandHourlyPrice != nil || !strings.Contains(r.NoOnDemandReason, "no SageMaker on-demand price") {
			t.Fatalf("break-even from EC2's price: %+v", r)
		}
	}
}
