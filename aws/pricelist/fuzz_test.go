package pricelist

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// What the Price List API returns is outside input: no document may panic the parser, and
// whatever it accepts is a sane rate.
func FuzzParseProduct(f *testing.F) {
	f.Add(`{"product":{"attributes":{"instanceType":"p5.48xlarge","regionCode":"us-east-1"}},"terms":{"OnDemand":{"A":{"priceDimensions":{"B":{"unit":"Hrs","beginRange":"0","pricePerUnit":{"USD":"55.0400000000"}}}}}}}`)
	f.Add(`{"terms":{"OnDemand":{"A":{"priceDimensions":{"B":{"unit":"Hrs","pricePerUnit":{"USD":"1e9"}}}}}}}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := ParseProduct(doc)
		if err == nil && p.Price.Micros() < 0 && !strings.Contains(doc, "-") {
			t.Fatalf("negative price %v from %q", p.Price, doc)
		}
	})
}

// The emulator's handler answers any body with 200 or 400, never a panic or a 5xx.
func FuzzPriceListHandler(f *testing.F) {
	h := ec2sim.NewPriceListHandler()
	f.Add(`{"ServiceCode":"AmazonEC2","Filters":[{"Type":"TERM_MATCH","Field":"instanceType","Value":"p5.48xlarge"}]}`)
	f.Add(`{"ServiceCode":"AmazonEC2","NextToken":"MS5hYmM","MaxResults":1}`)
	f.Add(`{"ServiceCode":null,"Filters":[{}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "AWSPriceListService.GetProducts")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 && rec.Code != 400 {
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
