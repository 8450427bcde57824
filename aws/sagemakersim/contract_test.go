package sagemakersim_test

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

func TestSearchOfferingsShape(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	if !strings.HasPrefix(aws.ToString(o.TrainingPlanOfferingId), "tpo-") {
		t.Errorf("offering id %q: want tpo-…", aws.ToString(o.TrainingPlanOfferingId))
	}
	if n := len(o.ReservedCapacityOfferings); n < 1 || n > 5 {
		t.Fatalf("%d reserved capacities; want 1 to 5", n)
	}
	fee, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil || fee.Micros() <= 0 || aws.ToString(o.CurrencyCode) != "USD" {
		t.Fatalf("fee %q %q: want a positive USD decimal", aws.ToString(o.UpfrontFee), aws.ToString(o.CurrencyCode))
	}
	var hours int64
	for i, rc := range o.ReservedCapacityOfferings {
		hours += aws.ToInt64(rc.DurationHours)
		if rc.ReservedCapacityType != types.ReservedCapacityTypeInstance || rc.InstanceType != "ml.p5.48xlarge" {
			t.Errorf("capacity %d: %s %s", i, rc.ReservedCapacityType, rc.InstanceType)
		}
		if !strings.HasPrefix(aws.ToString(rc.AvailabilityZone), region) {
			t.Errorf("capacity %d in %s, not in %s", i, aws.ToString(rc.AvailabilityZone), region)
		}
		if st, en := aws.ToTime(rc.StartTime), aws.ToTime(rc.EndTime); en.Sub(st) != time.Duration(aws.ToInt64(rc.DurationHours))*time.Hour {
			t.Errorf("capacity %d: %s–%s is not %d hours", i, st, en, aws.ToInt64(rc.DurationHours))
		}
		if !aws.ToTime(rc.StartTime).After(testStart) {
			t.Errorf("capacity %d starts %s, before now", i, aws.ToTime(rc.StartTime))
		}
	}
	if hours != 48 || aws.ToInt64(o.DurationHours) != 48 {
		t.Errorf("reserved hours %d, offering says %d; want 48", hours, aws.ToInt64(o.DurationHours))
	}
	if len(o.TargetResources) != 1 || o.TargetResources[0] != types.SageMakerResourceNameTrainingJob {
		t.Errorf("target resources %v", o.TargetResources)
	}
}

func TestSearchIsDeterministicAndSometimesSplit(t *testing.T) {
	_, url1 := newServer(t, ec2sim.Options{})
	_, url2 := newServer(t, ec2sim.Options{})
	split, empty, total := 0, 0, 0
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		for _, n := range []int32{1, 2, 4, 8, 16} {
			for _, days := range []int64{3, 7, 14} {
				a, err1 := smClient(url1, region).SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", n, days*24))
				b, err2 := smClient(url2, region).SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", n, days*24))
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("same seed, different answers: %v / %v", err1, err2)
				}
				if err1 != nil {
					continue
				}
				if fmt.Sprint(ids(a)) != fmt.Sprint(ids(b)) {
					t.Fatalf("same seed and clock, different offerings: %v / %v", ids(a), ids(b))
				}
				total++
				if len(a.TrainingPlanOfferings) == 0 {
					empty++
				}
				for _, o := range a.TrainingPlanOfferings {
					if len(o.ReservedCapacityOfferings) > 1 {
						split++
					}
				}
			}
		}
	}
	if split == 0 || empty == 0 || empty == total {
		t.Fatalf("over %d searches: %d empty, %d multi-part offerings; want some of each", total, empty, split)
	}
}

func ids(o *sagemaker.SearchTrainingPlanOfferingsOutput) []string {
	var out []string
	for _, x := range o.TrainingPlanOfferings {
		out = append(out, aws.ToString(x.TrainingPlanOfferingId)+"="+aws.ToString(x.UpfrontFee))
	}
	return out
}

func TestSearchValidation(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	c := smClient(url, "us-east-1")
	cases := []struct {
		name string
		in   *sagemaker.SearchTrainingPlanOfferingsInput
		want string // in the message
	}{
		{"count not allowed", search("ml.p5.48xlarge", 3, 48), "Invalid instance count 3"},
		{"count above 256", search("ml.p5.48xlarge", 300, 48), "instanceCount"},
		{"type not in enum", search("ml.g5.48xlarge", 1, 48), "instanceType"},
		{"hours not whole days", search("ml.p5.48xlarge", 1, 30), "whole days"},
		{"hours above range", search("ml.p5.48xlarge", 1, 90000), "durationHours"},
		{"more than 182 days", search("ml.p5.48xlarge", 1, 183*24), "182"},
		{"no duration", &sagemaker.SearchTrainingPlanOfferingsInput{InstanceType: "ml.p5.48xlarge", InstanceCount: aws.Int32(1),
			TargetResources: []types.SageMakerResourceName{"training-job"}}, "durationHours"},
		{"bad target", &sagemaker.SearchTrainingPlanOfferingsInput{InstanceType: "ml.p5.48xlarge", InstanceCount: aws.Int32(1),
			DurationHours: aws.Int64(48), TargetResources: []types.SageMakerResourceName{"notebook"}}, "targetResources"},
		{"bad ultraserver type", &sagemaker.SearchTrainingPlanOfferingsInput{UltraServerType: aws.String("u-x"),
			DurationHours: aws.Int64(48), TargetResources: []types.SageMakerResourceName{"training-job"}}, "ultraServerType"},
		{"end before start", func() *sagemaker.SearchTrainingPlanOfferingsInput {
			in := search("ml.p5.48xlarge", 1, 48)
			in.StartTimeAfter, in.EndTimeBefore = aws.Time(testStart.Add(72*time.Hour)), aws.Time(testStart)
			return in
		}(), "EndTimeBefore"},
		{"bad plan arn", func() *sagemaker.SearchTrainingPlanOfferingsInput {
			in := search("ml.p5.48xlarge", 1, 48)
			in.TrainingPlanArn = aws.String("arn:aws:sagemaker:us-east-1:123:training-plan/x")
			return in
		}(), "trainingPlanArn"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.SearchTrainingPlanOfferings(ctx, tc.in)
			wantCode(t, err, "ValidationException")
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("message %q does not name %q", err, tc.want)
			}
		})
	}
}

