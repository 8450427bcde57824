package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
)

// `gpublock sim` serves SageMaker Training Plans on the EC2 address and says so.
func TestSimServesSageMaker(t *testing.T) {
	base, out, cancel, wait := cli.ServeSim(t, "--clock", "2026-12-01T12:00:00Z")
	if !strings.Contains(out.String(), "AWS_ENDPOINT_URL_SAGEMAKER="+base+"\n") {
		t.Errorf("instructions lack AWS_ENDPOINT_URL_SAGEMAKER:\n%s", out.String())
	}
	c := sagemaker.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")},
		func(o *sagemaker.Options) { o.BaseEndpoint = aws.String(base); o.RetryMaxAttempts = 1 })
	l, err := c.ListTrainingPlans(context.Background(), &sagemaker.ListTrainingPlansInput{})
	if err != nil {
		t.Fatalf("ListTrainingPlans against gpublock sim: %v", err)
	}
	if l.TrainingPlanSummaries == nil {
		t.Fatal("no TrainingPlanSummaries member in the answer")
	}
	cancel()
	if code := wait(); code != 0 {
		t.Errorf("exit %d after cancel", code)
	}
}
