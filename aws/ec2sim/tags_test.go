package ec2sim

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

func filterOf(name string, values ...string) types.Filter {
	return types.Filter{Name: aws.String(name), Values: values}
}

// Karpenter's lookup: DescribeCapacityReservations by tag:KEY and tag-key.
func TestDescribeCapacityReservationsByTag(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, tagged := buy(t, c, p5Search(1, 24), types.Tag{Key: aws.String("karpenter.sh/discovery"), Value: aws.String("demo")})
	buy(t, c, p5Search(2, 24))
	for _, tc := range []struct {
		f    types.Filter
		want int
	}{
		{filterOf("tag-key", "karpenter.sh/discovery"), 1},
		{filterOf("tag:karpenter.sh/discovery", "demo"), 1},
		{filterOf("tag:karpenter.sh/discovery", "other"), 0},
		{filterOf("tag:karpenter.sh/discovery", "d*"), 1},
		{filterOf("tag-key", "aws:ec2capacityreservation:incrementalRequestedQuantity"), 2},
		{filterOf("tenancy", "default", "dedicated"), 2},
	} {
		out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{tc.f}})
		if err != nil {
			t.Fatalf("%s: %v", aws.ToString(tc.f.Name), err)
		}
		if len(out.CapacityReservations) != tc.want {
			t.Fatalf("%s=%v: %d reservations, want %d", aws.ToString(tc.f.Name), tc.f.Values, len(out.CapacityReservations), tc.want)
		}
		if tc.want == 1 && aws.ToString(out.CapacityReservations[0].CapacityReservationId) != aws.ToString(tagged.CapacityReservationId) {
			t.Fatalf("%s found the wrong reservation", aws.ToString(tc.f.Name))
		}
	}
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{Filters: []types.Filter{filterOf("tag:karpenter.sh/discovery", "demo")}})
	if err != nil || len(blocks.CapacityBlocks) != 1 {
		t.Fatalf("DescribeCapacityBlocks by tag: %v, %d", err, len(blocks.CapacityBlocks))
	}
	// An undocumented filter stays refused, as AWS refuses it.
	for _, bad := range []string{"colour", "reservation-type"} {
		_, err = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{filterOf(bad, "x")}})
		wantCode(t, err, "InvalidParameterValue")
	}
	_, err = c.DescribeCapacityBlockStatus(ctx, &ec2.DescribeCapacityBlockStatusInput{Filters: []types.Filter{filterOf("tag-key", "x")}})
	wantCode(t, err, "InvalidParameterValue")
}

func reservationTags(t *testing.T, c *ec2.Client, id string) map[string]string {
	t.Helper()
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, tg := range out.CapacityReservations[0].Tags {
		m[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	return m
}

func TestCreateAndDeleteTagsOfAReservation(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, r := buy(t, c, p5Search(1, 24), types.Tag{Key: aws.String("team"), Value: aws.String("ml")})
	id := aws.ToString(r.CapacityReservationId)
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: []types.Tag{
		{Key: aws.String("gpublock:auto-extend"), Value: aws.String("true")},
		{Key: aws.String("team"), Value: aws.String("research")}, // overwrites
		{Key: aws.String("empty"), Value: aws.String("")},
	}}); err != nil {
		t.Fatal(err)
	}
	got := reservationTags(t, c, id)
	if got["gpublock:auto-extend"] != "true" || got["team"] != "research" || got["empty"] != "" || len(got) != 4 {
		t.Fatalf("after CreateTags: %v", got)
	}
	// A value that differs deletes nothing; the key alone deletes whatever its value.
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}, Tags: []types.Tag{
		{Key: aws.String("team"), Value: aws.String("ml")},
		{Key: aws.String("gpublock:auto-extend")},
	}}); err != nil {
		t.Fatal(err)
	}
	got = reservationTags(t, c, id)
	if got["team"] != "research" || len(got) != 3 {
		t.Fatalf("after DeleteTags by value and by key: %v", got)
	}
	// An empty value deletes the tag only if its value is empty.
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}, Tags: []types.Tag{
		{Key: aws.String("empty"), Value: aws.String("")}, {Key: aws.String("team"), Value: aws.String("")}}}); err != nil {
		t.Fatal(err)
	}
	got = reservationTags(t, c, id)
	if _, ok := got["empty"]; ok || got["team"] != "research" {
		t.Fatalf("after DeleteTags with empty values: %v", got)
	}
	// No tags named: every tag but AWS's own goes.
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}}); err != nil {
		t.Fatal(err)
	}
	got = reservationTags(t, c, id)
	if len(got) != 1 || got[quantityTag] != "1" {
		t.Fatalf("after DeleteTags of everything: %v", got)
	}
}

func TestTagsErrors(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, r := buy(t, c, p5Search(1, 24))
	id := aws.ToString(r.CapacityReservationId)
	one := []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}
	for _, tc := range []struct {
		name string
		res  []string
		tags []types.Tag
		code string
	}{
		{"unknown reservation", []string{id, "cr-0123456789abcdef0"}, one, "InvalidCapacityReservationId.NotFound"},
		{"malformed reservation", []string{"cr-nope"}, one, "InvalidCapacityReservationId.Malformed"},
		{"unknown instance", []string{"i-0123456789abcdef0"}, one, "InvalidInstanceID.NotFound"},
		{"malformed instance", []string{"i-xyz"}, one, "InvalidInstanceID.Malformed"},
		{"other kind", []string{"vol-0123456789abcdef0"}, one, "InvalidID"},
		{"aws: key", []string{id}, []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("v")}}, "InvalidParameterValue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: tc.res, Tags: tc.tags})
			wantCode(t, err, tc.code)
		})
	}
	// Nothing was changed by the refused request naming a known and an unknown id.
	if got := reservationTags(t, c, id); len(got) != 1 {
		t.Fatalf("a refused CreateTags changed tags: %v", got)
	}
	many := make([]types.Tag, maxTags+1)
	for i := range many {
		many[i] = types.Tag{Key: aws.String(string(rune('a'+i%26)) + string(rune('a'+i/26))), Value: aws.String("v")}
	}
	_, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: many})
	wantCode(t, err, "TagLimitExceeded")
	_, err = c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: one, DryRun: aws.Bool(true)})
	wantCode(t, err, "DryRunOperation")
	_, err = c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{"cr-0123456789abcdef0"}})
	wantCode(t, err, "InvalidCapacityReservationId.NotFound")
}

func TestCreateTagsOfAnInstance(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(1, 24))
	s.SetTime(o.StartDate.Add(maxPaymentDelay))
	run, err := c.RunInstances(ctx, &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), InstanceType: types.InstanceTypeP548xlarge, MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: r.CapacityReservationId}},
	})
	if err != nil {
		t.Fatal(err)
	}
	iid := aws.ToString(run.Instances[0].InstanceId)
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{iid}, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("trainer")}}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filterOf("tag:Name", "trainer")}})
	if err != nil || len(out.Reservations) != 1 || aws.ToString(out.Reservations[0].Instances[0].InstanceId) != iid {
		t.Fatalf("DescribeInstances by the tag made: %v %+v", err, out)
	}
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{iid}, Tags: []types.Tag{{Key: aws.String("Name")}}}); err != nil {
		t.Fatal(err)
	}
	out, err = c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filterOf("tag-key", "Name")}})
	if err != nil || len(out.Reservations) != 0 {
		t.Fatalf("DescribeInstances by a deleted tag key: %v %d", err, len(out.Reservations))
	}
}