func TestTypeNotSoldInRegion(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	tt, r := simtest.TypeNotSoldIn(t, ec2sim.Regions())
	_, err := smClient(url, r).SearchTrainingPlanOfferings(ctx, search("ml."+tt, 1, 48))
	wantCode(t, err, "ValidationException")
	if !strings.Contains(err.Error(), "Invalid instance type ml."+tt) {
		t.Fatal(err)
	}
}

func TestCreateDescribeAndLifecycle(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, func(o types.TrainingPlanOffering) bool { return len(o.ReservedCapacityOfferings) == 1 })
	c := smClient(url, region)
	arn := create(t, c, "plan-a", aws.ToString(o.TrainingPlanOfferingId))
	if want := "arn:aws:sagemaker:" + region + ":" + ec2sim.DemoAccount + ":training-plan/plan-a"; arn != want {
		t.Fatalf("arn %s, want %s", arn, want)
	}
	status := func(by string) types.TrainingPlanStatus {
		t.Helper()
		d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String(by)})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(d.UpfrontFee) != aws.ToString(o.UpfrontFee) || aws.ToString(d.TrainingPlanArn) != arn {
			t.Fatalf("describe: fee %s arn %s; bought %s", aws.ToString(d.UpfrontFee), aws.ToString(d.TrainingPlanArn), aws.ToString(o.UpfrontFee))
		}
		return d.Status
	}
	if st := status("plan-a"); st != types.TrainingPlanStatusPending {
		t.Fatalf("just created: %s, want Pending", st)
	}
	s.Advance(6 * time.Minute)
	if st := status(arn); st != types.TrainingPlanStatusScheduled {
		t.Fatalf("after payment: %s, want Scheduled (by ARN)", st)
	}
	rc := o.ReservedCapacityOfferings[0]
	s.SetTime(aws.ToTime(rc.StartTime).Add(time.Minute))
	if st := status("plan-a"); st != types.TrainingPlanStatusActive {
		t.Fatalf("after start: %s, want Active", st)
	}
	d, _ := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("plan-a")})
	if aws.ToInt32(d.AvailableInstanceCount) != aws.ToInt32(rc.InstanceCount) || len(d.ReservedCapacitySummaries) != 1 {
		t.Fatalf("active plan: available %d of %d, %d capacities", aws.ToInt32(d.AvailableInstanceCount), aws.ToInt32(rc.InstanceCount), len(d.ReservedCapacitySummaries))
	}
	rcArn := aws.ToString(d.ReservedCapacitySummaries[0].ReservedCapacityArn)
	drc, err := c.DescribeReservedCapacity(ctx, &sagemaker.DescribeReservedCapacityInput{ReservedCapacityArn: aws.String(rcArn)})
	if err != nil {
		t.Fatal(err)
	}
	if drc.Status != types.ReservedCapacityStatusActive || aws.ToString(drc.AvailabilityZone) != aws.ToString(rc.AvailabilityZone) {
		t.Fatalf("reserved capacity: %s in %s", drc.Status, aws.ToString(drc.AvailabilityZone))
	}
	s.SetTime(aws.ToTime(rc.EndTime))
	if st := status("plan-a"); st != types.TrainingPlanStatusExpired {
		t.Fatalf("at the end: %s, want Expired", st)
	}
}

