package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

var csvHeader = []string{"Region", "AvailabilityZone", "InstanceType", "InstanceCount", "StartDate", "EndDate",
	"CapacityBlockDurationHours", "CapacityBlockDurationMinutes", "UpfrontFee", "CurrencyCode", "Tenancy", "CapacityBlockOfferingId",
	"PriceUnit", "EffectiveHourlyPrice", "AcceleratorHourlyPrice", "OnDemandHourlyPrice", "BreakEvenUtilization", "PriceSource",
	"UltraserverType", "UltraserverCount"}

// CSVHeader is the CSV's header line, a copy the caller may change.
func CSVHeader() []string { return append([]string(nil), csvHeader...) }

// CSVRecord is one offering; the on-demand price and the break-even are empty cells when
// there is no on-demand price.
func CSVRecord(o model.Offering, c pricing.Comparison) []string {
	od, be := "", ""
	if !c.NoOnDemand {
		od = c.OnDemandHourly.String()
	}
	if u, ok := c.BreakEvenFloat(); ok {
		be = strconv.FormatFloat(u, 'f', -1, 64)
	}
	// The same instance type, count and UltraServer fields as the json (AWS's meaning:
	// an UltraServer's member instances), so the two formats never disagree.
	j := Row(o, c)
	ultraCount := ""
	if j.UltraserverType != "" {
		ultraCount = strconv.Itoa(j.UltraserverCount)
	}
	return []string{o.Region, o.AvailabilityZone, j.InstanceType, strconv.Itoa(j.InstanceCount),
		o.Start.UTC().Format(time.RFC3339), o.End.UTC().Format(time.RFC3339),
		strconv.Itoa(o.DurationHours), strconv.Itoa(o.DurationMinutes), o.Fee.String(), o.Currency, o.Tenancy, o.ID,
		c.Unit, c.EffectiveHourly.String(), c.AcceleratorHourly.String(), od, be, priceSource(c),
		j.UltraserverType, ultraCount}
}

// WriteCSV writes the header and then a record per comparison, of its Offering (as
// pricing.Compare sets it), in the order given.
func WriteCSV(w io.Writer, cmps []pricing.Comparison) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, c := range cmps {
		if err := cw.Write(CSVRecord(c.Offering, c)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
