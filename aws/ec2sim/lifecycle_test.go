package ec2sim

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

func reservationByID(t *testing.T, c *ec2.Client, id string) types.CapacityReservation {
	t.Helper()
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityReservations) != 1 {
		t.Fatalf("reservation %s: %d found", id, len(out.CapacityReservations))
	}
	return out.CapacityReservations[0]
}

func subnetIn(t *testing.T, c *ec2.Client, az string) string {
	t.Helper()
	out, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{{Name: aws.String("availability-zone"), Values: []string{az}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Subnets) != 1 || aws.ToString(out.Subnets[0].AvailabilityZone) != az {
		t.Fatalf("subnets in %s: %+v", az, out.Subnets)
	}
	return aws.ToString(out.Subnets[0].SubnetId)
}

func launchInput(crID, subnet string, n int32) *ec2.RunInstancesInput {
	return &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), MinCount: aws.Int32(n), MaxCount: aws.Int32(n),
		InstanceType:          types.InstanceTypeP548xlarge,
		SubnetId:              aws.String(subnet),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String(crID)},
		},
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeInstance, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("trainer")}}}},
	}
}

func instanceStates(t *testing.T, c *ec2.Client, crID string) map[string]string {
	t.Helper()
	out, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{{Name: aws.String("capacity-reservation-id"), Values: []string{crID}}}})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range out.Reservations {
		for _, in := range r.Instances {
			m[aws.ToString(in.InstanceId)] = string(in.State.Name)
		}
	}
	return m
}