func TestGapBetweenCapacitiesIsScheduled(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferingsWide(t, url, func(o types.TrainingPlanOffering) bool {
		rcs := o.ReservedCapacityOfferings
		for i := 1; i < len(rcs); i++ {
			if aws.ToTime(rcs[i].StartTime).After(aws.ToTime(rcs[i-1].EndTime)) {
				return true
			}
		}
		return false
	})
	c := smClient(url, region)
	create(t, c, "gappy", aws.ToString(o.TrainingPlanOfferingId))
	rcs := o.ReservedCapacityOfferings
	var gapAt time.Time
	for i := 1; i < len(rcs); i++ {
		if aws.ToTime(rcs[i].StartTime).After(aws.ToTime(rcs[i-1].EndTime)) {
			gapAt = aws.ToTime(rcs[i-1].EndTime).Add(time.Minute)
			break
		}
	}
	at := func(tm time.Time) types.TrainingPlanStatus {
		s.SetTime(tm)
		d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("gappy")})
		if err != nil {
			t.Fatal(err)
		}
		return d.Status
	}
	if st := at(aws.ToTime(rcs[0].StartTime).Add(time.Minute)); st != types.TrainingPlanStatusActive {
		t.Fatalf("in the first capacity: %s", st)
	}
	if st := at(gapAt); st != types.TrainingPlanStatusScheduled {
		t.Fatalf("in a gap: %s, want Scheduled", st)
	}
}

// findOfferingsWide looks over types, counts, lengths and regions for an offering that
// accept likes.
func findOfferingsWide(t testing.TB, url string, accept func(types.TrainingPlanOffering) bool) (string, types.TrainingPlanOffering) {
	t.Helper()
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		for _, n := range []int32{1, 2, 4} {
			for _, days := range []int64{5, 7, 10, 14} {
				out, err := smClient(url, region).SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", n, days*24))
				if err != nil {
					continue
				}
				for _, o := range out.TrainingPlanOfferings {
					if accept(o) {
						return region, o
					}
				}
			}
		}
	}
	t.Fatal("no such offering anywhere")
	return "", types.TrainingPlanOffering{}
}

func TestCreateErrors(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	id := aws.ToString(o.TrainingPlanOfferingId)
	bad := func(name, offering, want string) {
		t.Helper()
		_, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String(name), TrainingPlanOfferingId: aws.String(offering)})
		wantCode(t, err, want)
	}
	bad("-starts-with-dash", id, "ValidationException")
	bad(strings.Repeat("a", 65), id, "ValidationException")
	bad("ok", "TPO-UPPER", "ValidationException")
	bad("ok", "tpo-"+strings.Repeat("0", 64), "ResourceNotFound")
	_, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("tagged"), TrainingPlanOfferingId: aws.String(id),
		Tags: []types.Tag{{Key: aws.String("bad#key"), Value: aws.String("v")}}})
	wantCode(t, err, "ValidationException")
	create(t, c, "taken", id)
	bad("taken", id, "ResourceInUse")
	bad("other", id, "ResourceNotFound") // the offering is spent
}

// ListTags answers a plan's tags as it was created with them, none for one of its reserved
// capacities, and refuses a page under 50, a token it did not issue and an ARN of nothing.
func TestListTags(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, func(o types.TrainingPlanOffering) bool { return len(o.ReservedCapacityOfferings) == 1 })
	c := smClient(url, region)
	out, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("tagged"),
		TrainingPlanOfferingId: o.TrainingPlanOfferingId,
		Tags:                   []types.Tag{{Key: aws.String("team"), Value: aws.String("ml-infra")}, {Key: aws.String("cost:center"), Value: aws.String("")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.TrainingPlanArn)
	got, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tags) != 2 || aws.ToString(got.Tags[0].Key) != "team" || aws.ToString(got.Tags[0].Value) != "ml-infra" ||
		aws.ToString(got.Tags[1].Key) != "cost:center" || got.NextToken != nil {
		t.Fatalf("tags %+v, next %v", got.Tags, got.NextToken)
	}
	d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("tagged")})
	if err != nil || len(d.ReservedCapacitySummaries) != 1 {
		t.Fatalf("describe: %v", err)
	}
	rc, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: d.ReservedCapacitySummaries[0].ReservedCapacityArn})
	if err != nil || len(rc.Tags) != 0 {
		t.Fatalf("a reserved capacity's tags: %+v, %v", rc, err)
	}
	_, err = c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn), MaxResults: aws.Int32(49)})
	wantCode(t, err, "ValidationException")
	_, err = c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn), NextToken: aws.String("not-issued")})
	wantCode(t, err, "ValidationException")
	_, err = c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String("not an arn")})
	wantCode(t, err, "ValidationException")
	_, err = c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(strings.Replace(arn, "/tagged", "/never-made", 1))})
	wantCode(t, err, "ResourceNotFound")
}

