package offerings

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/model"
)

// A search that AWS's buckets make long says so on stderr before it starts; a small one
// says nothing.
func TestLargeSearchSaysItsCost(t *testing.T) {
	tab := apilimit.EC2()
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: "http://127.0.0.1:1",
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider("AKIATESTCLI000000001", "cli-test-secret", "")),
		JournalDir:  t.TempDir(), RateLimits: &tab, Headroom: -1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().UTC().Add(time.Hour)
	large := model.Query{InstanceTypes: []string{"p5.48xlarge", "p5en.48xlarge"}, Count: 1, Regions: []string{"us-east-1", "us-east-2"},
		Durations: model.DurationRange{MinDays: 1, MaxDays: 182}, Start: start, End: start.Add(28 * 24 * time.Hour)}
	var errs bytes.Buffer
	sayCost(&errs, c, large)
	if got := errs.String(); !strings.HasPrefix(got, "gpublock offerings: ") || !strings.Contains(got, " calls: about ") || !strings.Contains(got, "at AWS's rate in us-east-") {
		t.Fatalf("stderr %q", got)
	}
	small := large
	small.InstanceTypes, small.Regions, small.Durations = []string{"p5.48xlarge"}, []string{"us-east-1"}, model.DurationRange{MinDays: 2, MaxDays: 2}
	errs.Reset()
	sayCost(&errs, c, small)
	if errs.Len() != 0 {
		t.Fatalf("a one-call search said %q", errs.String())
	}
}
