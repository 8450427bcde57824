package export

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

var csvHeader = []string{"Region", "AvailabilityZone", "InstanceType", "InstanceCount", "StartDate", "EndDate",
	"CapacityBlockDurationHours", "CapacityBlockDurationMinutes", "UpfrontFee", "CurrencyCode", "Tenancy", "CapacityBlockOfferingId",
	"PriceUnit", "EffectiveHourlyPrice", "AcceleratorHourlyPrice", "OnDemandHourlyPrice", "BreakEvenUtilization", "PriceSource",
	"UltraserverType", "UltraserverCount", "CapacityBlockOfferingSegments"}

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
	// A segmented offering's segments are one cell: the JSON array -o json carries, in
	// AWS's names ("" for a plain offering), so that a row stays one offering.
	segs := ""
	if len(j.CapacityBlockOfferingSegments) > 0 {
		b, err := json.Marshal(j.CapacityBlockOfferingSegments)
		if err == nil {
			segs = string(b)
		}
	}
	return []string{o.Region, o.AvailabilityZone, j.InstanceType, strconv.Itoa(j.InstanceCount),
		o.Start.UTC().Format(time.RFC3339), o.End.UTC().Format(time.RFC3339),
		strconv.Itoa(o.DurationHours), strconv.Itoa(o.DurationMinutes), o.Fee.String(), o.Currency, o.Tenancy, o.ID,
		c.Unit, c.EffectiveHourly.String(), c.AcceleratorHourly.String(), od, be, priceSource(c),
		j.UltraserverType, ultraCount, segs}
}

// ErrPlanInCSV is WriteCSV's answer to a training plan's offering.
var ErrPlanInCSV = errors.New("the CSV has Capacity Blocks' columns only; a training plan has no row in it (-o json lists plans)")

// InCSV says whether an offering has a row in the CSV: its columns are Capacity Blocks' (AWS's
// field names, CapacityBlockOfferingId among them), which a plan's parts and targets do not fit.
func InCSV(o model.Offering) bool { return o.Source != model.SourceTrainingPlan }

// WriteCSV writes the header and then a record per comparison, of its Offering (as
// pricing.Compare sets it), in the order given. It writes nothing when one is a plan's.
func WriteCSV(w io.Writer, cmps []pricing.Comparison) error {
	for _, c := range cmps {
		if !InCSV(c.Offering) {
			return ErrPlanInCSV
		}
	}
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