// AddTags adds to a plan's tags (a key it holds takes the new value) and DeleteTags removes
// keys (one it does not hold is no error); both are kept across a restart. A reserved
// capacity's ARN, more than 50 tags, an aws: key, no keys and an ARN of nothing are refused.
func TestAddAndDeleteTags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	_, url := newServer(t, ec2sim.Options{StateFile: file})
	region, o := findOfferings(t, url, 48, func(o types.TrainingPlanOffering) bool { return len(o.ReservedCapacityOfferings) == 1 })
	c := smClient(url, region)
	out, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("retagged"),
		TrainingPlanOfferingId: o.TrainingPlanOfferingId, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ml-infra")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.TrainingPlanArn
	tags := func(c *sagemaker.Client) map[string]string {
		t.Helper()
		got, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, tg := range got.Tags {
			m[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
		}
		return m
	}
	added, err := c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: arn,
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("research")}, {Key: aws.String("env"), Value: aws.String("prod")}}})
	if err != nil || len(added.Tags) != 2 {
		t.Fatalf("AddTags: %+v, %v", added, err)
	}
	if got := tags(c); len(got) != 2 || got["team"] != "research" || got["env"] != "prod" {
		t.Fatalf("after AddTags: %v", got)
	}
	if _, err := c.DeleteTags(ctx, &sagemaker.DeleteTagsInput{ResourceArn: arn, TagKeys: []string{"team", "never-set"}}); err != nil {
		t.Fatal(err)
	}
	_, url2 := newServer(t, ec2sim.Options{StateFile: file})
	if got := tags(smClient(url2, region)); len(got) != 1 || got["env"] != "prod" {
		t.Fatalf("after DeleteTags and a restart: %v", got)
	}

	d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("retagged")})
	if err != nil || len(d.ReservedCapacitySummaries) != 1 {
		t.Fatalf("describe: %v", err)
	}
	_, err = c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: d.ReservedCapacitySummaries[0].ReservedCapacityArn,
		Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
	wantCode(t, err, "ValidationException")
	many := make([]types.Tag, 50)
	for i := range many {
		many[i] = types.Tag{Key: aws.String(fmt.Sprintf("k%d", i)), Value: aws.String("v")}
	}
	_, err = c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: arn, Tags: many}) // 50 new beside env
	wantCode(t, err, "ValidationException")
	_, err = c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: arn, Tags: []types.Tag{{Key: aws.String("AWS:x"), Value: aws.String("v")}}})
	wantCode(t, err, "ValidationException")
	_, err = c.DeleteTags(ctx, &sagemaker.DeleteTagsInput{ResourceArn: arn, TagKeys: []string{}})
	wantCode(t, err, "ValidationException")
	nothing := aws.String(strings.Replace(aws.ToString(arn), "/retagged", "/never-made", 1))
	_, err = c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: nothing, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
	wantCode(t, err, "ResourceNotFound")
	_, err = c.DeleteTags(ctx, &sagemaker.DeleteTagsInput{ResourceArn: nothing, TagKeys: []string{"k"}})
	wantCode(t, err, "ResourceNotFound")
	if got := tags(c); len(got) != 1 || got["env"] != "prod" {
		t.Fatalf("a refused call changed the tags: %v", got)
	}
}

func TestQuotaIsResourceLimitExceeded(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	var c *sagemaker.Client
	bought := 0
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		c = smClient(url, region)
		bought = 0
		for days := int64(1); days <= 30 && bought <= 128; days++ {
			out, err := c.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", 64, days*24))
			if err != nil || len(out.TrainingPlanOfferings) == 0 {
				continue
			}
			_, err = c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String(fmt.Sprintf("big-%d", days)),
				TrainingPlanOfferingId: out.TrainingPlanOfferings[0].TrainingPlanOfferingId})
			if err != nil {
				wantCode(t, err, "ResourceLimitExceeded")
				if bought*64+64 <= 128 {
					t.Fatalf("refused at %d instances held", bought*64)
				}
				return
			}
			bought++
		}
	}
	t.Fatalf("never refused (bought %d plans of 64)", bought)
}

func TestListPlansSortFilterPaginate(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, _ := findOfferings(t, url, 24, nil)
	c := smClient(url, region)
	var names []string
	for i := 0; len(names) < 5 && i < 40; i++ {
		out, err := c.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", []int32{1, 2, 4}[i%3], int64(24*(1+i/3))))
		if err != nil || len(out.TrainingPlanOfferings) == 0 {
			continue
		}
		name := fmt.Sprintf("p%02d", len(names))
		create(t, c, name, aws.ToString(out.TrainingPlanOfferings[0].TrainingPlanOfferingId))
		names = append(names, name)
	}
	if len(names) < 5 {
		t.Fatalf("bought only %d plans", len(names))
	}
	s.Advance(10 * time.Minute) // all paid: Scheduled
	// Pages of two, by name ascending, followed by the SDK's paginator.
	p := sagemaker.NewListTrainingPlansPaginator(c, &sagemaker.ListTrainingPlansInput{MaxResults: aws.Int32(2),
		SortBy: types.TrainingPlanSortByName, SortOrder: types.TrainingPlanSortOrderAscending})
	var got []string
	pages := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.TrainingPlanSummaries) > 2 {
			t.Fatalf("page of %d; asked 2", len(page.TrainingPlanSummaries))
		}
		for _, x := range page.TrainingPlanSummaries {
			got = append(got, aws.ToString(x.TrainingPlanName))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(names) || pages != (len(names)+1)/2 {
		t.Fatalf("listed %v in %d pages; want %v", got, pages, names)
	}
	out, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{SortBy: types.TrainingPlanSortByName, SortOrder: types.TrainingPlanSortOrderDescending})
	if err != nil || aws.ToString(out.TrainingPlanSummaries[0].TrainingPlanName) != names[len(names)-1] {
		t.Fatalf("descending: %v", err)
	}
	for _, st := range []types.TrainingPlanStatus{types.TrainingPlanStatusScheduled, types.TrainingPlanStatusActive} {
		out, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{Filters: []types.TrainingPlanFilter{{Name: types.TrainingPlanFilterNameStatus, Value: aws.String(string(st))}}, MaxResults: aws.Int32(100)})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range out.TrainingPlanSummaries {
			if x.Status != st {
				t.Fatalf("filter %s listed a %s plan", st, x.Status)
			}
		}
		if st == types.TrainingPlanStatusScheduled && len(out.TrainingPlanSummaries) != len(names) {
			t.Fatalf("Scheduled: %d plans, want %d", len(out.TrainingPlanSummaries), len(names))
		}
	}
	for _, in := range []*sagemaker.ListTrainingPlansInput{
		{MaxResults: aws.Int32(0)}, {MaxResults: aws.Int32(101)}, {NextToken: aws.String("forged")},
		{Filters: []types.TrainingPlanFilter{{Name: "Status", Value: aws.String("Running")}}},
		{Filters: []types.TrainingPlanFilter{{Name: "Name", Value: aws.String("x")}}},
		{SortBy: "Fee"},
	} {
		_, err := c.ListTrainingPlans(ctx, in)
		wantCode(t, err, "ValidationException")
	}
}

