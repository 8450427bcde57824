package ec2sim

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/gpublock/gpublock/model"
)

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
