package ec2sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/gpublock/gpublock/model"
)

// The emulator serves exactly the regions where Capacity Blocks are sold: one that sells
// none (us-west-1, say) is refused as a default region, as a down= fault, and on the wire.
func TestRegionsAreTheSellingOnes(t *testing.T) {
	if got, want := Regions(), model.Regions(); !slices.Equal(got, want) {
		t.Fatalf("served regions %v, want those that sell Capacity Blocks %v", got, want)
	}
	if _, err := New(Options{DefaultRegion: "us-west-1"}); err == nil || !strings.Contains(err.Error(), "us-east-2") {
		t.Errorf("default region us-west-1: %v", err)
	}
	var f Faults
	if err := ParseFault("down=us-west-1", &f); err == nil || !strings.Contains(err.Error(), "ap-southeast-2") || len(f.Down) != 0 {
		t.Errorf("down=us-west-1: %v, %v", err, f.Down)
	}
	_, url := newTestServer(t, Options{})
	_, err := ec2Client(url, "us-west-1").DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	wantCode(t, err, "UnsupportedOperation")
	out, err := ec2Client(url, "us-east-1").DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range out.Regions {
		names = append(names, *r.RegionName)
	}
	if !slices.Equal(names, model.Regions()) {
		t.Errorf("DescribeRegions %v", names)
	}
}
