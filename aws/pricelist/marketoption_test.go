package pricelist

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// productDocument is a Price List document of p5.48xlarge in us-east-1 of the given market
// option, at usd an hour, in the aws_v1 shape.
func productDocument(marketOption, usd string) string {
	attrs := map[string]string{"instanceType": "p5.48xlarge", "regionCode": "us-east-1", "locationType": "AWS Region",
		"operatingSystem": "Linux", "tenancy": "Shared", "preInstalledSw": "NA", "capacitystatus": "Used", "marketoption": marketOption}
	doc := map[string]any{
		"product": map[string]any{"productFamily": "Compute Instance", "attributes": attrs},
		"terms": map[string]any{"OnDemand": map[string]any{"SKU.JRTCKXETXF": map[string]any{
			"priceDimensions": map[string]any{"SKU.JRTCKXETXF.6YS6EN2CT7": map[string]any{
				"unit": "Hrs", "beginRange": "0", "endRange": "Inf", "pricePerUnit": map[string]string{"USD": usd}}}}}},
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

// An endpoint that ignores the marketoption filter and answers a Capacity Block product
// first: the client asks for on-demand products only and still takes no Capacity Block
// rate for an on-demand one.
func TestFetchTakesNoCapacityBlockProduct(t *testing.T) {
	srv, rec := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		body, _ := json.Marshal(map[string]any{"FormatVersion": "aws_v1", "PriceList": []string{
			productDocument("CapacityBlock", "31.4640000000"), productDocument("OnDemand", "55.0400000000")}})
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		fmt.Fprint(w, string(body))
	}))
	res, err := Fetch(context.Background(), client(srv.URL), []string{"p5.48xlarge"}, []string{"us-east-1"}, time.Now(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.bodies) == 0 || !strings.Contains(rec.bodies[0], `{"Field":"marketoption","Type":"TERM_MATCH","Value":"OnDemand"}`) {
		t.Errorf("the request does not ask for on-demand products only: %q", rec.bodies)
	}
	if len(res.Rows) != 1 || res.Rows[0].Hourly != model.MustMoney("55.04") {
		t.Fatalf("rows %+v, want the on-demand $55.04 only", res.Rows)
	}
}
