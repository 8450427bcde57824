package ec2sim

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/sdkhttp"
)

// testStart is a Tuesday noon UTC, half an hour after the day's 11:30 boundary.
var testStart = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func newTestServer(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	if opts.Start.IsZero() {
		opts.Start = testStart
	}
	if opts.Seed == 0 {
		opts.Seed = 42
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL
}

var testCreds = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")

// ec2Client is the real SDK client pointed at the emulator, without retries unless asked.
func ec2Client(url, region string, optFns ...func(*ec2.Options)) *ec2.Client {
	fns := append([]func(*ec2.Options){func(o *ec2.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
		o.HTTPClient = sdkhttp.PlainBodies(o.HTTPClient)
	}}, optFns...)
	return ec2.NewFromConfig(aws.Config{Region: region, Credentials: testCreds}, fns...)
}

func stsClient(url, region string) *sts.Client {
	return sts.NewFromConfig(aws.Config{Region: region, Credentials: testCreds}, func(o *sts.Options) {
		o.BaseEndpoint = aws.String(url)
		o.RetryMaxAttempts = 1
	})
}

// apiCode returns the AWS error code of err, or fails the test if err is not an API error.
func apiCode(t testing.TB, err error) string {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want an API error, got %v", err)
	}
	return ae.ErrorCode()
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got success", code)
	}
	if got := apiCode(t, err); got != code {
		t.Fatalf("want error %s, got %s (%v)", code, got, err)
	}
}

// search asks for p5.48xlarge blocks and requires at least one offering.
func mustSearch(t testing.TB, c *ec2.Client, in *ec2.DescribeCapacityBlockOfferingsInput) []types.CapacityBlockOffering {
	t.Helper()
	out, err := c.DescribeCapacityBlockOfferings(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityBlockOfferings) == 0 {
		t.Fatalf("no offerings for %+v", in)
	}
	return out.CapacityBlockOfferings
}

func p5Search(count int32, hours int32) *ec2.DescribeCapacityBlockOfferingsInput {
	return &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType:          aws.String("p5.48xlarge"),
		InstanceCount:         aws.Int32(count),
		CapacityDurationHours: aws.Int32(hours),
	}
}

// buy searches and buys the first offering found, tagging it.
func buy(t testing.TB, c *ec2.Client, in *ec2.DescribeCapacityBlockOfferingsInput, tags ...types.Tag) (types.CapacityBlockOffering, *types.CapacityReservation) {
	t.Helper()
	o := mustSearch(t, c, in)[0]
	pin := &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}
	if len(tags) > 0 {
		pin.TagSpecifications = []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation, Tags: tags}}
	}
	out, err := c.PurchaseCapacityBlock(context.Background(), pin)
	if err != nil {
		t.Fatal(err)
	}
	if out.CapacityReservation == nil || aws.ToString(out.CapacityReservation.CapacityReservationId) == "" {
		t.Fatalf("purchase returned no reservation: %+v", out)
	}
	return o, out.CapacityReservation
}

var ctx = context.Background()

func readInto(w io.Writer, resp *http.Response) (int64, error) { return io.Copy(w, resp.Body) }
