package sagemakersim_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

const p5Search = `{"InstanceType":"ml.p5.48xlarge","InstanceCount":1,"DurationHours":48,"TargetResources":["training-job"]`

// A timestamp no state file can hold is refused with a ValidationException naming its
// member and value, and the emulator on a state file goes on answering: searches,
// purchases of plans and EC2's purchases alike.
func TestTimestampOutOfRangeIsRefusedAndBreaksNothing(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{StateFile: filepath.Join(t.TempDir(), "state.json")})
	for _, tc := range []struct{ op, body, member, value string }{
		{"SearchTrainingPlanOfferings", p5Search + `,"EndTimeBefore":253402300800}`, "endTimeBefore", "253402300800"}, // year 10000
		{"SearchTrainingPlanOfferings", p5Search + `,"StartTimeAfter":-1e12}`, "startTimeAfter", "-1e12"},
		{"SearchTrainingPlanOfferings", p5Search + `,"EndTimeBefore":1e300}`, "endTimeBefore", "1e300"},
		{"ListTrainingPlans", `{"StartTimeBefore":1e20}`, "startTimeBefore", "1e20"},
	} {
		status, m, _ := rawOp(t, url, "SageMaker."+tc.op, tc.body)
		msg, _ := m["Message"].(string)
		if status != 400 || m["__type"] != "ValidationException" || !strings.Contains(msg, "'"+tc.member+"'") || !strings.Contains(msg, tc.value) {
			t.Errorf("%s: %d %v; want a 400 ValidationException naming %s and %s", tc.body, status, m, tc.member, tc.value)
		}
		if tc.member == "endTimeBefore" && strings.Contains(msg, "StartTimeAfter") {
			t.Errorf("%s: the error names StartTimeAfter, which was not given: %s", tc.body, msg)
		}
	}
	region, o := findOfferings(t, url, 48, nil)
	create(t, smClient(url, region), "after-bad-dates", aws.ToString(o.TrainingPlanOfferingId))
	// EC2 shares the state file: its purchases are saved as before.
	e := ec2sim2Client(url, "us-east-1")
	var id string
	for _, days := range []int32{1, 2, 3, 4, 5, 6, 7} {
		out, err := e.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
			InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(days * 24)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.CapacityBlockOfferings) > 0 {
			id = aws.ToString(out.CapacityBlockOfferings[0].CapacityBlockOfferingId)
			break
		}
	}
	if id == "" {
		t.Fatal("no Capacity Block offering of p5.48xlarge in us-east-1 at any length of 1 to 7 days")
	}
	if _, err := e.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: aws.String(id),
		InstancePlatform: ec2types.CapacityReservationInstancePlatformLinuxUnix}); err != nil {
		t.Fatalf("an EC2 purchase after the refused dates: %v", err)
	}
}

func ec2sim2Client(url, region string) *ec2.Client {
	return ec2.NewFromConfig(aws.Config{Region: region, Credentials: testCreds}, func(o *ec2.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
	})
}

// An offering says the window of the search that gave it, not that of an earlier search
// that found the same capacity.
func TestOfferingEchoesItsOwnSearchWindow(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	region, first := findOfferings(t, url, 48, nil)
	n := aws.ToInt32(first.ReservedCapacityOfferings[0].InstanceCount)
	c := smClient(url, region)
	// Both windows open before the first capacity can start (tomorrow's 11:30 UTC), so
	// that both searches find the same capacity.
	for _, after := range []time.Time{testStart.Add(time.Hour), testStart.Add(2 * time.Hour), testStart.Add(time.Hour)} {
		in := search("ml.p5.48xlarge", n, 48)
		in.StartTimeAfter = aws.Time(after)
		out, err := c.SearchTrainingPlanOfferings(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.TrainingPlanOfferings) == 0 {
			t.Fatalf("a search from %s finds nothing where one without a window found %s", after, aws.ToString(first.TrainingPlanOfferingId))
		}
		for _, o := range out.TrainingPlanOfferings {
			if got := aws.ToTime(o.RequestedStartTimeAfter); !got.Equal(after) {
				t.Errorf("search from %s: offering %s says RequestedStartTimeAfter %s", after, aws.ToString(o.TrainingPlanOfferingId), got)
			}
			if o.RequestedEndTimeBefore != nil {
				t.Errorf("search without an end: offering says RequestedEndTimeBefore %s", aws.ToTime(o.RequestedEndTimeBefore))
			}
		}
	}
	again, err := c.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", n, 48))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range again.TrainingPlanOfferings {
		if o.RequestedStartTimeAfter != nil {
			t.Errorf("a search without a window echoes RequestedStartTimeAfter %s", aws.ToTime(o.RequestedStartTimeAfter))
		}
	}
}

