package capacityblocks

import (
	"context"
	"strings"
	"testing"
)

func TestSubnetsOfOneZone(t *testing.T) {
	_, c := servedClient(t)
	ctx := context.Background()
	a, err := c.Subnets(ctx, "us-east-1", "us-east-1a")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 {
		t.Fatalf("subnets of us-east-1a: %+v, want the zone's one default subnet", a)
	}
	s := a[0]
	if !strings.HasPrefix(s.ID, "subnet-") || !strings.HasPrefix(s.VpcID, "vpc-") || s.AvailabilityZone != "us-east-1a" || !s.Default || s.AvailableIPs <= 0 || s.CIDR == "" {
		t.Errorf("subnet %+v", s)
	}
	b, err := c.Subnets(ctx, "us-east-1", "us-east-1b")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 1 || b[0].ID == s.ID || b[0].AvailabilityZone != "us-east-1b" {
		t.Errorf("subnets of us-east-1b: %+v, want one other than %s", b, s.ID)
	}
	// Every zone of the region, over more than one page (the emulator pages by 5).
	all, err := c.Subnets(ctx, "us-east-1", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 6 {
		t.Errorf("%d subnets in us-east-1, want one per zone (6)", len(all))
	}
}

func TestSubnetsOfAZoneThatDoesNotExist(t *testing.T) {
	_, c := servedClient(t)
	got, err := c.Subnets(context.Background(), "us-east-1", "us-east-1z")
	if err != nil || len(got) != 0 {
		t.Errorf("got %+v, %v; want none and no error", got, err)
	}
}
