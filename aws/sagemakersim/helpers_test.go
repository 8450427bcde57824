package sagemakersim_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/simcore/simcoretest"
)

// testStart is a Tuesday noon UTC, half an hour after the day's 11:30 boundary.
var testStart = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

var ctx = context.Background()

func newServer(t testing.TB, opts ec2sim.Options) (*ec2sim.Server, string) {
	t.Helper()
	if opts.Start.IsZero() {
		opts.Start = testStart
	}
	if opts.Seed == 0 {
		opts.Seed = 42
	}
	opts.Protocols = append(opts.Protocols, sagemakersim.Protocol())
	return simtest.ServeWith(t, opts)
}

var testCreds = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")

// smClient is the real SageMaker client pointed at the emulator, without retries.
func smClient(url, region string) *sagemaker.Client {
	return sagemaker.NewFromConfig(aws.Config{Region: region, Credentials: testCreds}, func(o *sagemaker.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
	})
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got success", code)
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want API error %s, got %v", code, err)
	}
	if ae.ErrorCode() != code {
		t.Fatalf("want error %s, got %s (%v)", code, ae.ErrorCode(), err)
	}
}

func search(typ string, count int32, hours int64) *sagemaker.SearchTrainingPlanOfferingsInput {
	return &sagemaker.SearchTrainingPlanOfferingsInput{
		InstanceType:    types.ReservedCapacityInstanceType(typ),
		InstanceCount:   aws.Int32(count),
		DurationHours:   aws.Int64(hours),
		TargetResources: []types.SageMakerResourceName{types.SageMakerResourceNameTrainingJob},
	}
}

// findOfferings searches the counts and regions in turn until one answers offerings: the
// market often has nothing, as AWS's does.
func findOfferings(t testing.TB, url string, hours int64, accept func(types.TrainingPlanOffering) bool) (string, types.TrainingPlanOffering) {
	t.Helper()
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		c := smClient(url, region)
		for _, n := range []int32{1, 2, 4, 8} {
			out, err := c.SearchTrainingPlanOfferings(ctx, search("ml.p5.48xlarge", n, hours))
			if err != nil {
				var ae smithy.APIError
				if errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" {
					continue // not sold in this region
				}
				t.Fatal(err)
			}
			for _, o := range out.TrainingPlanOfferings {
				if accept == nil || accept(o) {
					return region, o
				}
			}
		}
	}
	t.Fatal("no offering found in any region or count")
	return "", types.TrainingPlanOffering{}
}

// create buys an offering as a plan of that name.
func create(t testing.TB, c *sagemaker.Client, name, offering string) string {
	t.Helper()
	out, err := c.CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{
		TrainingPlanName: aws.String(name), TrainingPlanOfferingId: aws.String(offering)})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.TrainingPlanArn) == "" {
		t.Fatal("CreateTrainingPlan returned no ARN")
	}
	return aws.ToString(out.TrainingPlanArn)
}

// raw posts a JSON body to op and returns the status and decoded body.
func raw(t testing.TB, url, op string, body string, hdr map[string]string) (int, map[string]any, http.Header) {
	t.Helper()
	target := ""
	if op != "" {
		target = "SageMaker." + op
	}
	return post(t, url, target, body, hdr)
}

// post posts body with target (none when "") signed for us-east-1, with the JSON 1.1
// content type unless hdr says otherwise (an empty value leaves a header out), and returns
// the status, the decoded body and the header.
func post(t testing.TB, url, target, body string, hdr map[string]string) (int, map[string]any, http.Header) {
	t.Helper()
	h := map[string]string{"Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": target}
	maps.Copy(h, hdr)
	status, header, b := simcoretest.Post(t, url+"/", "sagemaker", body, h)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: the answer is not JSON: %d %q", target, status, b)
	}
	return status, m, header
}