func setClock(t *testing.T, base string, form url.Values) string {
	t.Helper()
	resp, err := http.PostForm(base+"/_sim/clock", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b := new(strings.Builder)
	_, _ = readInto(b, resp)
	if resp.StatusCode != 200 {
		t.Fatalf("POST /_sim/clock %v: %d %s", form, resp.StatusCode, b)
	}
	return strings.TrimSpace(b.String())
}

// TestLifecycle follows a block from purchase to expiry on the emulator's clock:
// buy → payment-pending → scheduled → active → launch → terminate at end−30min → expired.
func TestLifecycle(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o, cr := buy(t, c, p5Search(2, 48))
	id := aws.ToString(cr.CapacityReservationId)
	az := aws.ToString(o.AvailabilityZone)
	start, end := aws.ToTime(o.StartDate), aws.ToTime(o.EndDate)
	subnet := subnetIn(t, c, az)

	if got := reservationByID(t, c, id); got.State != types.CapacityReservationStatePaymentPending {
		t.Fatalf("state = %s, want payment-pending", got.State)
	}
	_, err := c.RunInstances(ctx, launchInput(id, subnet, 1))
	wantCode(t, err, "InvalidCapacityReservationState.PendingActivation")

	// Paid within five minutes, moved by the control API.
	setClock(t, base, url.Values{"advance": {"5m"}})
	got := reservationByID(t, c, id)
	if got.State != types.CapacityReservationStateScheduled || aws.ToInt32(got.AvailableInstanceCount) != 0 || aws.ToInt32(got.TotalInstanceCount) != 2 {
		t.Fatalf("after payment: state %s available %d total %d", got.State, aws.ToInt32(got.AvailableInstanceCount), aws.ToInt32(got.TotalInstanceCount))
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 1))
	wantCode(t, err, "InvalidCapacityReservationState.PendingActivation")

	// Active at the start.
	if now := setClock(t, base, url.Values{"set": {start.Format(time.RFC3339)}}); now != start.Format(time.RFC3339) {
		t.Fatalf("clock = %s, want %s", now, start.Format(time.RFC3339))
	}
	got = reservationByID(t, c, id)
	if got.State != types.CapacityReservationStateActive || aws.ToInt32(got.AvailableInstanceCount) != 2 {
		t.Fatalf("at start: state %s available %d", got.State, aws.ToInt32(got.AvailableInstanceCount))
	}
	st, err := c.DescribeCapacityBlockStatus(ctx, &ec2.DescribeCapacityBlockStatusInput{CapacityBlockIds: []string{aws.ToString(cr.CapacityBlockId)}})
	if err != nil || len(st.CapacityBlockStatuses) != 1 {
		t.Fatalf("status: %v %+v", err, st)
	}
	if bs := st.CapacityBlockStatuses[0]; bs.InterconnectStatus != types.CapacityBlockInterconnectStatusOk ||
		aws.ToInt32(bs.TotalCapacity) != 2 || aws.ToInt32(bs.TotalAvailableCapacity) != 2 ||
		len(bs.CapacityReservationStatuses) != 1 || aws.ToString(bs.CapacityReservationStatuses[0].CapacityReservationId) != id {
		t.Fatalf("status = %+v", bs)
	}

	// Launch rules.
	bad := launchInput(id, subnet, 1)
	bad.InstanceMarketOptions = nil
	_, err = c.RunInstances(ctx, bad)
	wantCode(t, err, "InvalidParameterValue")
	if !strings.Contains(err.Error(), "market type (purchasing) option is not valid") {
		t.Errorf("market-type message: %v", err)
	}
	var otherAZ string
	for _, z := range regions["us-east-1"].zonesFor("p5.48xlarge", false, false, &regionState{}) {
		if z.Name != az {
			otherAZ = z.Name
			break
		}
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnetIn(t, c, otherAZ), 1))
	wantCode(t, err, "InvalidParameterValue")
	if !strings.Contains(err.Error(), az) || !strings.Contains(err.Error(), otherAZ) {
		t.Errorf("subnet AZ message does not name both zones: %v", err)
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 3))
	wantCode(t, err, "ReservationCapacityExceeded")
	wrongType := launchInput(id, subnet, 1)
	wrongType.InstanceType = types.InstanceTypeP4d24xlarge
	_, err = c.RunInstances(ctx, wrongType)
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.RunInstances(ctx, launchInput("cr-0000000000000000a", subnet, 1))
	wantCode(t, err, "InvalidCapacityReservationId.NotFound")
	_, err = c.RunInstances(ctx, launchInput("cr-nope", subnet, 1))
	wantCode(t, err, "InvalidCapacityReservationId.Malformed")

	run, err := c.RunInstances(ctx, launchInput(id, subnet, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Instances) != 2 || aws.ToString(run.ReservationId) == "" || aws.ToString(run.OwnerId) != DemoAccount {
		t.Fatalf("run = %+v", run)
	}
	for _, in := range run.Instances {
		if in.State.Name != types.InstanceStateNamePending || aws.ToString(in.CapacityReservationId) != id ||
			in.InstanceLifecycle != types.InstanceLifecycleTypeCapacityBlock || aws.ToString(in.SubnetId) != subnet ||
			aws.ToString(in.Placement.AvailabilityZone) != az || in.InstanceType != types.InstanceTypeP548xlarge ||
			len(in.Tags) != 1 || aws.ToString(in.Tags[0].Value) != "trainer" {
			t.Errorf("instance = %+v", in)
		}
	}
	if got := reservationByID(t, c, id); aws.ToInt32(got.AvailableInstanceCount) != 0 {
		t.Errorf("available after launching 2 of 2 = %d", aws.ToInt32(got.AvailableInstanceCount))
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 1))
	wantCode(t, err, "ReservationCapacityExceeded")

	s.Advance(time.Minute)
	states := instanceStates(t, c, id)
	if len(states) != 2 {
		t.Fatalf("instances = %v", states)
	}
	for i, st := range states {
		if st != "running" {
			t.Errorf("%s is %s, want running", i, st)
		}
	}
	running, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{{Name: aws.String("instance-state-name"), Values: []string{"running"}}}})
	if err != nil || len(running.Reservations) != 1 || len(running.Reservations[0].Instances) != 2 {
		t.Fatalf("running filter: %v %+v", err, running)
	}

	// Terminating one frees its slot once it has shut down.
	first := aws.ToString(run.Instances[0].InstanceId)
	term, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{first}})
	if err != nil {
		t.Fatal(err)
	}
	if len(term.TerminatingInstances) != 1 || term.TerminatingInstances[0].CurrentState.Name != types.InstanceStateNameShuttingDown ||
		term.TerminatingInstances[0].PreviousState.Name != types.InstanceStateNameRunning {
		t.Fatalf("terminate = %+v", term.TerminatingInstances)
	}
	if got := reservationByID(t, c, id); aws.ToInt32(got.AvailableInstanceCount) != 0 {
		t.Errorf("slot freed while shutting down")
	}
	s.Advance(2 * time.Minute)
	if got := reservationByID(t, c, id); aws.ToInt32(got.AvailableInstanceCount) != 1 {
		t.Errorf("available after termination = %d, want 1", aws.ToInt32(got.AvailableInstanceCount))
	}
	if st := instanceStates(t, c, id)[first]; st != "terminated" {
		t.Errorf("terminated instance is %s", st)
	}
	_, err = c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{"i-0000000000000000a"}})
	wantCode(t, err, "InvalidInstanceID.NotFound")

	// From 30 minutes before the end, the emulator terminates what still runs.
	second := aws.ToString(run.Instances[1].InstanceId)
	s.SetTime(end.Add(-31 * time.Minute))
	if st := instanceStates(t, c, id)[second]; st != "running" {
		t.Fatalf("31 min before the end: %s", st)
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 1))
	if err != nil {
		t.Fatalf("launch 31 min before the end: %v", err)
	}
	s.SetTime(end.Add(-30 * time.Minute))
	if st := instanceStates(t, c, id)[second]; st != "shutting-down" {
		t.Fatalf("30 min before the end: %s, want shutting-down", st)
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 1))
	wantCode(t, err, "InvalidLaunchTargets")
	s.Advance(2 * time.Minute)
	for i, st := range instanceStates(t, c, id) {
		if st != "terminated" {
			t.Errorf("%s is %s 28 min before the end", i, st)
		}
	}
	if got := reservationByID(t, c, id); got.State != types.CapacityReservationStateActive {
		t.Errorf("before the end: %s", got.State)
	}
	s.SetTime(end)
	got = reservationByID(t, c, id)
	if got.State != types.CapacityReservationStateExpired || aws.ToInt32(got.AvailableInstanceCount) != 0 {
		t.Fatalf("at the end: state %s available %d", got.State, aws.ToInt32(got.AvailableInstanceCount))
	}
	_, err = c.RunInstances(ctx, launchInput(id, subnet, 1))
	wantCode(t, err, "InvalidLaunchTargets")
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{Filters: []types.Filter{{Name: aws.String("state"), Values: []string{"expired"}}}})
	if err != nil || len(blocks.CapacityBlocks) != 1 {
		t.Fatalf("expired blocks: %v %+v", err, blocks)
	}
	// Terminated instances disappear from DescribeInstances after an hour.
	s.Advance(2 * time.Hour)
	if states := instanceStates(t, c, id); len(states) != 0 {
		t.Errorf("instances still shown long after termination: %v", states)
	}
}

