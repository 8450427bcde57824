package ec2sim

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/simcore"
)

func TestParseDenyFault(t *testing.T) {
	var f Faults
	for _, spec := range []string{"deny=PurchaseCapacityBlock,RunInstances", "deny= ec2:runinstances , describecapacityblocks"} {
		if err := ParseFault(spec, &f); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
	if want := []string{"PurchaseCapacityBlock", "RunInstances", "DescribeCapacityBlocks"}; !slices.Equal(f.Deny, want) {
		t.Errorf("Deny = %q, want %q (canonical names, each once)", f.Deny, want)
	}
	var all Faults
	if err := ParseFault("deny=ALL", &all); err != nil || !slices.Equal(all.Deny, []string{"all"}) {
		t.Errorf("deny=ALL: %q, %v", all.Deny, err)
	}
	for _, bad := range []string{"deny=", "deny=BuyEverything", "deny=RunInstances,", "deny=sts:GetCallerIdentity"} {
		var g Faults
		err := ParseFault(bad, &g)
		if err == nil {
			t.Errorf("%s accepted: %q", bad, g.Deny)
			continue
		}
		if bad != "deny=" && !strings.Contains(err.Error(), "PurchaseCapacityBlockExtension") {
			t.Errorf("%s: %v does not list the actions", bad, err)
		}
	}
	if !strings.Contains(simcore.FaultHelp, "deny=") || !strings.Contains(simcore.FaultHelp, "payfail=") {
		t.Errorf("FaultHelp lacks the new faults: %s", simcore.FaultHelp)
	}
}

// wantUnauthorized checks err is EC2's refusal exactly as AWS sends it (reference §2.4).
func wantUnauthorized(t *testing.T, what string, err error) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("%s: want UnauthorizedOperation, got %v", what, err)
	}
	if ae.ErrorCode() != "UnauthorizedOperation" || ae.ErrorMessage() != "You are not authorized to perform this operation." || httpStatus(err) != http.StatusForbidden {
		t.Fatalf("%s: got %d %s %q, want 403 UnauthorizedOperation", what, httpStatus(err), ae.ErrorCode(), ae.ErrorMessage())
	}
}

func TestDenyPurchase(t *testing.T) {
	_, cnt, url := countedServer(t, Options{Faults: Faults{Deny: []string{"PurchaseCapacityBlock"}}})
	c := ec2Client(url, "us-east-1")
	o := mustSearch(t, c, p5Search(2, 48))[0] // describing is still allowed
	in := &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId,
		InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}

	dry := *in
	dry.DryRun = aws.Bool(true)
	_, err := c.PurchaseCapacityBlock(ctx, &dry)
	wantUnauthorized(t, "dry run", err)
	_, err = c.PurchaseCapacityBlock(ctx, in)
	wantUnauthorized(t, "purchase", err)

	// Validation still comes first, as it does before DryRunOperation.
	bad := dry
	bad.CapacityBlockOfferingId = aws.String("cbr-nothex")
	_, err = c.PurchaseCapacityBlock(ctx, &bad)
	wantCode(t, err, "InvalidCapacityBlockOfferingIdMalformed")

	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("a denied purchase bought something: %+v, %v", out, err)
	}
	// The SDK does not retry a 403: one request per call.
	if n := cnt.get("PurchaseCapacityBlock"); n != 3 {
		t.Errorf("%d PurchaseCapacityBlock requests for 3 calls", n)
	}
}

func TestDenyRunInstancesThenAllow(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(2, 24))
	s.SetTime(aws.ToTime(o.StartDate).Add(time.Hour))
	run := &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceType:          types.InstanceType(aws.ToString(o.InstanceType)),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: r.CapacityReservationId}},
	}
	dry := *run
	dry.DryRun = aws.Bool(true)
	_, err := c.RunInstances(ctx, &dry)
	wantCode(t, err, "DryRunOperation")

	s.SetFaults(Faults{Deny: []string{"RunInstances"}})
	_, err = c.RunInstances(ctx, &dry)
	wantUnauthorized(t, "dry run", err)
	_, err = c.RunInstances(ctx, run)
	wantUnauthorized(t, "launch", err)
	insts, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{})
	if err != nil || len(insts.Reservations) != 0 {
		t.Fatalf("a denied launch started instances: %+v, %v", insts.Reservations, err)
	}

	s.SetFaults(Faults{})
	out, err := c.RunInstances(ctx, run)
	if err != nil || len(out.Instances) != 1 {
		t.Fatalf("allowed again: %+v, %v", out, err)
	}
}

// deny=all refuses every EC2 action, describes included, but not STS GetCallerIdentity,
// which needs no permission in AWS.
func TestDenyAll(t *testing.T) {
	_, url := newTestServer(t, Options{Faults: Faults{Deny: []string{simcore.DenyAll}}})
	c := ec2Client(url, "us-west-2")
	_, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
	wantUnauthorized(t, "offerings", err)
	_, err = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{DryRun: aws.Bool(true)})
	wantUnauthorized(t, "reservations dry run", err)
	_, err = c.DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	wantUnauthorized(t, "regions", err)
	id, err := stsClient(url, "us-west-2").GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil || aws.ToString(id.Account) != DemoAccount {
		t.Errorf("GetCallerIdentity under deny=all: %+v, %v", id, err)
	}
}

// Under deny=all every action answers UnauthorizedOperation, or, for one whose required
// parameters are missing, its MissingParameter first (the actions that need parameters
// are denied through the SDK in the tests above). An action registered without guarded
// and needing no parameter would answer 200 here.
func TestEveryActionIsDenied(t *testing.T) {
	_, url := newTestServer(t, Options{Faults: Faults{Deny: []string{simcore.DenyAll}}})
	denied := 0
	for _, action := range actionNames() {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("Action="+action+"&Version="+ec2Version))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		sign(req, "us-east-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		readInto(&b, resp)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusForbidden && strings.Contains(b.String(), "<Code>UnauthorizedOperation</Code>"):
			denied++
		case resp.StatusCode == http.StatusBadRequest && strings.Contains(b.String(), "<Code>MissingParameter</Code>"):
		default:
			t.Errorf("%s under deny=all: %d %s", action, resp.StatusCode, b.String())
		}
	}
	if len(actionNames()) != len(ec2Actions) || denied < 8 {
		t.Errorf("%d of %v denied", denied, actionNames())
	}
}

// The faults in force are the emulator's own copy: a caller that reuses its slices after
// New or SetFaults does not change them behind its back.
func TestFaultListsAreCopied(t *testing.T) {
	deny := []string{"PurchaseCapacityBlock"}
	s, err := New(Options{Faults: Faults{Deny: deny}})
	if err != nil {
		t.Fatal(err)
	}
	deny[0] = "RunInstances"
	down := []string{"us-east-2"}
	s.SetFaults(Faults{Deny: []string{"DescribeInstances"}, Down: down})
	down[0] = "us-east-1"
	f := s.currentFaults()
	if !slices.Equal(f.Deny, []string{"DescribeInstances"}) || !slices.Equal(f.Down, []string{"us-east-2"}) {
		t.Errorf("faults in force: deny %q, down %q", f.Deny, f.Down)
	}
	s2, _ := New(Options{Faults: Faults{Deny: deny}})
	deny[0] = "PurchaseCapacityBlock"
	if f := s2.currentFaults(); !slices.Equal(f.Deny, []string{"RunInstances"}) {
		t.Errorf("after New the caller's slice changed the faults: %q", f.Deny)
	}
}
