package pricelist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awspricing "github.com/aws/aws-sdk-go-v2/service/pricing"
	"github.com/aws/aws-sdk-go-v2/service/pricing/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// testCatalog is the embedded catalog plus two figures made up for the test, so that the
// refresh visibly brings something new.
func testCatalog() *pricing.Catalog {
	return pricing.Embedded().With(
		pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p5en.48xlarge", Region: "eu-west-2", Status: pricing.StatusPrice,
			Hourly: model.MustMoney("61.234567"), Source: "test figure", Date: "2026-11-20"},
		pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p6e-gb200.36xlarge", Region: "us-east-1", Status: pricing.StatusPrice,
			Hourly: model.MustMoney("42.5"), Source: "test figure", Date: "2026-11-20"},
	)
}

type recorder struct {
	mu     sync.Mutex
	bodies []string
	bad    []string
}

func server(t *testing.T, h http.Handler) (*httptest.Server, *recorder) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, string(b))
		if r.Header.Get("X-Amz-Target") != "AWSPriceListService.GetProducts" || r.Header.Get("Content-Type") != "application/x-amz-json-1.1" ||
			!strings.Contains(r.Header.Get("Authorization"), "/us-east-1/pricing/aws4_request") {
			rec.bad = append(rec.bad, r.Header.Get("X-Amz-Target")+" "+r.Header.Get("Content-Type")+" "+r.Header.Get("Authorization"))
		}
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func client(url string) *awspricing.Client {
	// Three attempts, as the SDK makes by default: over loopback the JSON protocol's reply is
	// now and then cut by the SDK's transport (net.ErrClosed, aws-sdk-go-v2#2737), which the
	// SDK retries; the error answers tested here (4xx) are never retried.
	return awspricing.NewFromConfig(aws.Config{Region: "us-east-1", RetryMaxAttempts: 3,
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRET", "")},
		func(o *awspricing.Options) { o.BaseEndpoint = aws.String(url) })
}

// The refresh path end to end: the real SDK → the emulator's handler → rows → the cache file
// → a catalog that uses the new figure.
func TestRefreshThroughEmulator(t *testing.T) {
	srv, rec := server(t, ec2sim.NewPriceListHandlerFrom(testCatalog()))
	now := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	names := []string{"p5.48xlarge", "p5en.48xlarge", "trn2.48xlarge", "u-p6e-gb200x36", "u-p6e-gb200x72"}
	res, err := Fetch(context.Background(), client(srv.URL), names, nil, now, "via test")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.bad) > 0 {
		t.Errorf("requests not as the Price List API expects: %q", rec.bad)
	}
	for _, want := range []string{`"ServiceCode":"AmazonEC2"`, `"Field":"operatingSystem"`, `"Value":"Linux"`, `"Field":"tenancy"`,
		`"Value":"Shared"`, `"Field":"preInstalledSw"`, `"Value":"NA"`, `"Field":"capacitystatus"`, `"Value":"Used"`, `"Field":"marketoption"`, `"Value":"OnDemand"`, `"Type":"TERM_MATCH"`} {
		if !strings.Contains(rec.bodies[0], want) {
			t.Errorf("request %s lacks %s", rec.bodies[0], want)
		}
	}
	if res.Calls != 4 { // p6e-gb200.36xlarge is asked once for both UltraServers
		t.Errorf("%d calls, want 4", res.Calls)
	}
	got := map[string]pricing.Row{}
	for _, r := range res.Rows {
		got[r.InstanceType+" "+r.Region] = r
		if r.Source != pricing.SourcePriceListAPI || r.Date != "2026-11-29T20:00:00Z" || r.Kind != pricing.KindOnDemand || !r.HasPrice() {
			t.Errorf("row %+v", r)
		}
	}
	for key, want := range map[string]string{
		"p5en.48xlarge eu-west-2":      "61.234567",
		"p5.48xlarge ap-south-1":       "66.048",
		"p5.48xlarge us-east-1":        "55.04", // not the Windows or Dedicated stand-ins at twice the price
		"p5en.48xlarge us-west-2":      "63.296",
		"p6e-gb200.36xlarge us-east-1": "42.5",
		"u-p6e-gb200x36 us-east-1":     "382.5", // 9 × 42.5
		"u-p6e-gb200x72 us-east-1":     "765",   // 18 × 42.5
	} {
		if r, ok := got[key]; !ok || r.Hourly != model.MustMoney(want) {
			t.Errorf("%s = %+v, want %s", key, r, want)
		}
	}
	if n := len(res.Rows); n != 18 { // p5 ×8, p5en ×7, the member type, 2 UltraServers
		t.Errorf("%d rows, want 8: %+v", n, res.Rows)
	}
	if !strings.Contains(got["u-p6e-gb200x72 us-east-1"].Note, "18 × p6e-gb200.36xlarge") {
		t.Errorf("UltraServer note = %q", got["u-p6e-gb200x72 us-east-1"].Note)
	}
	if !contains(res.Missing, "trn2.48xlarge in us-west-2") || !contains(res.Missing, "trn2.48xlarge in us-east-2") || contains(res.Missing, "p5en.48xlarge in eu-west-2") {
		t.Errorf("missing = %q", res.Missing)
	}

	// before: no figure for p5en.48xlarge in eu-west-2
	o := model.Offering{Region: "eu-west-2", InstanceType: "p5en.48xlarge", Count: 1, DurationHours: 24, Fee: model.MustMoney("1000")}
	if c := pricing.Compare(pricing.Embedded(), o); !c.NoOnDemand {
		t.Fatalf("embedded catalog already has %v", c.OnDemandHourly)
	}
	path := filepath.Join(t.TempDir(), "gpublock", pricing.CacheFileName)
	if err := pricing.WriteCache(path, res.Rows, now, filelock.WriteAtomic); err != nil {
		t.Fatal(err)
	}
	cat, err := pricing.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c := pricing.Compare(cat, o)
	if c.NoOnDemand || c.OnDemandHourly != model.MustMoney("61.234567") || c.Source != pricing.SourcePriceListAPI || c.AsOf != "2026-11-29T20:00:00Z" {
		t.Errorf("after refresh: %+v", c)
	}
	if r, _ := cat.OnDemand("p6-b200.48xlarge", "eu-north-1"); r.Status != pricing.StatusNone {
		t.Errorf("refresh changed an unrelated row: %+v", r)
	}

	// a second, narrower refresh keeps what the first one cached
	res2, err := Fetch(context.Background(), client(srv.URL), []string{"p5.48xlarge"}, []string{"us-east-1"}, now.Add(time.Hour), "")
	if err != nil || len(res2.Rows) != 1 {
		t.Fatalf("narrow refresh: %+v, %v", res2, err)
	}
	if err := pricing.WriteCache(path, res2.Rows, now.Add(time.Hour), filelock.WriteAtomic); err != nil {
		t.Fatal(err)
	}
	cat, _ = pricing.Load(path)
	if r, _ := cat.OnDemand("p5en.48xlarge", "eu-west-2"); r.Hourly != model.MustMoney("61.234567") {
		t.Errorf("the narrow refresh lost p5en.48xlarge in eu-west-2: %+v", r)
	}
	if r, _ := cat.OnDemand("p5.48xlarge", "us-east-1"); r.Date != "2026-11-29T21:00:00Z" {
		t.Errorf("the narrow refresh did not replace us-east-1: %+v", r)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestHandlerPagesAndErrorsThroughSDK(t *testing.T) {
	srv, _ := server(t, ec2sim.NewPriceListHandler())
	cl := client(srv.URL)
	ctx := context.Background()
	// every product, one per page
	in := &awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), MaxResults: aws.Int32(1)}
	pages := awspricing.NewGetProductsPaginator(cl, in)
	seen := map[string]bool{}
	n := 0
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.PriceList) != 1 || aws.ToString(page.FormatVersion) != "aws_v1" {
			t.Fatalf("page %d: %d entries, format %q", n, len(page.PriceList), aws.ToString(page.FormatVersion))
		}
		seen[page.PriceList[0]] = true
		n++
	}
	// 32 priced type-region pairs in the embedded catalog, five on-demand products each
	// and one Capacity Block product
	if n != 192 || len(seen) != 192 {
		t.Errorf("%d pages, %d distinct products; want 192", n, len(seen))
	}
	capacityBlock := 0
	for doc := range seen {
		if p, _ := ParseProduct(doc); !p.OnDemand() {
			capacityBlock++
		}
	}
	if capacityBlock != 32 {
		t.Errorf("%d products not on-demand, want the 32 Capacity Block ones", capacityBlock)
	}
	for doc := range seen {
		p, err := ParseProduct(doc)
		if err != nil || p.InstanceType == "" || p.Region == "" || p.Price.Micros() <= 0 || p.Location == "" {
			t.Errorf("product %+v, %v from %s", p, err, doc)
		}
	}
	// another service has nothing
	out, err := cl.GetProducts(ctx, &awspricing.GetProductsInput{ServiceCode: aws.String("AmazonS3")})
	if err != nil || len(out.PriceList) != 0 {
		t.Errorf("AmazonS3: %v, %v", out, err)
	}
	for _, tc := range []struct {
		in   *awspricing.GetProductsInput
		code string
	}{
		{&awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), Filters: []types.Filter{{Type: "BOGUS", Field: aws.String("tenancy"), Value: aws.String("Shared")}}}, "InvalidParameterException"},
		{&awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), NextToken: aws.String("garbage")}, "InvalidNextTokenException"},
		{&awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), MaxResults: aws.Int32(500)}, "InvalidParameterException"},
		{&awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), FormatVersion: aws.String("aws_v2")}, "InvalidParameterException"},
	} {
		_, err := cl.GetProducts(ctx, tc.in)
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != tc.code || ae.ErrorMessage() == "" {
			t.Errorf("%+v: err %v, want %s", tc.in, err, tc.code)
		}
	}
	// filters of every kind
	for _, tc := range []struct {
		f    []types.Filter
		want int
	}{
		{[]types.Filter{{Type: types.FilterTypeAnyOf, Field: aws.String("regionCode"), Value: aws.String("us-east-2,us-west-2")}}, 84},
		{[]types.Filter{{Type: types.FilterTypeNoneOf, Field: aws.String("operatingSystem"), Value: aws.String("Linux")}}, 32},
		{[]types.Filter{{Type: types.FilterTypeContains, Field: aws.String("instanceType"), Value: aws.String("P4")}}, 30},
		{[]types.Filter{{Type: types.FilterTypeEquals, Field: aws.String("instancetype"), Value: aws.String("p4de.24xlarge")}}, 12},
	} {
		out, err := cl.GetProducts(ctx, &awspricing.GetProductsInput{ServiceCode: aws.String("AmazonEC2"), Filters: tc.f})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.f[0].Type, aws.ToString(tc.f[0].Value), err)
		}
		if len(out.PriceList) != tc.want {
			t.Errorf("%s %s: %d products, %v; want %d", tc.f[0].Type, aws.ToString(tc.f[0].Value), len(out.PriceList), err, tc.want)
		}
	}
	// anything but GetProducts, over plain HTTP
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", "AWSPriceListService.DescribeServices")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), `"__type":"UnknownOperationException"`) {
		t.Errorf("DescribeServices: %d %s", resp.StatusCode, b)
	}
}