func TestClockControl(t *testing.T) {
	s, base := newTestServer(t, Options{Speed: 1})
	resp, err := http.Get(base + "/_sim/clock")
	if err != nil {
		t.Fatal(err)
	}
	b := new(strings.Builder)
	readInto(b, resp)
	resp.Body.Close()
	got, err := time.Parse(time.RFC3339, strings.TrimSpace(b.String()))
	if err != nil || got.Before(testStart) || got.After(testStart.Add(time.Hour)) {
		t.Fatalf("GET /_sim/clock = %q (%v)", b, err)
	}
	for _, bad := range []url.Values{{"set": {"tomorrow"}}, {"advance": {"26 hours"}}, {}, {"set": {"2026-12-01T00:00:00Z"}, "advance": {"1h"}}} {
		resp, err := http.PostForm(base+"/_sim/clock", bad)
		if err != nil {
			t.Fatal(err)
		}
		msg := new(strings.Builder)
		readInto(msg, resp)
		resp.Body.Close()
		if resp.StatusCode != 400 || msg.Len() == 0 {
			t.Errorf("POST %v: %d %q, want 400 with a message", bad, resp.StatusCode, msg)
		}
	}
	if s.Now().Before(testStart) || s.Now().After(testStart.Add(time.Hour)) {
		t.Errorf("bad requests moved the clock to %s", s.Now())
	}
	setClock(t, base, url.Values{"advance": {"26h"}})
	if d := s.Now().Sub(testStart); d < 26*time.Hour || d > 27*time.Hour {
		t.Errorf("advance=26h moved the clock by %v", d)
	}
	resp, err = http.Get(base + "/_sim/nothing")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown control endpoint: %d", resp.StatusCode)
	}
}