// ultraOffering finds an offering of an 18-instance UltraServer in us-east-1.
func ultraOffering(t *testing.T, c *sagemaker.Client) types.TrainingPlanOffering {
	t.Helper()
	for days := int64(1); days <= 14; days++ {
		out, err := c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{
			UltraServerType: aws.String("ml.u-p6e-gb200x72"), UltraServerCount: aws.Int32(1), DurationHours: aws.Int64(days * 24),
			TargetResources: []types.SageMakerResourceName{types.SageMakerResourceNameTrainingJob}})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.TrainingPlanOfferings) > 0 {
			return out.TrainingPlanOfferings[0]
		}
	}
	t.Fatal("no ml.u-p6e-gb200x72 offering in us-east-1 for 1 to 14 days")
	return types.TrainingPlanOffering{}
}

// What AWS would refuse is refused, and buys nothing: the offering is bought afterwards.
func TestRefusedAsAWSWould(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	c := smClient(url, "us-east-1")
	u := ultraOffering(t, c)
	uid := u.TrainingPlanOfferingId
	_, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("spares"),
		TrainingPlanOfferingId: uid, SpareInstanceCountPerUltraServer: aws.Int32(1000)})
	wantCode(t, err, "ValidationException")
	if !strings.Contains(err.Error(), "0 to 17") {
		t.Errorf("the spare count error does not give the range: %v", err)
	}
	_, err = c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("spares"),
		TrainingPlanOfferingId: uid, SpareInstanceCountPerUltraServer: aws.Int32(18)})
	wantCode(t, err, "ValidationException")

	region, o := findOfferings(t, url, 48, nil)
	rc := smClient(url, region)
	id := o.TrainingPlanOfferingId
	for name, tags := range map[string][]types.Tag{
		"aws: prefix":    {{Key: aws.String("aws:team"), Value: aws.String("x")}},
		"AWS: prefix":    {{Key: aws.String("AWS:team"), Value: aws.String("x")}},
		"duplicate keys": {{Key: aws.String("team"), Value: aws.String("a")}, {Key: aws.String("team"), Value: aws.String("b")}},
	} {
		_, err := rc.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("tagged"), TrainingPlanOfferingId: id, Tags: tags})
		t.Run(name, func(t *testing.T) { wantCode(t, err, "ValidationException") })
	}
	twice := search("ml.p5.48xlarge", 1, 48)
	twice.TargetResources = []types.SageMakerResourceName{types.SageMakerResourceNameTrainingJob, types.SageMakerResourceNameHyperpodCluster, types.SageMakerResourceNameTrainingJob}
	_, err = rc.SearchTrainingPlanOfferings(ctx, twice)
	wantCode(t, err, "ValidationException")
	_, err = c.SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{
		UltraServerType: aws.String("ml.u-p6e-gb200x72"), UltraServerCount: aws.Int32(1), InstanceCount: aws.Int32(18), DurationHours: aws.Int64(48),
		TargetResources: []types.SageMakerResourceName{types.SageMakerResourceNameTrainingJob}})
	wantCode(t, err, "ValidationException")
	if !strings.Contains(err.Error(), "InstanceCount") {
		t.Errorf("the error does not name InstanceCount: %v", err)
	}

	// Nothing was bought: both offerings can still be.
	create(t, rc, "tagged", aws.ToString(id))
	if _, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{TrainingPlanName: aws.String("spares"),
		TrainingPlanOfferingId: uid, SpareInstanceCountPerUltraServer: aws.Int32(17)}); err != nil {
		t.Fatalf("17 spares of 18 instances: %v", err)
	}
}

