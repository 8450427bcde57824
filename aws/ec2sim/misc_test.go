package ec2sim

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

// A negative speed is refused (the clock itself is tested in aws/simcore).
func TestNegativeSpeedRefused(t *testing.T) {
	if _, err := New(Options{Speed: -1}); err == nil {
		t.Error("New accepted a negative speed")
	}
}

func TestRunInstancesClientTokenIdempotent(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o, cr := buy(t, c, p5Search(4, 24))
	s.SetTime(aws.ToTime(o.StartDate))
	in := launchInput(aws.ToString(cr.CapacityReservationId), subnetIn(t, c, aws.ToString(o.AvailabilityZone)), 2)
	in.ClientToken = aws.String("launch-1")
	a, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(a.ReservationId) != aws.ToString(b.ReservationId) || aws.ToString(a.Instances[0].InstanceId) != aws.ToString(b.Instances[0].InstanceId) {
		t.Fatalf("same ClientToken, different launches: %s %s", aws.ToString(a.ReservationId), aws.ToString(b.ReservationId))
	}
	if got := reservationByID(t, c, aws.ToString(cr.CapacityReservationId)); aws.ToInt32(got.AvailableInstanceCount) != 2 {
		t.Fatalf("available = %d, want 2 after one launch of 2", aws.ToInt32(got.AvailableInstanceCount))
	}
	// MinCount..MaxCount: as many as fit.
	in.ClientToken, in.MinCount, in.MaxCount = aws.String("launch-2"), aws.Int32(1), aws.Int32(5)
	more, err := c.RunInstances(ctx, in)
	if err != nil || len(more.Instances) != 2 {
		t.Fatalf("MinCount 1 MaxCount 5 with 2 free: %v %d", err, len(more.Instances))
	}
	dry := launchInput(aws.ToString(cr.CapacityReservationId), aws.ToString(in.SubnetId), 1)
	dry.DryRun = aws.Bool(true)
	_, err = c.RunInstances(ctx, dry)
	wantCode(t, err, "ReservationCapacityExceeded") // validation comes before DryRun
}

func TestPriceListRouting(t *testing.T) {
	var got string
	pl := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("X-Amz-Target")
		io.WriteString(w, `{"PriceList":[]}`)
	})
	_, base := newTestServer(t, Options{PriceList: pl})
	req, _ := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AWSPriceListService.GetProducts")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got != "AWSPriceListService.GetProducts" || string(b) != `{"PriceList":[]}` {
		t.Fatalf("price list handler saw %q, answered %q", got, b)
	}
	// Without one, a Price List call is refused in that protocol's JSON error shape.
	_, base2 := newTestServer(t, Options{})
	req, _ = http.NewRequest(http.MethodPost, base2+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "AWSPriceListService.GetProducts")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("no price list: %d", resp.StatusCode)
	}
	// EC2 on the same port is unaffected.
	if out, err := ec2Client(base, "us-east-1").DescribeRegions(ctx, &ec2.DescribeRegionsInput{}); err != nil || len(out.Regions) == 0 {
		t.Fatalf("EC2 beside the price list: %v", err)
	}
}
