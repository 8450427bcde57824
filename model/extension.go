package model

import (
	"slices"
	"time"
)

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

// ExtensionLengths are the lengths, in days, an extension of b could have: 1–14 days,
// then whole weeks, as long as the block, extended, lasts at most 182 days.
func ExtensionLengths(b Block) []int {
	var out []int
	for _, d := range ValidDurationDays() {
		if b.End.Add(time.Duration(d)*24*time.Hour).Sub(b.Start) <= MaxReservationDays*24*time.Hour {
			out = append(out, d)
		}
	}
	return out
}

// ExtensionChoice is the cheapest extension offering AWS gives for one length.
type ExtensionChoice struct {
	Days     int
	Offering ExtensionOffering
}

// usualExtensionDays are the lengths asked first when nothing says what this person
// chooses: a day or two to finish a run, a week, two.
var usualExtensionDays = []int{1, 2, 7, 14}

// ExtensionAskOrder is the order the lengths are asked for, so that the lengths most likely
// to be chosen answer first at AWS's slow rate: those chosen before (chosen, in days, most
// often first, ties the shorter first), then 1, 2, 7 and 14 days, then the rest shortest
// first. It holds exactly the lengths given, each once.
func ExtensionAskOrder(lengths, chosen []int) []int {
	count := map[int]int{}
	for _, d := range chosen {
		if slices.Contains(lengths, d) {
			count[d]++
		}
	}
	past := make([]int, 0, len(count))
	for d := range count {
		past = append(past, d)
	}
	slices.SortFunc(past, func(a, b int) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return a - b
	})
	out := past
	for _, d := range append(slices.Clone(usualExtensionDays), lengths...) {
		if slices.Contains(lengths, d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
