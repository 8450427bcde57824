// Package pricelistsim is the emulator's AWS Price List API: GetProducts, as the real SDK
// speaks it (JSON 1.1), enough for `gpublock prices --refresh` to be tested and
// demonstrated against the emulator. It serves the on-demand figures of a
// pricing.Catalog, so the emulator and the embedded catalog agree, and beside them, as
// AWS's Price List does, Capacity Block products (attribute marketoption CapacityBlock;
// the on-demand ones have OnDemand) at the catalog's published Capacity Block rates, so
// that a client that does not filter by marketoption is shown to be wrong. It keeps no
// state and takes no faults.
package pricelistsim

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// TargetPrefix is the X-Amz-Target prefix of the Price List API's JSON 1.1 protocol.
const TargetPrefix = "AWSPriceListService."

// Protocol is the registration that makes the emulator answer the Price List API with h
// (New or NewFrom); with h nil it answers that it has none, so that a client pointed at
// an emulator without prices learns it in the API's own error shape.
func Protocol(h http.Handler) simcore.Protocol {
	if h == nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"__type":"UnknownOperationException","message":"this emulator has no Price List API"}`)
		})
	}
	return simcore.Protocol{
		Name:         "pricelist",
		TargetPrefix: TargetPrefix,
		SigningName:  "pricing",
		Mount:        func(*simcore.Core) simcore.Handler { return stateless{Handler: h} },
	}
}

type stateless struct {
	http.Handler
	simcore.Stateless
}

// New serves GetProducts from the embedded price catalog.
func New() http.Handler { return NewFrom(pricing.Embedded()) }

// NewFrom serves GetProducts with the on-demand prices of cat: for every
// instance type and region with a known price, the Linux, shared-tenancy product, plus
// stand-ins that differ in one filtered attribute (Windows, Dedicated, SQL Server, an unused
// reservation) at twice the price, so a client that forgets a filter gets a visibly wrong figure.
func NewFrom(cat *pricing.Catalog) http.Handler {
	return &plHandler{products: plProducts(cat)}
}

type plHandler struct{ products []plProduct }

type plProduct struct {
	attrs map[string]string
	doc   string // the PriceList entry: a JSON document as a string
}

const plMaxPage = 100

type plFilter struct {
	Type  string
	Field string
	Value string
}

type plRequest struct {
	ServiceCode   *string
	Filters       []plFilter
	FormatVersion *string
	MaxResults    *int
	NextToken     *string
}

func (h *plHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const prefix = TargetPrefix
	target := r.Header.Get("X-Amz-Target")
	if r.Method != http.MethodPost {
		plError(w, http.StatusBadRequest, "InvalidParameterException", "use POST / with a JSON body")
		return
	}
	if target != prefix+"GetProducts" {
		plError(w, http.StatusBadRequest, "UnknownOperationException",
			fmt.Sprintf("operation %q is not served by this emulator (only GetProducts)", strings.TrimPrefix(target, prefix)))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		plError(w, http.StatusBadRequest, "SerializationException", "request body too large")
		return
	}
	var req plRequest
	if err := json.Unmarshal(body, &req); err != nil {
		// Named by member and JSON type, never by the emulator's Go types.
		msg := "request body is not valid JSON"
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			msg = fmt.Sprintf("member %s of the GetProducts input has the wrong type (a JSON %s)", te.Field, te.Value)
			if te.Field == "" {
				msg = fmt.Sprintf("the GetProducts input must be a JSON object, not a JSON %s", te.Value)
			}
		}
		plError(w, http.StatusBadRequest, "SerializationException", msg)
		return
	}
	if req.ServiceCode == nil || *req.ServiceCode == "" {
		plError(w, http.StatusBadRequest, "InvalidParameterException", "ServiceCode is required")
		return
	}
	if req.FormatVersion != nil && *req.FormatVersion != "aws_v1" {
		plError(w, http.StatusBadRequest, "InvalidParameterException", fmt.Sprintf("FormatVersion %q is not supported; use aws_v1", *req.FormatVersion))
		return
	}
	size := plMaxPage
	if req.MaxResults != nil {
		if *req.MaxResults < 1 || *req.MaxResults > plMaxPage {
			plError(w, http.StatusBadRequest, "InvalidParameterException", fmt.Sprintf("MaxResults must be between 1 and %d", plMaxPage))
			return
		}
		size = *req.MaxResults
	}
	for _, f := range req.Filters {
		switch f.Type {
		case "TERM_MATCH", "EQUALS", "CONTAINS", "ANY_OF", "NONE_OF":
		default:
			plError(w, http.StatusBadRequest, "InvalidParameterException", fmt.Sprintf("filter type %q: use TERM_MATCH, EQUALS, CONTAINS, ANY_OF or NONE_OF", f.Type))
			return
		}
		if f.Field == "" {
			plError(w, http.StatusBadRequest, "InvalidParameterException", "every filter needs a Field")
			return
		}
	}
	var matched []string
	for _, p := range h.products {
		if p.attrs["servicecode"] == *req.ServiceCode && plMatches(p.attrs, req.Filters) {
			matched = append(matched, p.doc)
		}
	}
	sig := plQuerySig(*req.ServiceCode, req.Filters)
	start := 0
	if req.NextToken != nil && *req.NextToken != "" {
		n, ok := plParseToken(*req.NextToken, sig)
		if !ok || n > len(matched) {
			plError(w, http.StatusBadRequest, "InvalidNextTokenException", "the NextToken is not valid for this query")
			return
		}
		start = n
	}
	end := min(start+size, len(matched))
	out := struct {
		FormatVersion string
		PriceList     []string
		NextToken     string `json:",omitempty"`
	}{FormatVersion: "aws_v1", PriceList: append([]string{}, matched[start:end]...)}
	if end < len(matched) {
		out.NextToken = plToken(end, sig)
	}
	plSend(w, http.StatusOK, out)
}

func plError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("X-Amzn-ErrorType", code)
	plSend(w, status, map[string]string{"__type": code, "message": msg})
}

// plSend writes a JSON body whole, with its length, as AWS does (not chunked).
func plSend(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"__type":"InternalServerException","message":"the emulator could not encode its answer"}`)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// plMatches applies the filters as the Price List API does: field names and values compare
// without regard to case; ANY_OF and NONE_OF take comma-separated values.
func plMatches(attrs map[string]string, fs []plFilter) bool {
	for _, f := range fs {
		v, has := attrs[strings.ToLower(f.Field)]
		v = strings.ToLower(v)
		want := strings.ToLower(f.Value)
		var ok bool
		switch f.Type {
		case "TERM_MATCH", "EQUALS":
			ok = has && v == want
		case "CONTAINS":
			ok = has && strings.Contains(v, want)
		case "ANY_OF", "NONE_OF":
			for _, w := range strings.Split(want, ",") {
				if has && v == strings.TrimSpace(w) {
					ok = true
				}
			}
			if f.Type == "NONE_OF" {
				ok = !ok
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func plQuerySig(service string, fs []plFilter) string {
	h := fnv.New32a()
	io.WriteString(h, service)
	for _, f := range fs {
		fmt.Fprintf(h, "|%s|%s|%s", f.Type, strings.ToLower(f.Field), strings.ToLower(f.Value))
	}
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

func plToken(offset int, sig string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + "." + sig))
}

func plParseToken(tok, sig string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, false
	}
	n, s, ok := strings.Cut(string(b), ".")
	if !ok || s != sig {
		return 0, false
	}
	off, err := strconv.Atoi(n)
	return off, err == nil && off > 0
}

// plLocations are the Price List API's location names of the regions gpublock meets.
var plLocations = map[string]string{
	"us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
	"us-west-1": "US West (N. California)", "us-west-2": "US West (Oregon)",
	"eu-north-1": "EU (Stockholm)", "eu-west-2": "EU (London)",
	"ap-northeast-1": "Asia Pacific (Tokyo)", "ap-south-1": "Asia Pacific (Mumbai)",
	"ap-southeast-2": "Asia Pacific (Sydney)", "ap-southeast-4": "Asia Pacific (Melbourne)",
}

func plProducts(cat *pricing.Catalog) []plProduct {
	seen := map[[2]string]bool{}
	var keys [][2]string
	for _, r := range cat.Rows() {
		k := [2]string{r.InstanceType, r.Region}
		if r.Kind != pricing.KindOnDemand || r.Region == pricing.AnyRegion || seen[k] {
			continue
		}
		if t, ok := model.LookupType(r.InstanceType); ok && t.UltraServer {
			continue // not an EC2 instance type: the Price List prices its member type
		}
		seen[k] = true
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	var out []plProduct
	for _, k := range keys {
		row, ok := cat.OnDemand(k[0], k[1])
		if !ok || !row.HasPrice() {
			continue
		}
		base := map[string]string{
			"servicecode": "AmazonEC2", "instancetype": k[0], "regioncode": k[1],
			"location": plLocations[k[1]], "locationtype": "AWS Region",
			"operatingsystem": "Linux", "tenancy": "Shared", "preinstalledsw": "NA",
			"capacitystatus": "Used", "licensemodel": "No License required", "usagetype": "BoxUsage:" + k[0],
			"marketoption": "OnDemand",
		}
		if base["location"] == "" {
			base["location"] = k[1]
		}
		// stand-ins first, so that a client relying on the order rather than its filters fails
		for _, d := range [][2]string{{"operatingsystem", "Windows"}, {"tenancy", "Dedicated"},
			{"preinstalledsw", "SQL Std"}, {"capacitystatus", "UnusedCapacityReservation"}} {
			attrs := plClone(base)
			attrs[d[0]] = d[1]
			out = append(out, plProduct{attrs, plDoc(attrs, row.Hourly.Mul(2), row.Date)})
		}
		// The Capacity Block product of the same type, region, system and tenancy: it differs
		// only in marketoption (and its usage type, whose exact form on AWS is unconfirmed).
		if cb, ok := cat.CapacityBlockRate(k[0], k[1]); ok && cb.HasPrice() {
			attrs := plClone(base)
			attrs["marketoption"], attrs["usagetype"] = "CapacityBlock", "CapacityBlock:"+k[0]
			out = append(out, plProduct{attrs, plDoc(attrs, cb.Hourly, cb.Date)})
		}
		out = append(out, plProduct{base, plDoc(base, row.Hourly, row.Date)})
	}
	return out
}

func plClone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// plAttrNames restores the Price List API's spelling of the attribute names.
var plAttrNames = map[string]string{
	"servicecode": "servicecode", "instancetype": "instanceType", "regioncode": "regionCode",
	"location": "location", "locationtype": "locationType", "operatingsystem": "operatingSystem",
	"tenancy": "tenancy", "preinstalledsw": "preInstalledSw", "capacitystatus": "capacitystatus",
	"licensemodel": "licenseModel", "usagetype": "usagetype", "marketoption": "marketoption",
}

// plDoc writes a product document in the shape of the real API's aws_v1 format.
func plDoc(attrs map[string]string, price model.Money, date string) string {
	named := map[string]string{}
	for k, v := range attrs {
		named[plAttrNames[k]] = v
	}
	sku := plSKU(attrs)
	const offer, rate = "JRTCKXETXF", "6YS6EN2CT7"
	effective := date
	if len(effective) == len("2006-01-02") {
		effective += "T00:00:00Z"
	}
	// the real API gives ten decimals: "55.0400000000"
	usd := fmt.Sprintf("%d.%06d0000", price.Micros()/1_000_000, price.Micros()%1_000_000)
	doc := map[string]any{
		"product": map[string]any{
			"productFamily": "Compute Instance",
			"attributes":    named,
			"sku":           sku,
		},
		"serviceCode": "AmazonEC2",
		"terms": map[string]any{
			"OnDemand": map[string]any{
				sku + "." + offer: map[string]any{
					"priceDimensions": map[string]any{
						sku + "." + offer + "." + rate: map[string]any{
							"unit": "Hrs", "endRange": "Inf", "beginRange": "0", "appliesTo": []string{},
							"rateCode":     sku + "." + offer + "." + rate,
							"description":  fmt.Sprintf("%s per %s %s %s Instance Hour", price.Rate(), marketWords[attrs["marketoption"]], attrs["operatingsystem"], attrs["instancetype"]),
							"pricePerUnit": map[string]string{"USD": usd},
						},
					},
					"sku": sku, "effectiveDate": effective, "offerTermCode": offer, "termAttributes": map[string]string{},
				},
			},
		},
		"version":         "20261129000000",
		"publicationDate": effective,
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

var marketWords = map[string]string{"OnDemand": "On Demand", "CapacityBlock": "Capacity Block"}

func plSKU(attrs map[string]string) string {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := fnv.New64a()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s;", k, attrs[k])
	}
	return fmt.Sprintf("%016X", h.Sum64())
}
