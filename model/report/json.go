package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/gpublock/gpublock/model"
)

// The JSON document of a report. Money is a decimal string ("7551.36"), as in every JSON
// gpublock prints; hours and counts are numbers; an unknown or undefined figure is null. An
// amount paid is null when some payment in it is of unknown amount, so that no one adds up a
// partial sum unawares; PaidKnown is the sum of those known, UnknownPayments how many are not.

type reportJSON struct {
	From, To, Now string
	TagKeys       []string
	amountJSON
	Months         []monthJSON
	ByAccount      []groupJSON
	BySource       []groupJSON
	ByTag          []tagJSON
	Reservations   []rowJSON
	Use            useJSON
	PaymentList    []paymentJSON
	UnknownAmounts []paymentJSON
	Problems       []string
}

type amountJSON struct {
	Paid            *model.Money
	PaidKnown       model.Money
	Payments        int
	UnknownPayments int
}

func amountOf(a Amount) amountJSON {
	j := amountJSON{PaidKnown: a.Known, Payments: a.Payments, UnknownPayments: a.Unknown}
	if a.Complete() {
		p := a.Known
		j.Paid = &p
	}
	return j
}

type monthJSON struct {
	Month string
	amountJSON
	BySource map[string]amountJSON
}

type groupJSON struct {
	Value *string // null: the reservations without the tag
	amountJSON
}

type tagJSON struct {
	Key    string
	Values []groupJSON
}

type useJSON struct {
	ReservedHours, UsedHours float64
	UnknownUseReservedHours  float64
	UnknownUseReservations   int
	UsedShare                *float64
}

type rowJSON struct {
	Account                 string
	Region                  string
	Source                  model.Source
	ReservationId           string
	Name                    string `json:",omitempty"`
	InstanceType            string
	Count                   int
	Unit                    string
	StartDate, EndDate      string
	State                   model.BlockState
	Tags                    map[string]string
	AcceleratorsPerUnit     *int
	ReservedHours           float64
	WholeReservedHours      float64
	UsedHours               *float64
	UseUnknownReason        string `json:",omitempty"`
	UsedAcceleratorHours    *float64
	IdleHours               *float64
	PaidInWindow            *model.Money
	PaidInWindowKnown       model.Money
	PaymentsInWindow        int
	UnknownPaymentsInWindow int
	Fee                     *model.Money
	Cost                    *model.Money
	CostPerAcceleratorHour  *model.Money
	OnDemandHourly          *model.Money
	OnDemandCost            *model.Money
	Saving                  *model.Money
	IdleCost                *model.Money
	// PurchaseGroup is every reservation of the purchase that made this one, when it made
	// several, as `gpublock blocks -o json` names it.
	PurchaseGroup []string `json:",omitempty"`
}

type paymentJSON struct {
	ReservationId string
	Account       string
	Region        string
	Source        model.Source
	Kind          PaymentKind
	PaidAt        string
	Amount        *model.Money // null: unknown
	Origin        Origin       `json:",omitempty"`
	Mismatch      string       `json:",omitempty"`
}

// WriteJSON writes the whole report as one JSON document, indented.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.jsonDoc())
}

func (r Report) jsonDoc() reportJSON {
	d := reportJSON{From: rfc3339(r.From), To: rfc3339(r.To), Now: rfc3339(r.Now), TagKeys: nonNil(r.TagKeys),
		amountJSON: amountOf(r.Paid),
		Months:     []monthJSON{}, ByAccount: groupsJSON(r.ByAccount), BySource: groupsJSON(r.BySource), ByTag: []tagJSON{},
		Reservations: []rowJSON{}, PaymentList: paymentsJSON(r.Payments), UnknownAmounts: paymentsJSON(r.UnknownAmounts),
		Problems: nonNil(r.Problems)}
	for _, m := range r.Months {
		mj := monthJSON{Month: m.Label, amountJSON: amountOf(m.Amount), BySource: map[string]amountJSON{}}
		for _, s := range m.BySource {
			mj.BySource[s.Source.Name()] = amountOf(s.Amount)
		}
		d.Months = append(d.Months, mj)
	}
	for _, t := range r.ByTag {
		d.ByTag = append(d.ByTag, tagJSON{Key: t.Key, Values: groupsJSON(t.Values)})
	}
	u := r.Use
	d.Use = useJSON{ReservedHours: roundHours(u.ReservedHours), UsedHours: roundHours(u.UsedHours),
		UnknownUseReservedHours: roundHours(u.UnknownReservedHours), UnknownUseReservations: u.UnknownReservations}
	if u.ReservedHours > 0 {
		s := u.UsedHours / u.ReservedHours
		d.Use.UsedShare = &s
	}
	for _, row := range r.Reservations {
		d.Reservations = append(d.Reservations, row.json())
	}
	return d
}

func (row Row) json() rowJSON {
	j := rowJSON{Account: row.Account, Region: row.Region, Source: row.Source, ReservationId: row.ID, Name: row.Name,
		InstanceType: row.InstanceType, Count: row.Count, Unit: row.Unit, StartDate: rfc3339(row.Start), EndDate: rfc3339(row.End),
		State: row.State, Tags: row.Tags, ReservedHours: roundHours(row.ReservedHours), WholeReservedHours: roundHours(row.WholeReservedHours),
		UsedHours: hoursPtr(row.UsedHours), UsedAcceleratorHours: hoursPtr(row.AcceleratorHours), IdleHours: hoursPtr(row.IdleHours),
		PaidInWindow: amountOf(row.Paid).Paid, PaidInWindowKnown: row.Paid.Known, PaymentsInWindow: row.Paid.Payments,
		UnknownPaymentsInWindow: row.Paid.Unknown,
		Cost:                    costPtr(row.Cost), CostPerAcceleratorHour: costPtr(row.CostPerAcceleratorHour), OnDemandHourly: costPtr(row.OnDemandHourly),
		OnDemandCost: costPtr(row.OnDemandCost), Saving: costPtr(row.Saving), IdleCost: costPtr(row.IdleCost),
		PurchaseGroup: row.Group}
	if j.Tags == nil {
		j.Tags = map[string]string{}
	}
	if !row.UsedHours.Known {
		j.UseUnknownReason = row.UseWhy
	}
	if row.AcceleratorsPerUnit > 0 {
		n := row.AcceleratorsPerUnit
		j.AcceleratorsPerUnit = &n
	}
	if row.Fee.Payments > 0 && row.Fee.Complete() {
		f := row.Fee.Known
		j.Fee = &f
	}
	return j
}

func groupsJSON(gs []Group) []groupJSON {
	out := []groupJSON{}
	for _, g := range gs {
		gj := groupJSON{amountJSON: amountOf(g.Amount)}
		if !g.Untagged {
			k := g.Key
			gj.Value = &k
		}
		out = append(out, gj)
	}
	return out
}

func paymentsJSON(ps []PaymentRow) []paymentJSON {
	out := []paymentJSON{}
	for _, p := range ps {
		pj := paymentJSON{ReservationId: p.ReservationID, Account: p.Account, Region: p.Region, Source: p.Source, Kind: p.Kind,
			PaidAt: rfc3339(p.At), Origin: p.Origin, Mismatch: p.Mismatch}
		if p.Known {
			a := p.Amount
			pj.Amount = &a
		}
		out = append(out, pj)
	}
	return out
}

func hoursPtr(h Hours) *float64 {
	if !h.Known {
		return nil
	}
	v := roundHours(h.Value)
	return &v
}

func costPtr(c Cost) *model.Money {
	if !c.Known {
		return nil
	}
	v := c.Value
	return &v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