func TestRegionIsolationAndNotInEC2(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	create(t, smClient(url, region), "mine", aws.ToString(o.TrainingPlanOfferingId))
	other := "us-west-2"
	if region == other {
		other = "us-east-1"
	}
	_, err := smClient(url, other).DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("mine")})
	wantCode(t, err, "ResourceNotFound")
	l, err := smClient(url, other).ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{})
	if err != nil || len(l.TrainingPlanSummaries) != 0 {
		t.Fatalf("%s lists %d plans bought in %s (%v)", other, len(l.TrainingPlanSummaries), region, err)
	}
	// A plan is not an EC2 Capacity Reservation.
	e := ec2.NewFromConfig(aws.Config{Region: region, Credentials: testCreds}, func(o *ec2.Options) { o.BaseEndpoint = aws.String(url) })
	cr, err := e.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(cr.CapacityReservations) != 0 {
		t.Fatalf("EC2 lists %d reservations after a training plan (%v)", len(cr.CapacityReservations), err)
	}
}

func TestExtension(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	arn := create(t, c, "ext", aws.ToString(o.TrainingPlanOfferingId))
	ext := func(hours int64) *sagemaker.SearchTrainingPlanOfferingsOutput {
		t.Helper()
		out, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{TrainingPlanArn: aws.String(arn), DurationHours: aws.Int64(hours)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	_, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{TrainingPlanArn: aws.String(arn), DurationHours: aws.Int64(24)})
	wantCode(t, err, "ValidationException") // still Pending
	s.Advance(10 * time.Minute)
	for _, bad := range []int64{25, 15 * 24, 183 * 24} {
		_, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{TrainingPlanArn: aws.String(arn), DurationHours: aws.Int64(bad)})
		wantCode(t, err, "ValidationException")
	}
	var eo types.TrainingPlanExtensionOffering
	for _, h := range []int64{24, 48, 72, 96, 120, 14 * 24, 21 * 24} {
		if out := ext(h); len(out.TrainingPlanExtensionOfferings) > 0 {
			if len(out.TrainingPlanOfferings) != 0 {
				t.Fatal("an extension search answered plan offerings")
			}
			eo = out.TrainingPlanExtensionOfferings[0]
			break
		}
	}
	if eo.TrainingPlanExtensionOfferingId == nil {
		t.Fatal("no extension offered at any length")
	}
	d0, _ := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("ext")})
	if !aws.ToTime(eo.StartDate).Equal(aws.ToTime(d0.EndTime)) {
		t.Fatalf("extension starts %s; the plan ends %s", aws.ToTime(eo.StartDate), aws.ToTime(d0.EndTime))
	}
	out, err := c.ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{TrainingPlanExtensionOfferingId: eo.TrainingPlanExtensionOfferingId})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TrainingPlanExtensions) != 1 || aws.ToString(out.TrainingPlanExtensions[0].PaymentStatus) != "Pending" {
		t.Fatalf("extend answered %+v", out.TrainingPlanExtensions)
	}
	d1, _ := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("ext")})
	if !aws.ToTime(d1.EndTime).Equal(aws.ToTime(d0.EndTime)) {
		t.Fatal("the end moved before the extension was paid")
	}
	s.Advance(10 * time.Minute)
	d2, _ := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("ext")})
	if !aws.ToTime(d2.EndTime).Equal(aws.ToTime(eo.EndDate)) {
		t.Fatalf("after payment the plan ends %s; the extension ends %s", aws.ToTime(d2.EndTime), aws.ToTime(eo.EndDate))
	}
	if aws.ToInt64(d2.DurationHours) != 48+int64(aws.ToInt32(eo.DurationHours)) {
		t.Fatalf("duration %d after extending 48 h by %d", aws.ToInt64(d2.DurationHours), aws.ToInt32(eo.DurationHours))
	}
	h, err := c.DescribeTrainingPlanExtensionHistory(ctx, &sagemaker.DescribeTrainingPlanExtensionHistoryInput{TrainingPlanArn: aws.String(arn)})
	if err != nil || len(h.TrainingPlanExtensions) != 1 || aws.ToString(h.TrainingPlanExtensions[0].PaymentStatus) != "Completed" {
		t.Fatalf("history: %+v %v", h, err)
	}
	_, err = c.ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{TrainingPlanExtensionOfferingId: eo.TrainingPlanExtensionOfferingId})
	wantCode(t, err, "ResourceNotFound")
	_, err = c.DescribeTrainingPlanExtensionHistory(ctx, &sagemaker.DescribeTrainingPlanExtensionHistoryInput{TrainingPlanArn: aws.String(arn + "x")})
	wantCode(t, err, "ResourceNotFound")
}

