package pricelistsim_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/pricing"
	"github.com/aws/aws-sdk-go-v2/service/pricing/types"

	"github.com/gpublock/gpublock/aws/pricelistsim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
	ourpricing "github.com/gpublock/gpublock/pricing"
)

// The Price List holds Capacity Block products beside on-demand ones, as AWS's does: a
// query without marketoption gets both, the Capacity Block's first; with marketoption
// OnDemand, only the on-demand one, at the catalog's on-demand rate.
func TestCapacityBlockProductsBesideOnDemand(t *testing.T) {
	c, err := simcore.New(simcore.Options{}, pricelistsim.Protocol(pricelistsim.New()))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(c)
	t.Cleanup(ts.Close)
	cli := pricing.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")},
		func(o *pricing.Options) { o.BaseEndpoint = aws.String(ts.URL); o.RetryMaxAttempts = 1 })
	term := func(f, v string) types.Filter {
		return types.Filter{Type: types.FilterTypeTermMatch, Field: aws.String(f), Value: aws.String(v)}
	}
	base := []types.Filter{term("instanceType", "p5.48xlarge"), term("regionCode", "us-east-1"), term("operatingSystem", "Linux"),
		term("tenancy", "Shared"), term("preInstalledSw", "NA"), term("capacitystatus", "Used")}
	get := func(fs ...types.Filter) []map[string]any {
		t.Helper()
		out, err := cli.GetProducts(context.Background(), &pricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), Filters: fs})
		if err != nil {
			t.Fatal(err)
		}
		var docs []map[string]any
		for _, p := range out.PriceList {
			var d map[string]any
			if err := json.Unmarshal([]byte(p), &d); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, d)
		}
		return docs
	}
	market := func(d map[string]any) string {
		return d["product"].(map[string]any)["attributes"].(map[string]any)["marketoption"].(string)
	}
	both := get(base...)
	if len(both) != 2 || market(both[0]) != "CapacityBlock" || market(both[1]) != "OnDemand" {
		t.Fatalf("without marketoption: %d products", len(both))
	}
	od := get(append(base, term("marketoption", "OnDemand"))...)
	if len(od) != 1 || market(od[0]) != "OnDemand" {
		t.Fatalf("marketoption OnDemand: %d products", len(od))
	}
	cb := get(append(base, term("marketoption", "CapacityBlock"))...)
	if len(cb) != 1 || market(cb[0]) != "CapacityBlock" {
		t.Fatalf("marketoption CapacityBlock: %d products", len(cb))
	}
	// Each at its own catalog rate.
	price := func(d map[string]any) string {
		for _, term := range d["terms"].(map[string]any)["OnDemand"].(map[string]any) {
			for _, dim := range term.(map[string]any)["priceDimensions"].(map[string]any) {
				return dim.(map[string]any)["pricePerUnit"].(map[string]any)["USD"].(string)
			}
		}
		return ""
	}
	cat := ourpricing.Embedded()
	odRow, _ := cat.OnDemand("p5.48xlarge", "us-east-1")
	cbRow, _ := cat.CapacityBlockRate("p5.48xlarge", "us-east-1")
	for _, tc := range []struct {
		doc  map[string]any
		want model.Money
	}{{od[0], odRow.Hourly}, {cb[0], cbRow.Hourly}} {
		got, err := model.ParseMoney(strings.TrimRight(price(tc.doc), "0")) // the API's ten decimals
		if err != nil || got.Cmp(tc.want) != 0 || tc.want.IsZero() {
			t.Errorf("%s price %s (%v), want %s", market(tc.doc), price(tc.doc), err, tc.want)
		}
	}
}
