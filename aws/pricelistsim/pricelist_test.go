package pricelistsim_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/pricelistsim"
	"github.com/gpublock/gpublock/aws/simcore"
)

func post(t *testing.T, h http.Handler, target, body string) (int, string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	r.Header.Set("X-Amz-Target", target)
	r.Header.Set("Content-Type", "application/x-amz-json-1.1")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}

// The Price List is one registration on the core: its requests reach it by their target.
// The real SDK's GetProducts is tested in aws/pricelist.
func TestRoutedByTarget(t *testing.T) {
	c, err := simcore.New(simcore.Options{}, pricelistsim.Protocol(pricelistsim.New()))
	if err != nil {
		t.Fatal(err)
	}
	code, body := post(t, c, "AWSPriceListService.GetProducts",
		`{"ServiceCode":"AmazonEC2","Filters":[{"Type":"TERM_MATCH","Field":"instanceType","Value":"p5.48xlarge"},{"Type":"TERM_MATCH","Field":"regionCode","Value":"us-east-1"},{"Type":"TERM_MATCH","Field":"operatingSystem","Value":"Linux"},{"Type":"TERM_MATCH","Field":"tenancy","Value":"Shared"},{"Type":"TERM_MATCH","Field":"preInstalledSw","Value":"NA"},{"Type":"TERM_MATCH","Field":"capacitystatus","Value":"Used"}]}`)
	if code != 200 || !strings.Contains(body, `BoxUsage:p5.48xlarge`) || !strings.Contains(body, `"FormatVersion":"aws_v1"`) {
		t.Errorf("GetProducts: %d %.300s", code, body)
	}
	if code, body := post(t, c, "AWSPriceListService.DescribeServices", `{}`); code != 400 || !strings.Contains(body, "UnknownOperationException") {
		t.Errorf("another operation: %d %s", code, body)
	}
}

func TestWithoutPricesSaysSo(t *testing.T) {
	c, err := simcore.New(simcore.Options{}, pricelistsim.Protocol(nil))
	if err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, c, "AWSPriceListService.GetProducts", `{"ServiceCode":"AmazonEC2"}`); code != 400 || !strings.Contains(body, "has no Price List API") {
		t.Errorf("%d %s", code, body)
	}
}