func TestUltraServers(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	tt, ok := model.LookupType("u-p6e-gb200x72")
	if !ok || !tt.UltraServer || tt.Instances != 18 {
		t.Fatal("the catalog has no u-p6e-gb200x72 UltraServer of 18 instances: this test's fixture is gone")
	}
	for _, region := range tt.Regions {
		c := smClient(url, region)
		for days := int64(1); days <= 20; days++ {
			out, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{UltraServerType: aws.String("ml.u-p6e-gb200x72"),
				UltraServerCount: aws.Int32(1), DurationHours: aws.Int64(days * 24), TargetResources: []types.SageMakerResourceName{"hyperpod-cluster"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.TrainingPlanOfferings) == 0 {
				continue
			}
			rc := out.TrainingPlanOfferings[0].ReservedCapacityOfferings[0]
			if rc.ReservedCapacityType != types.ReservedCapacityTypeUltraserver || aws.ToInt32(rc.InstanceCount) != 18 {
				t.Fatalf("UltraServer capacity %s of %d instances", rc.ReservedCapacityType, aws.ToInt32(rc.InstanceCount))
			}
			create(t, c, "ultra", aws.ToString(out.TrainingPlanOfferings[0].TrainingPlanOfferingId))
			s.Advance(10 * time.Minute)
			d, _ := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("ultra")})
			us, err := c.ListUltraServersByReservedCapacity(ctx, &sagemaker.ListUltraServersByReservedCapacityInput{ReservedCapacityArn: d.ReservedCapacitySummaries[0].ReservedCapacityArn})
			if err != nil || len(us.UltraServers) != 1 || aws.ToInt32(us.UltraServers[0].TotalInstanceCount) != 18 {
				t.Fatalf("ultraservers: %+v %v", us, err)
			}
			return
		}
	}
	t.Fatal("no UltraServer offering in any region")
}

func TestFaults(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	for _, tc := range []struct {
		spec, code string
	}{{"throttle=1", "ThrottlingException"}, {"error=1", "InternalFailure"}, {"down=" + region, "ServiceUnavailable"}, {"deny=sagemaker:ListTrainingPlans", "AccessDeniedException"}} {
		var f ec2sim.Faults
		if err := ec2sim.ParseFault(tc.spec, &f); err != nil {
			t.Fatal(err)
		}
		s.SetFaults(f)
		_, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{})
		wantCode(t, err, tc.code)
	}
	// payfail: Pending, then Failed at payment; final.
	s.SetFaults(ec2sim.Faults{PayFail: 1})
	create(t, c, "unpaid", aws.ToString(o.TrainingPlanOfferingId))
	s.SetFaults(ec2sim.Faults{})
	s.Advance(10 * time.Minute)
	d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("unpaid")})
	if err != nil || d.Status != types.TrainingPlanStatusFailed {
		t.Fatalf("payfail: %v %v", d.Status, err)
	}
	s.SetTime(testStart.Add(90 * 24 * time.Hour))
	d, _ = c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("unpaid")})
	if d.Status != types.TrainingPlanStatusFailed {
		t.Fatalf("a failed plan became %s", d.Status)
	}
}

func TestLostReplyCommits(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	s.SetFaults(ec2sim.Faults{LostReply: 1})
	_, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("lost"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	wantCode(t, err, "InternalFailure")
	s.SetFaults(ec2sim.Faults{})
	if _, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("lost")}); err != nil {
		t.Fatalf("the plan whose reply was lost is not there: %v", err)
	}
	_, err = c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("lost"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	wantCode(t, err, "ResourceInUse")
}

