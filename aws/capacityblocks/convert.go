package capacityblocks

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

// offeringFrom converts one SDK offering. A fee that is not a decimal number is an error:
// a price must never silently become zero.
func offeringFrom(region string, o types.CapacityBlockOffering) (model.Offering, error) {
	fee, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil {
		return model.Offering{}, err
	}
	off := model.Offering{
		ID:               aws.ToString(o.CapacityBlockOfferingId),
		Region:           region,
		AvailabilityZone: aws.ToString(o.AvailabilityZone),
		InstanceType:     aws.ToString(o.InstanceType),
		Count:            int(aws.ToInt32(o.InstanceCount)),
		Start:            aws.ToTime(o.StartDate).UTC(),
		End:              aws.ToTime(o.EndDate).UTC(),
		DurationHours:    int(aws.ToInt32(o.CapacityBlockDurationHours)),
		DurationMinutes:  int(aws.ToInt32(o.CapacityBlockDurationMinutes)),
		Fee:              fee,
		Currency:         aws.ToString(o.CurrencyCode),
		Tenancy:          string(o.Tenancy),
		UltraServerType:  aws.ToString(o.UltraserverType),
		UltraServerCount: int(aws.ToInt32(o.UltraserverCount)),
		ZoneType:         aws.ToString(o.ZoneType),
	}
	for i, sg := range o.CapacityBlockOfferingSegments {
		p, err := segmentFrom(sg)
		if err != nil {
			return model.Offering{}, fmt.Errorf("offering %s, segment %d: %w", off.ID, i+1, err)
		}
		off.Parts = append(off.Parts, p)
	}
	// AWS describes an UltraServer offering by its member instances (p6e-gb200.36xlarge ×
	// 18); gpublock's model counts UltraServers (u-p6e-gb200x72 × 1), as its catalog
	// and prices do.
	if off.UltraServerType != "" {
		off.InstanceType = off.UltraServerType
		if off.UltraServerCount > 0 {
			off.Count = off.UltraServerCount
		}
	}
	return off, nil
}

// segmentFrom converts one segment of a segmented offering; a fee that is not a decimal
// number is an error, as the offering's is.
func segmentFrom(sg types.CapacityBlockOfferingSegment) (model.Part, error) {
	fee, err := model.ParseMoney(aws.ToString(sg.UpfrontFee))
	if err != nil {
		return model.Part{}, err
	}
	return model.Part{
		AvailabilityZone:   aws.ToString(sg.AvailabilityZone),
		AvailabilityZoneID: aws.ToString(sg.AvailabilityZoneId),
		InstanceType:       aws.ToString(sg.InstanceType),
		Count:              int(aws.ToInt32(sg.InstanceCount)),
		Start:              aws.ToTime(sg.StartDate).UTC(),
		End:                aws.ToTime(sg.EndDate).UTC(),
		Hours:              int64(aws.ToInt32(sg.CapacityBlockDurationHours)),
		Minutes:            int(aws.ToInt32(sg.CapacityBlockDurationMinutes)),
		Fee:                fee,
		Currency:           aws.ToString(sg.CurrencyCode),
		ZoneType:           aws.ToString(sg.ZoneType),
	}, nil
}

// incrementalQuantityTag carries a block's count before it starts, while AWS reports its
// capacity as zero.
const incrementalQuantityTag = "aws:ec2capacityreservation:incrementalRequestedQuantity"

func tagMap(tags []types.Tag) map[string]string {
	if len(tags) == 0 {
		return nil
	}
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return m
}

