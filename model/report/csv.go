package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// csvHeader is the CSV's first columns; a Tag:KEY column per tag key follows Tags.
var csvHeader = []string{"Account", "Region", "Source", "ReservationId", "Name", "InstanceType", "Count", "Unit",
	"StartDate", "EndDate", "State"}

var csvFigures = []string{"AcceleratorsPerUnit", "ReservedHours", "WholeReservedHours", "UsedHours", "UsedAcceleratorHours",
	"IdleHours", "PaidInWindow", "PaidInWindowKnown", "PaymentsInWindow", "UnknownPaymentsInWindow", "Fee", "Cost", "CostPerAcceleratorHour",
	"OnDemandHourly", "OnDemandCost", "Saving", "IdleCost", "UseUnknownReason", "PurchaseGroup"}

// CSVHeader is the header of WriteCSV for the tag keys: the same keys, the same header.
func CSVHeader(tagKeys []string) []string {
	h := append([]string(nil), csvHeader...)
	for _, k := range tagKeys {
		h = append(h, "Tag:"+k)
	}
	return append(h, csvFigures...)
}

// WriteCSV writes one row per reservation under CSVHeader(r.TagKeys). Money is a plain
// decimal ("7551.36"), hours a number; an unknown figure is an empty cell.
func WriteCSV(w io.Writer, r Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader(r.TagKeys)); err != nil {
		return err
	}
	for _, row := range r.Reservations {
		j := row.json()
		rec := []string{row.Account, row.Region, row.Source.Name(), row.ID, row.Name, row.InstanceType, strconv.Itoa(row.Count), row.Unit,
			j.StartDate, j.EndDate, string(row.State)}
		for _, k := range r.TagKeys {
			rec = append(rec, row.Tags[k])
		}
		accel := ""
		if row.AcceleratorsPerUnit > 0 {
			accel = strconv.Itoa(row.AcceleratorsPerUnit)
		}
		rec = append(rec, accel, csvHours(&j.ReservedHours), csvHours(&j.WholeReservedHours), csvHours(j.UsedHours),
			csvHours(j.UsedAcceleratorHours), csvHours(j.IdleHours), csvMoney(j.PaidInWindow), row.Paid.Known.String(), strconv.Itoa(row.Paid.Payments),
			strconv.Itoa(row.Paid.Unknown), csvMoney(j.Fee), csvMoney(j.Cost), csvMoney(j.CostPerAcceleratorHour),
			csvMoney(j.OnDemandHourly), csvMoney(j.OnDemandCost), csvMoney(j.Saving), csvMoney(j.IdleCost), j.UseUnknownReason,
			strings.Join(row.Group, " "))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvHours(h *float64) string {
	if h == nil {
		return ""
	}
	return strconv.FormatFloat(*h, 'f', -1, 64)
}

func csvMoney(m *model.Money) string {
	if m == nil {
		return ""
	}
	return m.String()
}