func TestRawProtocol(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	st, body, hdr := raw(t, url, "DeleteTrainingPlan", `{}`, nil)
	if st != http.StatusBadRequest || body["__type"] != "UnknownOperationException" {
		t.Fatalf("unknown op: %d %v", st, body)
	}
	if hdr.Get("Content-Type") != "application/x-amz-json-1.1" || hdr.Get("x-amzn-RequestId") == "" {
		t.Fatalf("headers %v", hdr)
	}
	st, body, _ = raw(t, url, "ListTrainingPlans", `{"Bogus":1}`, nil)
	if st != http.StatusBadRequest || body["__type"] != "SerializationException" {
		t.Fatalf("unknown member: %d %v", st, body)
	}
	st, body, _ = raw(t, url, "ListTrainingPlans", `{"StartTimeAfter":"2026-12-01T00:00:00Z"}`, nil)
	if st != http.StatusBadRequest || body["__type"] != "SerializationException" {
		t.Fatalf("ISO timestamp: %d %v", st, body)
	}
	st, body, _ = raw(t, url, "DescribeTrainingPlan", `{}`, nil)
	if st != http.StatusBadRequest || body["__type"] != "ValidationException" || !strings.Contains(body["Message"].(string), "trainingPlanName") {
		t.Fatalf("missing name: %d %v", st, body)
	}
	st, body, _ = raw(t, url, "SearchTrainingPlanOfferings", `{"InstanceType":"ml.p5.48xlarge","InstanceCount":1,"DurationHours":48,"TargetResources":["training-job"],"StartTimeAfter":1796040000}`, nil)
	if st != http.StatusOK {
		t.Fatalf("search: %d %v", st, body)
	}
	for _, o := range body["TrainingPlanOfferings"].([]any) {
		for _, rc := range o.(map[string]any)["ReservedCapacityOfferings"].([]any) {
			if _, ok := rc.(map[string]any)["StartTime"].(float64); !ok {
				t.Fatalf("StartTime is not an epoch number: %v", rc)
			}
		}
	}
	// An unsigned request is refused, as AWS refuses it.
	st, body, _ = raw(t, url, "ListTrainingPlans", `{}`, map[string]string{"Authorization": ""})
	if st != http.StatusForbidden || body["__type"] != "MissingAuthenticationToken" {
		t.Fatalf("unsigned: %d %v", st, body)
	}
	// A scope signed for another service is refused.
	st, body, _ = raw(t, url, "ListTrainingPlans", `{}`, map[string]string{"Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261201/us-east-1/ec2/aws4_request, SignedHeaders=host, Signature=x"})
	if st != http.StatusForbidden {
		t.Fatalf("ec2-scoped signature: %d %v", st, body)
	}
}

func TestStatePersists(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	_, url := newServer(t, ec2sim.Options{StateFile: file})
	region, o := findOfferings(t, url, 48, nil)
	create(t, smClient(url, region), "kept", aws.ToString(o.TrainingPlanOfferingId))
	_, url2 := newServer(t, ec2sim.Options{StateFile: file})
	d, err := smClient(url2, region).DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("kept")})
	if err != nil || aws.ToString(d.UpfrontFee) != aws.ToString(o.UpfrontFee) {
		t.Fatalf("after a restart on the same state file: %v", err)
	}
}

func TestOtherOperationsValidate(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	c := smClient(url, "us-east-1")
	rcArn := aws.String("arn:aws:sagemaker:us-east-1:123456789012:reserved-capacity/none-rc1")
	for name, err := range map[string]error{
		"describe capacity, bad arn": func() error {
			_, err := c.DescribeReservedCapacity(ctx, &sagemaker.DescribeReservedCapacityInput{ReservedCapacityArn: aws.String("arn:aws:sagemaker:us-east-1:1:reserved-capacity/x")})
			return err
		}(),
		"ultraservers, bad arn": func() error {
			_, err := c.ListUltraServersByReservedCapacity(ctx, &sagemaker.ListUltraServersByReservedCapacityInput{ReservedCapacityArn: aws.String("nope")})
			return err
		}(),
		"ultraservers, max results": func() error {
			_, err := c.ListUltraServersByReservedCapacity(ctx, &sagemaker.ListUltraServersByReservedCapacityInput{ReservedCapacityArn: rcArn, MaxResults: aws.Int32(101)})
			return err
		}(),
		"history, bad arn": func() error {
			_, err := c.DescribeTrainingPlanExtensionHistory(ctx, &sagemaker.DescribeTrainingPlanExtensionHistoryInput{TrainingPlanArn: aws.String("arn:aws:ec2:us-east-1:123456789012:x")})
			return err
		}(),
		"describe, bad name": func() error {
			_, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("a--")})
			return err
		}(),
	} {
		t.Run(name, func(t *testing.T) { wantCode(t, err, "ValidationException") })
	}
	for name, err := range map[string]error{
		"describe capacity": func() error {
			_, err := c.DescribeReservedCapacity(ctx, &sagemaker.DescribeReservedCapacityInput{ReservedCapacityArn: rcArn})
			return err
		}(),
		"ultraservers": func() error {
			_, err := c.ListUltraServersByReservedCapacity(ctx, &sagemaker.ListUltraServersByReservedCapacityInput{ReservedCapacityArn: rcArn})
			return err
		}(),
		"extend": func() error {
			_, err := c.ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{TrainingPlanExtensionOfferingId: aws.String("tpeo-0")})
			return err
		}(),
		// The model gives the extension offering id no pattern: one that no search gave is
		// not found, whatever it looks like.
		"extend, an id of another shape": func() error {
			_, err := c.ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{TrainingPlanExtensionOfferingId: aws.String("TPEO_X")})
			return err
		}(),
		"describe": func() error {
			_, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("arn:aws:sagemaker:us-east-1:123456789012:training-plan/none")})
			return err
		}(),
	} {
		t.Run(name, func(t *testing.T) { wantCode(t, err, "ResourceNotFound") })
	}
}