func TestNewClientUsesAPriceListRegion(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET")
	for region, want := range map[string]string{"eu-west-2": "us-east-1", "ap-south-1": "ap-south-1", "us-east-1": "us-east-1"} {
		t.Setenv("AWS_REGION", region)
		cl, err := NewClient(context.Background(), "", "http://127.0.0.1:1")
		if err != nil {
			t.Fatal(err)
		}
		if got := cl.Options().Region; got != want || aws.ToString(cl.Options().BaseEndpoint) != "http://127.0.0.1:1" {
			t.Errorf("configured %s: client region %s endpoint %v, want %s", region, got, cl.Options().BaseEndpoint, want)
		}
	}
	if _, err := NewClient(context.Background(), "no-such-profile", ""); err == nil {
		t.Error("an unknown profile was accepted")
	}
}

func TestParseRate(t *testing.T) {
	for in, want := range map[string]string{
		"55.0400000000": "55.04", "0.1234565000": "0.123457", "1.2345674999": "1.234567", "98.32": "98.32", "7": "7",
	} {
		if got, err := ParseRate(in); err != nil || got != model.MustMoney(want) {
			t.Errorf("ParseRate(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1.23456789x", "1e3", "1.2.3", "1.0000000-1"} {
		if got, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) = %v, want an error", in, got)
		}
	}
	if _, err := ParseProduct("not json"); err == nil {
		t.Error("ParseProduct accepted garbage")
	}
}

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
