package model

import (
	"fmt"
	"strings"
	"time"
)

// A Capacity Block offering may be made of segments (AWS's CapacityBlockOfferingSegments,
// service/ec2 v1.349.0): each its own zone, type, count, window and fee, and each becoming
// its own capacity reservation once bought. The model keeps them as the offering's Parts,
// as a training plan keeps its reserved capacities, so that the rates, the hours and the
// views of parts serve both. A plain offering has no parts: its fields are the one block.
//
// AWS does not document whether a segmented offering's top-level fields describe the
// whole (the sum of the fees, the earliest start, the latest end) or its first segment.
// gpublock reads the top-level fee as what AWS charges and the segments as what it makes;
// when the two disagree it refuses to buy (SegmentsProblem), since either reading could
// then charge a person other than the fee they confirmed.

// Segmented reports a Capacity Block offering made of segments.
func (o Offering) Segmented() bool {
	return o.Source == SourceCapacityBlock && len(o.Parts) > 0
}

// Reservations is how many capacity reservations buying o makes: one per segment, or one.
func (o Offering) Reservations() int {
	if o.Segmented() {
		return len(o.Parts)
	}
	return 1
}

// SegmentsFee is the sum of the segments' fees.
func (o Offering) SegmentsFee() Money {
	var sum Money
	for _, p := range o.Parts {
		sum = sum.Add(p.Fee)
	}
	return sum
}

// SegmentsProblem is why a segmented offering must not be bought as listed, "" when it may:
// its segments' fees must add up to the top-level fee, in the one currency. AWS does not
// say which of two disagreeing figures it charges, so neither is trusted.
func (o Offering) SegmentsProblem() string {
	if !o.Segmented() {
		return ""
	}
	for i, p := range o.Parts {
		if p.Currency != "" && o.Currency != "" && p.Currency != o.Currency {
			return fmt.Sprintf("segment %d of offering %s is priced in %s, the offering in %s; gpublock does not buy an offering whose fees disagree",
				i+1, o.ID, p.Currency, o.Currency)
		}
	}
	if sum := o.SegmentsFee(); sum.Cmp(o.Fee) != 0 {
		return fmt.Sprintf("the segments of offering %s add up to %s, but its fee is %s; gpublock does not buy an offering whose fees disagree (AWS does not say which it charges)",
			o.ID, ExactFee(sum, o.Currency), ExactFee(o.Fee, o.Currency))
	}
	return ""
}

// ZoneCell is the zone column of a table: the zone, or, for an offering made of segments,
// how many ("2 segments"), so that one row never reads as one block in one zone.
func (o Offering) ZoneCell() string {
	if !o.Segmented() {
		return o.AvailabilityZone
	}
	return fmt.Sprintf("%d segments", len(o.Parts))
}

// Zones is where the offering's capacity is: its zone, or its segments' distinct zones
// joined by "+" (us-east-1a+us-east-1b).
func (o Offering) Zones() string {
	if !o.Segmented() {
		return o.AvailabilityZone
	}
	var zones []string
	for _, p := range o.Parts {
		if !containsString(zones, p.AvailabilityZone) {
			zones = append(zones, p.AvailabilityZone)
		}
	}
	return strings.Join(zones, "+")
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// SegmentLine is one segment in a line of a confirmation: zone (and zone id), count ×
// type, its window in UTC and in loc, its length and its exact fee.
func SegmentLine(p Part, currency string, loc *time.Location) string {
	zone := p.AvailabilityZone
	if p.AvailabilityZoneID != "" {
		zone += " (" + p.AvailabilityZoneID + ")"
	}
	if p.Currency != "" {
		currency = p.Currency
	}
	window := p.Start.UTC().Format(LayoutMinuteZone) + " – " + p.End.UTC().Format(LayoutMinuteZone)
	if LocalDiffers(p.Start, loc) || LocalDiffers(p.End, loc) {
		window += " · " + p.Start.In(loc).Format(LayoutMinuteZone) + " – " + p.End.In(loc).Format(LayoutMinuteZone)
	}
	return fmt.Sprintf("%s · %s × %d · %s · %s · %s", zone, p.InstanceType, p.Count, window, HoursMinutes(p.minutes()), ExactFee(p.Fee, currency))
}

// segmentFacts are a segmented offering's lines of a confirmation: how many reservations
// the purchase makes, then each segment.
func segmentFacts(o Offering, loc *time.Location) []Fact {
	if !o.Segmented() {
		return nil
	}
	out := []Fact{{"Reservations", fmt.Sprintf("%d: one capacity reservation per segment, bought together by this one purchase", len(o.Parts))}}
	for i, p := range o.Parts {
		out = append(out, Fact{fmt.Sprintf("Segment %d", i+1), SegmentLine(p, o.Currency, loc)})
	}
	if problem := o.SegmentsProblem(); problem != "" {
		out = append(out, Fact{"Refused", problem})
	}
	return out
}

// UsableInstanceMinutes is the instance-minutes of o a job can use when instances stop
// leadMinutes before a reservation's end: each segment is its own reservation and loses
// its own lead (the safer reading for consecutive segments, whose instances AWS may stop
// at each segment's end).
func (o Offering) UsableInstanceMinutes(leadMinutes int64) int64 {
	if !o.Segmented() {
		return int64(o.Count) * max(0, o.Minutes()-leadMinutes)
	}
	var n int64
	for _, p := range o.Parts {
		n += int64(p.Count) * max(0, p.minutes()-leadMinutes)
	}
	return n
}

// SegmentTypesAgree reports whether every segment is of the offering's type.
func (o Offering) SegmentTypesAgree() bool {
	for _, p := range o.Parts {
		if p.InstanceType != o.InstanceType {
			return false
		}
	}
	return true
}