// rawOp posts body with target (none when "") and the headers hdr names and gives, and
// returns the status, the decoded body and the Content-Type.
func rawOp(t *testing.T, url, target, body string, hdr ...string) (int, map[string]any, string) {
	t.Helper()
	h := map[string]string{}
	for i := 0; i+1 < len(hdr); i += 2 {
		h[hdr[i]] = hdr[i+1]
	}
	status, m, header := post(t, url, target, body, h)
	return status, m, header.Get("Content-Type")
}

// Errors speak of members and JSON, never of the emulator's Go types; a request that
// names no operation is answered in SageMaker's JSON protocol; an unserved region is no
// credentials failure.
func TestErrorsSpeakTheProtocol(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{})
	for _, tc := range []struct{ op, body, code, want string }{
		{"ListTrainingPlans", `[]`, "SerializationException", "JSON object"},
		{"ListTrainingPlans", `{"MaxResults":"ten"}`, "SerializationException", "MaxResults"},
		{"CreateTrainingPlan", `{"Tags":[{"Key":1}]}`, "SerializationException", "Tags"},
		{"SearchTrainingPlanOfferings", `{"TargetResources":"training-job"}`, "SerializationException", "TargetResources"},
		{"SearchTrainingPlanOfferings", `{"DurationHours":`, "SerializationException", "not valid JSON"},
	} {
		status, m, _ := rawOp(t, url, "SageMaker."+tc.op, tc.body)
		msg, _ := m["Message"].(string)
		if status != 400 || m["__type"] != tc.code || !strings.Contains(msg, tc.want) {
			t.Errorf("%s %s: %d %v; want %s naming %s", tc.op, tc.body, status, m, tc.code, tc.want)
		}
		for _, leak := range []string{"sagemakersim", "Go ", "struct", "*int", "[]", "json:"} {
			if strings.Contains(msg, leak) {
				t.Errorf("%s %s: the message shows the emulator's insides (%q): %s", tc.op, tc.body, leak, msg)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		target string
		hdr    []string
	}{
		{"JSON without a target", "", nil},
		{"JSON with another service's target", "Foo.Bar", nil},
		{"signed for sagemaker, no content type", "", []string{"Content-Type", ""}},
	} {
		status, m, ct := rawOp(t, url, tc.target, `{}`, tc.hdr...)
		if status != 400 || m["__type"] != "UnknownOperationException" || !strings.HasPrefix(ct, "application/x-amz-json-1.1") {
			t.Errorf("%s: %d %s %v; want a 400 UnknownOperationException in JSON", tc.name, status, ct, m)
		}
	}
	_, err := smClient(url, "mars-north-1").ListTrainingPlans(ctx, &sagemaker.ListTrainingPlansInput{})
	wantCode(t, err, "UnknownOperationException")
	if !strings.Contains(err.Error(), "us-east-1") {
		t.Errorf("the unserved region's error does not name the regions served: %v", err)
	}
}

// A plan's ARNs, and its reserved capacities', are in the account the emulator stands for.
func TestPlanARNsAreInTheEmulatorsAccount(t *testing.T) {
	_, url := newServer(t, ec2sim.Options{Account: "111122223333"})
	region, o := findOfferings(t, url, 48, nil)
	c := smClient(url, region)
	arn := create(t, c, "acct", aws.ToString(o.TrainingPlanOfferingId))
	if !strings.Contains(arn, ":111122223333:training-plan/acct") {
		t.Errorf("plan ARN %s", arn)
	}
	d, err := c.DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String("acct")})
	if err != nil {
		t.Fatal(err)
	}
	for _, rc := range d.ReservedCapacitySummaries {
		if !strings.Contains(aws.ToString(rc.ReservedCapacityArn), ":111122223333:reserved-capacity/") {
			t.Errorf("reserved capacity ARN %s", aws.ToString(rc.ReservedCapacityArn))
		}
		if _, err := c.DescribeReservedCapacity(ctx, &sagemaker.DescribeReservedCapacityInput{ReservedCapacityArn: rc.ReservedCapacityArn}); err != nil {
			t.Errorf("DescribeReservedCapacity of its own ARN: %v", err)
		}
	}
}