func TestDenyCreateIsAfterValidationAndBuysNothing(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("deny=CreateTrainingPlan", &f); err != nil {
		t.Fatal(err)
	}
	s.SetFaults(f)
	_, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("-bad"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	wantCode(t, err, "ValidationException")
	_, err = c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("denied"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	wantCode(t, err, "AccessDeniedException")
	if !strings.Contains(err.Error(), "sagemaker:CreateTrainingPlan") {
		t.Fatalf("message %v does not name the action", err)
	}
	s.SetFaults(ec2sim.Faults{})
	_, err = c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("denied")})
	wantCode(t, err, "ResourceNotFound")
	create(t, c, "allowed", aws.ToString(o.TrainingPlanOfferingId)) // the offering was not spent
}

func TestExtensionHistoryPages(t *testing.T) {
	s, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	arn := create(t, c, "long", aws.ToString(o.TrainingPlanOfferingId))
	bought := 0
	for i := 0; i < 12 && bought < 3; i++ {
		s.Advance(10 * time.Minute)
		out, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{TrainingPlanArn: aws.String(arn), DurationHours: aws.Int64(int64(24 * (1 + i%5)))})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.TrainingPlanExtensionOfferings) == 0 {
			continue
		}
		if _, err := c.ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{TrainingPlanExtensionOfferingId: out.TrainingPlanExtensionOfferings[0].TrainingPlanExtensionOfferingId}); err != nil {
			t.Fatal(err)
		}
		bought++
	}
	if bought < 2 {
		t.Fatalf("only %d extensions bought", bought)
	}
	p := sagemaker.NewDescribeTrainingPlanExtensionHistoryPaginator(c, &sagemaker.DescribeTrainingPlanExtensionHistoryInput{TrainingPlanArn: aws.String(arn), MaxResults: aws.Int32(1)})
	n, pages := 0, 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		n += len(page.TrainingPlanExtensions)
	}
	if n != bought || pages != bought {
		t.Fatalf("%d extensions in %d pages; bought %d", n, pages, bought)
	}
}

func TestListPlansByStartTime(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, _ := findOfferings(t, url, 24, nil)
	c := smClient(url, region)
	var starts []time.Time
	for days := int64(1); days <= 10 && len(starts) < 3; days++ {
		out, err := c.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", 1, days*24))
		if err != nil || len(out.TrainingPlanOfferings) == 0 {
			continue
		}
		o := out.TrainingPlanOfferings[len(out.TrainingPlanOfferings)-1]
		if _, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String(fmt.Sprintf("s%d", days)), TrainingPlanOfferingId: o.TrainingPlanOfferingId}); err != nil {
			continue
		}
		starts = append(starts, aws.ToTime(o.ReservedCapacityOfferings[0].StartTime))
	}
	if len(starts) < 2 {
		t.Fatalf("bought %d plans", len(starts))
	}
	pivot := starts[0]
	after, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{StartTimeAfter: aws.Time(pivot), MaxResults: aws.Int32(100)})
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{StartTimeBefore: aws.Time(pivot.Add(time.Second)), MaxResults: aws.Int32(100)})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, s := range starts {
		if s.After(pivot) {
			want++
		}
	}
	if len(after.TrainingPlanSummaries) != want {
		t.Fatalf("StartTimeAfter %s: %d plans, want %d", pivot, len(after.TrainingPlanSummaries), want)
	}
	for _, p := range after.TrainingPlanSummaries {
		if !aws.ToTime(p.StartTime).After(pivot) {
			t.Fatalf("plan starting %s listed after %s", aws.ToTime(p.StartTime), pivot)
		}
	}
	if len(before.TrainingPlanSummaries)+len(after.TrainingPlanSummaries) != len(starts) {
		t.Fatalf("before %d + after %d != %d plans", len(before.TrainingPlanSummaries), len(after.TrainingPlanSummaries), len(starts))
	}
}

func TestTwoEmulatorsShareTheStateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	_, urlA := newServer(t, ec2sim.Options{StateFile: file})
	_, urlB := newServer(t, ec2sim.Options{StateFile: file})
	region, o := findOfferings(t, urlA, 48, nil)
	create(t, smClient(urlA, region), "shared", aws.ToString(o.TrainingPlanOfferingId))
	if _, err := smClient(urlB, region).DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("shared")}); err != nil {
		t.Fatalf("the second emulator does not see the plan the first one sold: %v", err)
	}
	_, err := smClient(urlB, region).CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("shared"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	wantCode(t, err, "ResourceInUse")
}

// The modeled errors reach the SDK as its own types, as AWS's do.
func TestModeledErrorTypes(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	_, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("none")})
	var nf *types.ResourceNotFound
	if !errors.As(err, &nf) || aws.ToString(nf.Message) == "" {
		t.Fatalf("not a *types.ResourceNotFound with a message: %T %v", err, err)
	}
	create(t, c, "dup", aws.ToString(o.TrainingPlanOfferingId))
	_, err = c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("dup"), TrainingPlanOfferingId: o.TrainingPlanOfferingId})
	var iu *types.ResourceInUse
	if !errors.As(err, &iu) {
		t.Fatalf("not a *types.ResourceInUse: %T %v", err, err)
	}
}