// blockFromReservation converts a capacity reservation of type capacity-block.
func blockFromReservation(region string, r types.CapacityReservation) model.Block {
	b := model.Block{
		Account:          aws.ToString(r.OwnerId),
		ReservationID:    aws.ToString(r.CapacityReservationId),
		BlockID:          aws.ToString(r.CapacityBlockId),
		Region:           region,
		AvailabilityZone: aws.ToString(r.AvailabilityZone),
		InstanceType:     aws.ToString(r.InstanceType),
		Platform:         string(r.InstancePlatform),
		Tenancy:          string(r.Tenancy),
		TotalCount:       int(aws.ToInt32(r.TotalInstanceCount)),
		AvailableCount:   int(aws.ToInt32(r.AvailableInstanceCount)),
		State:            model.BlockState(r.State),
		Start:            aws.ToTime(r.StartDate).UTC(),
		End:              aws.ToTime(r.EndDate).UTC(),
		Created:          aws.ToTime(r.CreateDate).UTC(),
		Tags:             tagMap(r.Tags),
	}
	if q, err := strconv.Atoi(b.Tags[incrementalQuantityTag]); err == nil && q > b.TotalCount {
		b.TotalCount = q
	}
	return b
}

func instanceFrom(i types.Instance) model.Instance {
	in := model.Instance{
		ID:            aws.ToString(i.InstanceId),
		ReservationID: aws.ToString(i.CapacityReservationId),
		InstanceType:  string(i.InstanceType),
		LaunchTime:    aws.ToTime(i.LaunchTime).UTC(),
		SubnetID:      aws.ToString(i.SubnetId),
		ImageID:       aws.ToString(i.ImageId),
	}
	if i.State != nil {
		in.State = string(i.State.Name)
	}
	if in.State != "running" && in.State != "pending" {
		in.StoppedAt = transitionTime(aws.ToString(i.StateTransitionReason))
	}
	return in
}

// transitionTime is the time in an instance's state transition reason, which AWS writes
// as "User initiated (2026-12-03 11:00:02 GMT)"; zero when the reason holds none. The
// format is not documented (only the field is), so anything else is read as no time.
func transitionTime(reason string) time.Time {
	open, close := strings.LastIndexByte(reason, '('), strings.LastIndexByte(reason, ')')
	if open < 0 || close < open {
		return time.Time{}
	}
	t, err := time.Parse("2006-01-02 15:04:05 MST", reason[open+1:close])
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func extensionFrom(e types.CapacityBlockExtension) model.Extension {
	fee, _ := model.ParseMoney(aws.ToString(e.UpfrontFee)) // history only: a bad fee shows as 0, it is never charged from here
	return model.Extension{
		ReservationID: aws.ToString(e.CapacityReservationId),
		OfferingID:    aws.ToString(e.CapacityBlockExtensionOfferingId),
		InstanceType:  aws.ToString(e.InstanceType),
		Count:         int(aws.ToInt32(e.InstanceCount)),
		DurationHours: int(aws.ToInt32(e.CapacityBlockExtensionDurationHours)),
		Status:        model.ExtensionStatus(e.CapacityBlockExtensionStatus),
		PurchaseDate:  aws.ToTime(e.CapacityBlockExtensionPurchaseDate).UTC(),
		Start:         aws.ToTime(e.CapacityBlockExtensionStartDate).UTC(),
		End:           aws.ToTime(e.CapacityBlockExtensionEndDate).UTC(),
		Fee:           fee,
		Currency:      aws.ToString(e.CurrencyCode),
	}
}

func extensionOfferingFrom(reservationID string, o types.CapacityBlockExtensionOffering) (model.ExtensionOffering, error) {
	fee, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil {
		return model.ExtensionOffering{}, err
	}
	return model.ExtensionOffering{
		ID:               aws.ToString(o.CapacityBlockExtensionOfferingId),
		ReservationID:    reservationID,
		InstanceType:     aws.ToString(o.InstanceType),
		Count:            int(aws.ToInt32(o.InstanceCount)),
		AvailabilityZone: aws.ToString(o.AvailabilityZone),
		Start:            aws.ToTime(o.CapacityBlockExtensionStartDate).UTC(),
		End:              aws.ToTime(o.CapacityBlockExtensionEndDate).UTC(),
		DurationHours:    int(aws.ToInt32(o.CapacityBlockExtensionDurationHours)),
		Fee:              fee,
		Currency:         aws.ToString(o.CurrencyCode),
	}, nil
}

func utc(t time.Time) *time.Time { u := t.UTC(); return &u }

func sortStrings(s []string) { sort.Strings(s) }
