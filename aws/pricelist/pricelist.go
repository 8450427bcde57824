// Package pricelist fetches current on-demand prices from the AWS Price List API
// (GetProducts) for `gpublock prices --refresh`, as rows of the pricing catalog: pricing
// itself imports no SDK.
package pricelist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	awspricing "github.com/aws/aws-sdk-go-v2/service/pricing"
	"github.com/aws/aws-sdk-go-v2/service/pricing/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/gpublock/gpublock/aws/sdkhttp"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// API is the part of the Price List client that Fetch uses.
type API interface {
	GetProducts(ctx context.Context, in *awspricing.GetProductsInput, opts ...func(*awspricing.Options)) (*awspricing.GetProductsOutput, error)
}

// ServiceRegions are the only regions that serve the Price List API.
var ServiceRegions = []string{"us-east-1", "ap-south-1"}

// NewClient builds a Price List client from the default AWS configuration (environment,
// shared files, the profile if given). The API is served only from us-east-1 and ap-south-1,
// so any other configured region is replaced by us-east-1. A non-empty endpoint (the
// emulator, a proxy) replaces AWS's. apiOptions are added to the client's middleware stack
// (aws.CallLog's, for --log-file).
func NewClient(ctx context.Context, profile, endpoint string, apiOptions ...func(*middleware.Stack) error) (*awspricing.Client, error) {
	var opts []func(*config.LoadOptions) error
	if profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(profile))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, err
	}
	cfg.HTTPClient = sdkhttp.PlainBodies(cfg.HTTPClient)
	region := "us-east-1"
	for _, r := range ServiceRegions {
		if cfg.Region == r {
			region = r
		}
	}
	return awspricing.NewFromConfig(cfg, func(o *awspricing.Options) {
		o.Region = region
		o.APIOptions = append(slices.Clip(o.APIOptions), apiOptions...)
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

// Result is what a fetch found.
type Result struct {
	Rows    []pricing.Row // on-demand rows, source pricing.SourcePriceListAPI
	Missing []string      // "type in region" pairs asked for that the API had no price for
	Calls   int           // GetProducts requests made
}

// Fetch asks for the Linux, shared-tenancy on-demand price of each instance type (an
// UltraServer through its member type, times its member count) and returns one row per type
// and region found. With regions empty, every region the API returns is kept; otherwise only
// those. note is stored with each row (e.g. the endpoint when it is not AWS's).
func Fetch(ctx context.Context, api API, instanceTypes, regions []string, now time.Time, note string) (Result, error) {
	var res Result
	want := map[string]bool{}
	for _, r := range regions {
		want[r] = true
	}
	date := now.UTC().Format(time.RFC3339)
	found := map[string]bool{}
	queried := map[string]bool{}
	memo := map[string]map[string]model.Money{} // UltraServers of one member type ask once
	for _, name := range instanceTypes {
		query, mult := name, int64(1)
		if t, ok := model.LookupType(name); ok && t.UltraServer {
			query, mult = t.MemberType, int64(t.Instances)
		}
		prices, ok := memo[query]
		if !ok {
			var calls int
			var err error
			prices, calls, err = fetchType(ctx, api, query)
			res.Calls += calls
			if err != nil {
				return res, fmt.Errorf("Price List API, %s: %w", query, err)
			}
			memo[query] = prices
		}
		regionsFound := make([]string, 0, len(prices))
		for r := range prices {
			regionsFound = append(regionsFound, r)
		}
		sort.Strings(regionsFound)
		for _, region := range regionsFound {
			if len(want) > 0 && !want[region] {
				continue
			}
			p := prices[region]
			if query != name && !queried[query+" "+region] {
				res.Rows = append(res.Rows, row(query, region, p, date, note))
			}
			rowNote := note
			if query != name {
				rowNote = join(fmt.Sprintf("%d × %s at %s/h", mult, query, p.Rate()), note)
			}
			res.Rows = append(res.Rows, row(name, region, p.Mul(mult), date, rowNote))
			found[name+" "+region] = true
			queried[query+" "+region] = true
		}
	}
	for _, name := range instanceTypes {
		asked := regions
		if len(asked) == 0 {
			if t, ok := model.LookupType(name); ok {
				asked = t.Regions
			}
		}
		for _, r := range asked {
			if t, ok := model.LookupType(name); ok && !t.Sells(r) {
				continue
			}
			if !found[name+" "+r] {
				res.Missing = append(res.Missing, name+" in "+r)
			}
		}
	}
	return res, nil
}

func row(name, region string, p model.Money, date, note string) pricing.Row {
	return pricing.Row{Kind: pricing.KindOnDemand, InstanceType: name, Region: region, Status: pricing.StatusPrice,
		Hourly: p, Source: pricing.SourcePriceListAPI, Date: date, DateNote: "fetched",
		Reliability: pricing.ReliabilityOfficial, Note: note}
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

func filter(field, value string) types.Filter {
	return types.Filter{Type: types.FilterTypeTermMatch, Field: aws.String(field), Value: aws.String(value)}
}

// fetchType returns the price per region of one instance type.
func fetchType(ctx context.Context, api API, instanceType string) (map[string]model.Money, int, error) {
	in := &awspricing.GetProductsInput{
		ServiceCode:   aws.String("AmazonEC2"),
		FormatVersion: aws.String("aws_v1"),
		MaxResults:    aws.Int32(100),
		Filters: []types.Filter{
			filter("instanceType", instanceType),
			filter("operatingSystem", "Linux"),
			filter("tenancy", "Shared"),
			filter("preInstalledSw", "NA"),
			filter("capacitystatus", "Used"),
			// The Price List holds Capacity Block products beside on-demand ones.
			filter("marketoption", "OnDemand"),
		},
	}
	out := map[string]model.Money{}
	regular := map[string]bool{} // the region's price came from an "AWS Region" product
	calls := 0
	pages := awspricing.NewGetProductsPaginator(api, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		calls++
		if err != nil {
			return nil, calls, err
		}
		for _, doc := range page.PriceList {
			p, err := ParseProduct(doc)
			if err != nil {
				return nil, calls, err
			}
			if p.InstanceType != instanceType || p.Region == "" || p.Price.Micros() <= 0 || !p.OnDemand() {
				continue // a product the filters should have excluded, or a free placeholder
			}
			// Local Zones and Wavelength share their parent's region code; the region's own
			// product wins.
			isRegion := p.LocationType == "" || p.LocationType == "AWS Region"
			if _, seen := out[p.Region]; !seen || (isRegion && !regular[p.Region]) {
				out[p.Region] = p.Price
				regular[p.Region] = isRegion
			}
		}
	}
	return out, calls, nil
}

// Product is what gpublock reads from one PriceList document.
type Product struct {
	InstanceType, Region, Location, LocationType, OperatingSystem, Tenancy string
	MarketOption                                                           string      // "OnDemand", "CapacityBlock"; "" in documents that predate it
	Price                                                                  model.Money // USD per hour
}

// OnDemand reports whether the product is an on-demand one: a Capacity Block product's
// rate is never taken for an on-demand price, even from an endpoint that ignored the
// marketoption filter.
func (p Product) OnDemand() bool {
	return p.MarketOption == "" || strings.EqualFold(p.MarketOption, "OnDemand")
}

type productDoc struct {
	Product struct {
		Attributes map[string]string `json:"attributes"`
	} `json:"product"`
	Terms struct {
		OnDemand map[string]struct {
			PriceDimensions map[string]struct {
				Unit         string            `json:"unit"`
				BeginRange   string            `json:"beginRange"`
				PricePerUnit map[string]string `json:"pricePerUnit"`
			} `json:"priceDimensions"`
		} `json:"OnDemand"`
	} `json:"terms"`
}

// ParseProduct reads a PriceList entry (a JSON document in a string): its attributes and
// its hourly on-demand USD price.
func ParseProduct(doc string) (Product, error) {
	var d productDoc
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		return Product{}, fmt.Errorf("price list document: %v", err)
	}
	a := d.Product.Attributes
	p := Product{InstanceType: a["instanceType"], Region: a["regionCode"], Location: a["location"],
		LocationType: a["locationType"], OperatingSystem: a["operatingSystem"], Tenancy: a["tenancy"], MarketOption: a["marketoption"]}
	var usd []string
	for _, term := range d.Terms.OnDemand {
		for _, dim := range term.PriceDimensions {
			if dim.Unit == "Hrs" && (dim.BeginRange == "" || dim.BeginRange == "0") {
				if v, ok := dim.PricePerUnit["USD"]; ok {
					usd = append(usd, v)
				}
			}
		}
	}
	if len(usd) == 0 {
		return p, nil // no hourly on-demand term: no price
	}
	sort.Strings(usd)
	if usd[0] != usd[len(usd)-1] {
		return Product{}, fmt.Errorf("price list document for %s in %s has %d different hourly prices", p.InstanceType, p.Region, len(usd))
	}
	m, err := ParseRate(usd[0])
	if err != nil {
		return Product{}, err
	}
	p.Price = m
	return p, nil
}

// ParseRate reads a Price List USD amount such as "55.0400000000". The API gives ten
// decimals; model.Money keeps six, so zeros past the sixth are dropped and anything else
// there is rounded half up (a rate, never a total).
func ParseRate(s string) (model.Money, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 6 {
		extra := strings.TrimRight(frac[6:], "0")
		frac = frac[:6]
		m, err := model.ParseMoney(whole + "." + frac)
		if err != nil {
			return model.Money{}, fmt.Errorf("price %q: %v", s, err)
		}
		if extra != "" {
			if extra[0] < '0' || extra[0] > '9' || strings.Trim(extra, "0123456789") != "" {
				return model.Money{}, fmt.Errorf("price %q: not a decimal number", s)
			}
			if extra[0] >= '5' {
				m = m.Add(model.MoneyFromMicros(1))
			}
		}
		return m, nil
	}
	m, err := model.ParseMoney(s)
	if err != nil {
		return model.Money{}, fmt.Errorf("price %q: %v", s, err)
	}
	return m, nil
}

// ErrNoPrices is returned by callers when a refresh found nothing at all.
var ErrNoPrices = errors.New("the Price List API returned no price for any type asked for")
