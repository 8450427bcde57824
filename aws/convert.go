package aws

import (
	"sort"
	"strconv"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

// offeringFrom converts one SDK offering. A fee that is not a decimal number is an error:
// a price must never silently become zero.
func offeringFrom(region string, o types.CapacityBlockOffering) (model.Offering, error) {
	fee, err := model.ParseMoney(sdkaws.ToString(o.UpfrontFee))
	if err != nil {
		return model.Offering{}, err
	}
	off := model.Offering{
		ID:               sdkaws.ToString(o.CapacityBlockOfferingId),
		Region:           region,
		AvailabilityZone: sdkaws.ToString(o.AvailabilityZone),
		InstanceType:     sdkaws.ToString(o.InstanceType),
		Count:            int(sdkaws.ToInt32(o.InstanceCount)),
		Start:            sdkaws.ToTime(o.StartDate).UTC(),
		End:              sdkaws.ToTime(o.EndDate).UTC(),
		DurationHours:    int(sdkaws.ToInt32(o.CapacityBlockDurationHours)),
		DurationMinutes:  int(sdkaws.ToInt32(o.CapacityBlockDurationMinutes)),
		Fee:              fee,
		Currency:         sdkaws.ToString(o.CurrencyCode),
		Tenancy:          string(o.Tenancy),
		UltraServerType:  sdkaws.ToString(o.UltraserverType),
		UltraServerCount: int(sdkaws.ToInt32(o.UltraserverCount)),
		ZoneType:         sdkaws.ToString(o.ZoneType),
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

// incrementalQuantityTag carries a block's count before it starts, while AWS reports its
// capacity as zero.
const incrementalQuantityTag = "aws:ec2capacityreservation:incrementalRequestedQuantity"

func tagMap(tags []types.Tag) map[string]string {
	if len(tags) == 0 {
		return nil
	}
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[sdkaws.ToString(t.Key)] = sdkaws.ToString(t.Value)
	}
	return m
}

// blockFromReservation converts a capacity reservation of type capacity-block.
func blockFromReservation(region string, r types.CapacityReservation) model.Block {
	b := model.Block{
		ReservationID:    sdkaws.ToString(r.CapacityReservationId),
		BlockID:          sdkaws.ToString(r.CapacityBlockId),
		Region:           region,
		AvailabilityZone: sdkaws.ToString(r.AvailabilityZone),
		InstanceType:     sdkaws.ToString(r.InstanceType),
		Platform:         string(r.InstancePlatform),
		Tenancy:          string(r.Tenancy),
		TotalCount:       int(sdkaws.ToInt32(r.TotalInstanceCount)),
		AvailableCount:   int(sdkaws.ToInt32(r.AvailableInstanceCount)),
		State:            model.BlockState(r.State),
		Start:            sdkaws.ToTime(r.StartDate).UTC(),
		End:              sdkaws.ToTime(r.EndDate).UTC(),
		Created:          sdkaws.ToTime(r.CreateDate).UTC(),
		Tags:             tagMap(r.Tags),
	}
	if q, err := strconv.Atoi(b.Tags[incrementalQuantityTag]); err == nil && q > b.TotalCount {
		b.TotalCount = q
	}
	return b
}

func instanceFrom(i types.Instance) model.Instance {
	in := model.Instance{
		ID:            sdkaws.ToString(i.InstanceId),
		ReservationID: sdkaws.ToString(i.CapacityReservationId),
		InstanceType:  string(i.InstanceType),
		LaunchTime:    sdkaws.ToTime(i.LaunchTime).UTC(),
		SubnetID:      sdkaws.ToString(i.SubnetId),
		ImageID:       sdkaws.ToString(i.ImageId),
	}
	if i.State != nil {
		in.State = string(i.State.Name)
	}
	if in.State != "running" && in.State != "pending" {
		in.StoppedAt = transitionTime(sdkaws.ToString(i.StateTransitionReason))
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
	fee, _ := model.ParseMoney(sdkaws.ToString(e.UpfrontFee)) // history only: a bad fee shows as 0, it is never charged from here
	return model.Extension{
		ReservationID: sdkaws.ToString(e.CapacityReservationId),
		OfferingID:    sdkaws.ToString(e.CapacityBlockExtensionOfferingId),
		InstanceType:  sdkaws.ToString(e.InstanceType),
		Count:         int(sdkaws.ToInt32(e.InstanceCount)),
		DurationHours: int(sdkaws.ToInt32(e.CapacityBlockExtensionDurationHours)),
		Status:        model.ExtensionStatus(e.CapacityBlockExtensionStatus),
		PurchaseDate:  sdkaws.ToTime(e.CapacityBlockExtensionPurchaseDate).UTC(),
		Start:         sdkaws.ToTime(e.CapacityBlockExtensionStartDate).UTC(),
		End:           sdkaws.ToTime(e.CapacityBlockExtensionEndDate).UTC(),
		Fee:           fee,
		Currency:      sdkaws.ToString(e.CurrencyCode),
	}
}

func extensionOfferingFrom(reservationID string, o types.CapacityBlockExtensionOffering) (model.ExtensionOffering, error) {
	fee, err := model.ParseMoney(sdkaws.ToString(o.UpfrontFee))
	if err != nil {
		return model.ExtensionOffering{}, err
	}
	return model.ExtensionOffering{
		ID:               sdkaws.ToString(o.CapacityBlockExtensionOfferingId),
		ReservationID:    reservationID,
		InstanceType:     sdkaws.ToString(o.InstanceType),
		Count:            int(sdkaws.ToInt32(o.InstanceCount)),
		AvailabilityZone: sdkaws.ToString(o.AvailabilityZone),
		Start:            sdkaws.ToTime(o.CapacityBlockExtensionStartDate).UTC(),
		End:              sdkaws.ToTime(o.CapacityBlockExtensionEndDate).UTC(),
		DurationHours:    int(sdkaws.ToInt32(o.CapacityBlockExtensionDurationHours)),
		Fee:              fee,
		Currency:         sdkaws.ToString(o.CurrencyCode),
	}, nil
}

func utc(t time.Time) *time.Time { u := t.UTC(); return &u }

func sortStrings(s []string) { sort.Strings(s) }
