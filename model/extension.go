package model

import "slices"

// CheapestExtension picks among the extension offerings AWS gives for one length: one
// today, but nothing says it always will. offs must not be empty.
func CheapestExtension(offs []ExtensionOffering) ExtensionOffering {
	return slices.MinFunc(offs, func(a, b ExtensionOffering) int { return a.Fee.Cmp(b.Fee) })
}

// AsOffering is the added hours of an extension of b as a block of their own, which is what
// the fee buys: the form pricing compares with on-demand.
func (e ExtensionOffering) AsOffering(b Block) Offering {
	t := e.InstanceType
	if t == "" {
		t = b.InstanceType
	}
	count := e.Count
	if count == 0 {
		count = b.TotalCount
	}
	return Offering{ID: e.ID, Region: b.Region, AvailabilityZone: b.AvailabilityZone, InstanceType: t, Count: count,
		Start: e.Start, End: e.End, DurationHours: e.DurationHours, Fee: e.Fee, Currency: e.Currency}
}
