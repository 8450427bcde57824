package simcore

import (
	"maps"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/model"
)

// The markets' shared rules: capacity is sold by market day, each day running from
// 11:30 UTC to 11:30 UTC, and a purchase takes its units from every day it touches.

// marketEpoch anchors the market's days.
var marketEpoch = time.Date(2000, 1, 1, model.BoundaryHour, model.BoundaryMinute, 0, 0, time.UTC)

// MarketDay is the market day t falls in.
func MarketDay(t time.Time) int64 {
	d := t.Sub(marketEpoch)
	n := int64(d / (24 * time.Hour))
	if d < 0 && d%(24*time.Hour) != 0 {
		n--
	}
	return n
}

// SupplyKey is where a supply map records the units of typ bought in az on a market day.
func SupplyKey(az, typ string, day int64) string {
	return az + "|" + typ + "|" + strconv.FormatInt(day, 10)
}

// Consume records in used the units of typ bought in az (given back, when negative) on
// every market day that [start, end) touches.
func Consume(used map[string]int, az, typ string, start, end time.Time, units int) {
	for day := MarketDay(start); day <= MarketDay(end.Add(-time.Nanosecond)); day++ {
		used[SupplyKey(az, typ, day)] += units
	}
}

// Consumed is what used records as bought of typ in az on a market day.
func Consumed(used map[string]int, az, typ string, day int64) int {
	return used[SupplyKey(az, typ, day)]
}

// LeastOver is the smallest free supply over every market day that [start, end) touches:
// what a reservation of that span can take.
func LeastOver(start, end time.Time, free func(day int64) int) int {
	least := -1
	for day := MarketDay(start); day <= MarketDay(end.Add(-time.Nanosecond)); day++ {
		if n := free(day); least < 0 || n < least {
			least = n
		}
		if least == 0 {
			break
		}
	}
	return max(0, least)
}

// Fee is the upfront fee of units at rate per unit-hour for [start, end), the rate moved by
// bp basis points, so that the fee is exact to the cent.
func Fee(rate model.Money, bp, units int, start, end time.Time) model.Money {
	minutes := int64(end.Sub(start) / time.Minute)
	fee := rate.MulRat(int64(bp), 10000).MulRat(int64(units)*minutes, 60)
	return model.MoneyFromCents(fee.Cents())
}

// Market is what a protocol's region state keeps of its market, O its offerings and E
// its extension offerings: the quotes given (by id), the units bought of the supply
// (SupplyKey → units) and the generation, which counts purchases and goes into offering
// ids so that a quote given before a purchase is told from the market after it. It is
// embedded in the region state and saved inline in its JSON.
type Market[O, E any] struct {
	Offerings    map[string]*O  `json:"offerings"`
	ExtOfferings map[string]*E  `json:"extensionOfferings"`
	Consumed     map[string]int `json:"consumed"`
	Generation   int            `json:"generation"`
}

// FillMarket makes a market loaded from JSON (or new) safe to use: its maps made, the
// null quotes a hand-edited file may hold dropped.
func (m *Market[O, E]) FillMarket() {
	if m.Offerings == nil {
		m.Offerings = map[string]*O{}
	}
	if m.ExtOfferings == nil {
		m.ExtOfferings = map[string]*E{}
	}
	if m.Consumed == nil {
		m.Consumed = map[string]int{}
	}
	maps.DeleteFunc(m.Offerings, func(_ string, o *O) bool { return o == nil })
	maps.DeleteFunc(m.ExtOfferings, func(_ string, o *E) bool { return o == nil })
}

// ExtensionOffer is what every offering to extend a reservation says: how many hours,
// from when (the reservation's end when offered) to when, for how much, and whether it
// has been bought. A protocol's extension offering embeds it, inline in the JSON.
type ExtensionOffer struct {
	ID    string      `json:"id"`
	Hours int         `json:"hours"`
	Start time.Time   `json:"start"`
	End   time.Time   `json:"end"`
	Fee   model.Money `json:"fee"`
	Gone  bool        `json:"gone,omitempty"`
}

// Extension is an extension bought, embedded by each protocol's, inline in the JSON.
type Extension struct {
	OfferingID string      `json:"offeringId"`
	Hours      int         `json:"hours"`
	Start      time.Time   `json:"start"`
	End        time.Time   `json:"end"`
	Fee        model.Money `json:"fee"`
	Purchased  time.Time   `json:"purchased"`
	Payment
}

// Bought is the extension that buying o at now makes, paid by pay (Core.Pay).
func (o *ExtensionOffer) Bought(now time.Time, pay Payment) Extension {
	return Extension{OfferingID: o.ID, Hours: o.Hours, Start: o.Start, End: o.End, Fee: o.Fee, Purchased: now, Payment: pay}
}