func extensionOfferings(t *testing.T, c *ec2.Client, id string, hours int32) []types.CapacityBlockExtensionOffering {
	t.Helper()
	out, err := c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(hours),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.CapacityBlockExtensionOfferings
}

func TestExtension(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o, cr := buy(t, c, p5Search(1, 24))
	id := aws.ToString(cr.CapacityReservationId)
	end := aws.ToTime(o.EndDate)

	// Not while payment is pending.
	_, err := c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "IncorrectState")

	s.Advance(maxPaymentDelay)
	_, err = c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(30)})
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String("cr-0000000000000000a"), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "InvalidCapacityReservationId.NotFound")

	offs := extensionOfferings(t, c, id, 24)
	if len(offs) != 1 {
		t.Fatalf("extension offerings = %+v", offs)
	}
	eo := offs[0]
	if !aws.ToTime(eo.CapacityBlockExtensionStartDate).Equal(end) || !aws.ToTime(eo.CapacityBlockExtensionEndDate).Equal(end.Add(24*time.Hour)) ||
		aws.ToInt32(eo.CapacityBlockExtensionDurationHours) != 24 || aws.ToInt32(eo.InstanceCount) != 1 ||
		aws.ToString(eo.AvailabilityZone) != aws.ToString(o.AvailabilityZone) || !aws.ToTime(eo.StartDate).Equal(aws.ToTime(o.StartDate)) {
		t.Fatalf("extension offering = %+v", eo)
	}
	if fee, err := model.ParseMoney(aws.ToString(eo.UpfrontFee)); err != nil || fee.Cmp(model.MustMoney("500")) < 0 {
		t.Fatalf("extension fee %q", aws.ToString(eo.UpfrontFee))
	}

	_, err = c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: aws.String("cbe-nope"), CapacityReservationId: aws.String(id)})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdMalformed")
	_, err = c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: aws.String("cbe-0000000000000000a"), CapacityReservationId: aws.String(id)})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdNotFound")

	pe, err := c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: eo.CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	if len(pe.CapacityBlockExtensions) != 1 {
		t.Fatalf("purchase extension = %+v", pe)
	}
	ext := pe.CapacityBlockExtensions[0]
	if ext.CapacityBlockExtensionStatus != types.CapacityBlockExtensionStatusPaymentPending || aws.ToString(ext.CapacityReservationId) != id ||
		aws.ToString(ext.UpfrontFee) != aws.ToString(eo.UpfrontFee) || !aws.ToTime(ext.CapacityBlockExtensionEndDate).Equal(end.Add(24*time.Hour)) {
		t.Fatalf("extension = %+v", ext)
	}
	// The end moves only once the extension is paid; another extension waits for it.
	if got := reservationByID(t, c, id); !aws.ToTime(got.EndDate).Equal(end) {
		t.Errorf("end moved before payment: %s", aws.ToTime(got.EndDate))
	}
	_, err = c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "IncorrectState")
	_, err = c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: eo.CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(id)})
	wantCode(t, err, "IncorrectState")

	s.Advance(maxPaymentDelay)
	got := reservationByID(t, c, id)
	if !aws.ToTime(got.EndDate).Equal(end.Add(24*time.Hour)) || aws.ToString(got.CapacityReservationId) != id {
		t.Fatalf("after payment: end %s, want %s", aws.ToTime(got.EndDate), end.Add(24*time.Hour))
	}
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{CapacityBlockIds: []string{aws.ToString(cr.CapacityBlockId)}})
	if err != nil || len(blocks.CapacityBlocks) != 1 || !aws.ToTime(blocks.CapacityBlocks[0].EndDate).Equal(end.Add(24*time.Hour)) {
		t.Fatalf("block after extension: %v %+v", err, blocks)
	}
	hist, err := c.DescribeCapacityBlockExtensionHistory(ctx, &ec2.DescribeCapacityBlockExtensionHistoryInput{CapacityReservationIds: []string{id}})
	if err != nil || len(hist.CapacityBlockExtensions) != 1 || hist.CapacityBlockExtensions[0].CapacityBlockExtensionStatus != types.CapacityBlockExtensionStatusPaymentSucceeded {
		t.Fatalf("history: %v %+v", err, hist)
	}
	// The spent offering cannot be bought again.
	_, err = c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: eo.CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(id)})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")

	// The block now runs a day longer: active at the old end, expired at the new one.
	s.SetTime(end)
	if got := reservationByID(t, c, id); got.State != types.CapacityReservationStateActive {
		t.Errorf("at the old end: %s", got.State)
	}
	s.SetTime(end.Add(24 * time.Hour))
	if got := reservationByID(t, c, id); got.State != types.CapacityReservationStateExpired {
		t.Errorf("at the new end: %s", got.State)
	}
	_, err = c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "IncorrectState")
}

