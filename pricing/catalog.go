// Package pricing holds what gpublock knows about prices (an embedded, dated and sourced
// catalog, refreshable from the AWS Price List API through aws/pricelist) and the exact
// maths and charts that set a Capacity Block offering against on-demand.
//
// It imports neither the AWS SDK nor Bubble Tea.
package pricing

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Kind says what a catalog figure prices.
type Kind string

const (
	KindOnDemand      Kind = "on-demand"
	KindCapacityBlock Kind = "capacity-block" // a published effective rate
	KindSavingsPlan1y Kind = "savings-plan-1y"
	KindSavingsPlan3y Kind = "savings-plan-3y"
	// KindSageMakerOnDemand is SageMaker's on-demand rate of an ml.* type, which is not
	// EC2's rate of the same hardware: each service's figure answers only for its own
	// type names (ml.* for SageMaker), so that one is never taken for the other.
	KindSageMakerOnDemand Kind = "sagemaker-on-demand"
)

// Service is the AWS service whose price the kind is: "SageMaker" or "EC2".
func (k Kind) Service() string {
	if k == KindSageMakerOnDemand {
		return "SageMaker"
	}
	return "EC2"
}

// sageMakerType reports whether a type is named as SageMaker names it (ml.p5.48xlarge).
func sageMakerType(instanceType string) bool { return strings.HasPrefix(instanceType, "ml.") }

// Status says whether a row carries a figure.
type Status string

const (
	StatusPrice Status = "price"
	// StatusNone: AWS does not sell this on-demand; there is nothing to compare with.
	StatusNone Status = "none"
	// StatusUnknown: no figure in gpublock's sources; a refresh may find one.
	StatusUnknown Status = "unknown"
)

// Reliability grades the source of a figure.
const (
	ReliabilityOfficial    = "official"
	ReliabilityThirdParty  = "third-party"
	ReliabilityUnconfirmed = "unconfirmed"
)

// AnyRegion is the region of a figure whose source names no region.
const AnyRegion = "*"

// SourcePriceListAPI is the source of figures fetched by `gpublock prices --refresh`.
const SourcePriceListAPI = "AWS Price List API"

// Row is one dated, sourced figure of the catalog.
type Row struct {
	Kind         Kind
	InstanceType string
	Region       string // an AWS region or AnyRegion
	Status       Status
	// Hourly is per instance-hour, or per UltraServer-hour for UltraServer types. Zero
	// unless Status is StatusPrice.
	Hourly model.Money
	// AcceleratorHourly is set only where the source publishes it.
	AcceleratorHourly *model.Money `json:",omitempty"`
	Source            string
	Date              string // as precise as the source: 2026-11-09, 2026-10 or 2026
	DateNote          string `json:",omitempty"` // retrieved, as of, valid until, published, fetched
	Reliability       string `json:",omitempty"`
	Note              string `json:",omitempty"`
}

// HasPrice reports whether the row carries a figure.
func (r Row) HasPrice() bool { return r.Status == StatusPrice }

