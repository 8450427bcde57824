package ec2sim

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// Two emulators given two accounts are two accounts: each answers STS with its own, and
// owns the blocks bought from it, in OwnerId and ARN.
func TestEmulatorStandsForItsAccount(t *testing.T) {
	if _, err := New(Options{Account: "12345"}); err == nil || !strings.Contains(err.Error(), "12 digits") {
		t.Errorf("account 12345: %v", err)
	}
	for _, account := range []string{"111122223333", "444455556666", ""} {
		want := account
		if want == "" {
			want = DemoAccount
		}
		_, url := newTestServer(t, Options{Account: account})
		id, err := stsClient(url, "us-east-1").GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(id.Account) != want || !strings.Contains(aws.ToString(id.Arn), ":"+want+":") {
			t.Errorf("account %q: STS says %s, %s", account, aws.ToString(id.Account), aws.ToString(id.Arn))
		}
		c := ec2Client(url, "us-east-1")
		buy(t, c, p5Search(1, 48))
		out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		if err != nil || len(out.CapacityReservations) != 1 {
			t.Fatalf("account %q: %v, %d reservations", account, err, len(out.CapacityReservations))
		}
		r := out.CapacityReservations[0]
		if aws.ToString(r.OwnerId) != want || !strings.Contains(aws.ToString(r.CapacityReservationArn), ":"+want+":capacity-reservation/") {
			t.Errorf("account %q: the block's owner %s, ARN %s", account, aws.ToString(r.OwnerId), aws.ToString(r.CapacityReservationArn))
		}
	}
}

// Two emulators that differ only in their account hand out different ids, as AWS's ids
// are unique: offerings, reservations, blocks and instances.
func TestIDsDifferPerAccount(t *testing.T) {
	seen := map[string]string{}
	for _, account := range []string{"111122223333", "444455556666", ""} {
		s, url := newTestServer(t, Options{Account: account})
		c := ec2Client(url, "us-east-1")
		o, r := buy(t, c, p5Search(1, 24))
		s.SetTime(*o.StartDate)
		ids := []string{aws.ToString(o.CapacityBlockOfferingId), aws.ToString(r.CapacityReservationId), aws.ToString(r.CapacityBlockId)}
		for _, id := range ids {
			if other, ok := seen[id]; ok {
				t.Fatalf("accounts %q and %q both hand out %s", other, account, id)
			}
			seen[id] = account
		}
	}
}