// dedicatedOffering finds a dedicated-tenancy offering of p5.48xlarge, searching day by day.
func dedicatedOffering(t *testing.T, c *ec2.Client) types.CapacityBlockOffering {
	t.Helper()
	for d := 7; d < 56; d++ {
		from := testStart.Add(time.Duration(d) * 24 * time.Hour)
		in := p5Search(1, 24)
		in.StartDateRange, in.EndDateRange = aws.Time(from), aws.Time(from.Add(72*time.Hour))
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.CapacityBlockOfferings {
			if o.Tenancy == types.CapacityReservationTenancyDedicated {
				return o
			}
		}
	}
	t.Fatal("the market sells no dedicated p5.48xlarge block in eight weeks")
	return types.CapacityBlockOffering{}
}

func launchInto(c *ec2.Client, id *string, tenancy types.Tenancy) error {
	in := &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), InstanceType: types.InstanceTypeP548xlarge, MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: id}},
	}
	if tenancy != "" {
		in.Placement = &types.Placement{Tenancy: tenancy}
	}
	_, err := c.RunInstances(ctx, in)
	return err
}

func TestDedicatedBlockTakesOnlyDedicatedInstances(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o := dedicatedOffering(t, c)
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	r := out.CapacityReservation
	if r.Tenancy != types.CapacityReservationTenancyDedicated {
		t.Fatalf("the reservation of a dedicated offering is %s", r.Tenancy)
	}
	byTenancy, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{filterOf("tenancy", "dedicated")}})
	if err != nil || len(byTenancy.CapacityReservations) != 1 {
		t.Fatalf("tenancy filter: %v %d", err, len(byTenancy.CapacityReservations))
	}
	s.SetTime(o.StartDate.Add(time.Minute))
	wantCode(t, launchInto(c, r.CapacityReservationId, ""), "ReservationCapacityExceeded")
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyDefault), "ReservationCapacityExceeded")
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyHost), "InvalidParameterCombination")
	if err := launchInto(c, r.CapacityReservationId, types.TenancyDedicated); err != nil {
		t.Fatal(err)
	}
	insts, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filterOf("tenancy", "dedicated")}})
	if err != nil || len(insts.Reservations) != 1 || insts.Reservations[0].Instances[0].Placement.Tenancy != types.TenancyDedicated {
		t.Fatalf("the dedicated instance: %v %+v", err, insts)
	}
}

func TestDefaultBlockRefusesDedicatedInstances(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(1, 24))
	if o.Tenancy != types.CapacityReservationTenancyDefault || r.Tenancy != types.CapacityReservationTenancyDefault {
		t.Fatalf("a near block is default-tenancy: %s %s", o.Tenancy, r.Tenancy)
	}
	s.SetTime(o.StartDate.Add(time.Minute))
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyDedicated), "ReservationCapacityExceeded")
	if err := launchInto(c, r.CapacityReservationId, types.TenancyDefault); err != nil {
		t.Fatal(err)
	}
}

// Most offerings are of the default tenancy: a few days a week ahead or more are dedicated.
func TestDedicatedOfferingsAreFew(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	dedicated, all := 0, 0
	for d := 0; d < 56; d += 3 {
		in := p5Search(1, 24)
		in.StartDateRange = aws.Time(testStart.Add(time.Duration(d) * 24 * time.Hour))
		for _, o := range mustSearch(t, c, in) {
			all++
			if o.Tenancy == types.CapacityReservationTenancyDedicated {
				dedicated++
			}
		}
	}
	if dedicated == 0 || dedicated*4 > all {
		t.Fatalf("%d of %d offerings dedicated; want a few", dedicated, all)
	}
}