// Time is the start of the period Date names (the first day of its month or year when the
// source is no more precise), or the zero time if Date does not parse.
func (r Row) Time() time.Time {
	for _, layout := range []string{time.RFC3339, "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, r.Date); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// PerAccelerator is the published per-accelerator rate, or the hourly rate divided by the
// type's accelerators (rounded to the micro-dollar) when the source gives none.
func (r Row) PerAccelerator() (model.Money, bool) {
	if !r.HasPrice() {
		return model.Money{}, false
	}
	if r.AcceleratorHourly != nil {
		return *r.AcceleratorHourly, true
	}
	t, ok := model.LookupType(r.InstanceType)
	if !ok || t.Accelerators == 0 {
		return model.Money{}, false
	}
	return r.Hourly.Div(int64(t.Accelerators)), true
}

// Describe says in words what the row holds, for tables: "$55.040/h", "no on-demand price",
// "no figure known".
func (r Row) Describe() string {
	switch r.Status {
	case StatusPrice:
		return r.Hourly.Rate() + "/h"
	case StatusNone:
		if r.Kind == KindOnDemand {
			return "no on-demand price"
		}
		return "not sold"
	}
	return "no figure known"
}

//go:embed catalog.csv
var catalogCSV string

// Catalog is a set of rows, with the lookups that pick the best figure among them.
type Catalog struct{ rows []Row }

var embedded = sync.OnceValue(func() []Row { return mustParseCSV(catalogCSV) })

// Embedded returns the catalog compiled into the binary.
func Embedded() *Catalog { return &Catalog{rows: append([]Row(nil), embedded()...)} }

// NewCatalog builds a catalog from rows (tests, the cache overlay).
func NewCatalog(rows ...Row) *Catalog { return &Catalog{rows: append([]Row(nil), rows...)} }

// With returns a new catalog holding c's rows and then more.
func (c *Catalog) With(more ...Row) *Catalog {
	out := &Catalog{rows: append([]Row(nil), c.Rows()...)}
	out.rows = append(out.rows, more...)
	return out
}

// Rows returns every row, in catalog order.
func (c *Catalog) Rows() []Row {
	if c == nil {
		return nil
	}
	return append([]Row(nil), c.rows...)
}

// OnDemand returns the best on-demand row for a type in a region: a price if any source has
// one (Price List API figures first, then the newest), else the row saying there is none or
// that none is known. ok is false only when the catalog has no row at all.
//
// An ml.* type is SageMaker's: it is answered from SageMaker's rates only, never EC2's.
func (c *Catalog) OnDemand(instanceType, region string) (Row, bool) {
	if sageMakerType(instanceType) {
		return c.best(KindSageMakerOnDemand, instanceType, region)
	}
	return c.best(KindOnDemand, instanceType, region)
}

// OnDemandFor is the on-demand row of the service that sells a source's reservations, for
// a type named either way: EC2's rate for Capacity Blocks, SageMaker's (ml.*) for training
// plans. A break-even is only honest against the same service's rate. ok is false when
// the source does not sell the type or the catalog has no row.
func (c *Catalog) OnDemandFor(src model.Source, instanceType, region string) (Row, bool) {
	name, err := src.TypeIn(instanceType)
	if err != nil {
		return Row{}, false
	}
	return c.OnDemand(name, region)
}

// CapacityBlockRate returns the best published Capacity Block effective rate for a type in a
// region (the newest; a region's own figure wins a tie with a region-less one).
func (c *Catalog) CapacityBlockRate(instanceType, region string) (Row, bool) {
	r, ok := c.best(KindCapacityBlock, instanceType, region)
	return r, ok && r.HasPrice()
}

// SavingsPlans returns the known 1-year and 3-year Savings Plans rates, in that order; a
// plan without a known figure is left out.
func (c *Catalog) SavingsPlans(instanceType, region string) []Row {
	var out []Row
	for _, k := range []Kind{KindSavingsPlan1y, KindSavingsPlan3y} {
		if r, ok := c.best(k, instanceType, region); ok && r.HasPrice() {
			out = append(out, r)
		}
	}
	return out
}

func (c *Catalog) best(kind Kind, instanceType, region string) (Row, bool) {
	if c == nil {
		return Row{}, false
	}
	var best Row
	found := false
	for _, r := range c.rows {
		// A row of one service never answers for the other's type names, however it got
		// into the catalog.
		if r.Kind == kind && r.InstanceType == instanceType && (r.Region == region || r.Region == AnyRegion) &&
			sageMakerType(r.InstanceType) == (r.Kind.Service() == "SageMaker") {
			if !found || better(r, best) {
				best, found = r, true
			}
		}
	}
	return best, found
}

// better orders candidate rows: a figure beats no figure; the Price List API beats quoted
// figures; confirmed beats unconfirmed; newer beats older; "none" beats "unknown"; a region's own row beats a region-less one.
func better(a, b Row) bool {
	if a.HasPrice() != b.HasPrice() {
		return a.HasPrice()
	}
	if api := a.Source == SourcePriceListAPI; api != (b.Source == SourcePriceListAPI) {
		return api
	}
	// An unconfirmed figure (e.g. one derived from a published one) never wins over a
	// confirmed one, however new.
	if ua, ub := a.Reliability == ReliabilityUnconfirmed, b.Reliability == ReliabilityUnconfirmed; ua != ub {
		return ub
	}
	if ta, tb := a.Time(), b.Time(); !ta.Equal(tb) {
		return ta.After(tb)
	}
	if a.Status != b.Status {
		return a.Status == StatusNone
	}
	return a.Region != AnyRegion && b.Region == AnyRegion
}

var csvHeader = []string{"kind", "instance_type", "region", "status", "usd_per_hour", "usd_per_accelerator_hour", "source", "date", "date_note", "reliability", "note"}

func mustParseCSV(s string) []Row {
	rows, err := ParseCSV(strings.NewReader(s))
	if err != nil {
		panic("pricing: embedded catalog.csv: " + err.Error())
	}
	return rows
}

// ParseCSV reads rows in the catalog.csv format (a header line, # comments).
func ParseCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = len(csvHeader)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(csvHeader, ",") {
		return nil, fmt.Errorf("want header %s", strings.Join(csvHeader, ","))
	}
	var rows []Row
	for i, rec := range recs[1:] {
		row, err := rowFromRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func rowFromRecord(f []string) (Row, error) {
	r := Row{Kind: Kind(f[0]), InstanceType: f[1], Region: f[2], Status: Status(f[3]),
		Source: f[6], Date: f[7], DateNote: f[8], Reliability: f[9], Note: f[10]}
	switch r.Kind {
	case KindOnDemand, KindCapacityBlock, KindSavingsPlan1y, KindSavingsPlan3y, KindSageMakerOnDemand:
	default:
		return Row{}, fmt.Errorf("unknown kind %q", f[0])
	}
	if sm := r.Kind.Service() == "SageMaker"; sm != sageMakerType(r.InstanceType) {
		if sm {
			return Row{}, fmt.Errorf("kind %s prices SageMaker's ml.* types, not %q", r.Kind, r.InstanceType)
		}
		return Row{}, fmt.Errorf("kind %s prices EC2's types; %q is SageMaker's (use %s)", r.Kind, r.InstanceType, KindSageMakerOnDemand)
	}
	if r.InstanceType == "" || r.Region == "" || r.Source == "" || r.Date == "" {
		return Row{}, fmt.Errorf("instance_type, region, source and date are required")
	}
	if r.Time().IsZero() {
		return Row{}, fmt.Errorf("date %q: want YYYY-MM-DD, YYYY-MM or YYYY", r.Date)
	}
	switch r.Status {
	case StatusPrice:
		m, err := model.ParseMoney(f[4])
		if err != nil || m.Micros() <= 0 {
			return Row{}, fmt.Errorf("usd_per_hour %q: want a positive amount", f[4])
		}
		r.Hourly = m
		if f[5] != "" {
			a, err := model.ParseMoney(f[5])
			if err != nil || a.Micros() <= 0 {
				return Row{}, fmt.Errorf("usd_per_accelerator_hour %q: want a positive amount", f[5])
			}
			r.AcceleratorHourly = &a
		}
	case StatusNone, StatusUnknown:
		if f[4] != "" || f[5] != "" {
			return Row{}, fmt.Errorf("status %s must not carry a price", r.Status)
		}
	default:
		return Row{}, fmt.Errorf("unknown status %q", f[3])
	}
	switch r.Reliability {
	case "", ReliabilityOfficial, ReliabilityThirdParty, ReliabilityUnconfirmed:
	default:
		return Row{}, fmt.Errorf("unknown reliability %q", r.Reliability)
	}
	return r, nil
}

// Record is the row in catalog.csv's column order (for `gpublock prices -o csv`).
func (r Row) Record() []string {
	price, acc := "", ""
	if r.HasPrice() {
		price = r.Hourly.String()
		if r.AcceleratorHourly != nil {
			acc = r.AcceleratorHourly.String()
		}
	}
	return []string{string(r.Kind), r.InstanceType, r.Region, string(r.Status), price, acc,
		r.Source, r.Date, r.DateNote, r.Reliability, r.Note}
}

// CSVHeader is the header line of the catalog.csv format.
func CSVHeader() []string { return append([]string(nil), csvHeader...) }
