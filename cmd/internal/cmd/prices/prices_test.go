package prices

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// pricesEnv isolates a test from the real cache and AWS configuration, and fixes the clock.
func pricesEnv(t *testing.T) string {
	t.Helper()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET")
	t.Setenv("AWS_REGION", "eu-west-2")
	// The SDK's own retries stay on, as for a person: over loopback the JSON protocol's reply
	// is now and then cut by the SDK's transport (net.ErrClosed, aws-sdk-go-v2#2737), which
	// the SDK retries since v1.32.8; nothing here is retried otherwise (4xx answers are not).
	t.Setenv("AWS_MAX_ATTEMPTS", "3")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	cli.Tweak(t, func(f *cmdutil.Factory) {
		f.Now = func() time.Time { return time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC) }
	})
	return filepath.Join(cache, "gpublock", pricing.CacheFileName)
}

func TestPricesTable(t *testing.T) {
	pricesEnv(t)
	code, out, errs := cli.Run("prices")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range [][]string{
		{"USED", "KIND", "TYPE", "REGION", "PRICE", "PER ACCEL-H", "SOURCE", "DATE", "AGE", "NOTE"},
		{"*", "on-demand", "p5.48xlarge", "us-east-1", "$55.040/h", "$6.880", "Data Receipts GPU pricing dataset (third-party)", "2026-11-09 (retrieved)", "20 days"},
		{"on-demand", "p5.48xlarge", "us-east-1", "$98.320/h", "nextplatform.com (third-party)", "2023-07-27 (published)", "3 years", "superseded"},
		{"*", "on-demand", "p6-b200.48xlarge", "eu-north-1", "no on-demand price", "gpueconomics.com (third-party)", "2025 (published)", "~1 year"},
		{"*", "on-demand", "p5.48xlarge", "ap-south-1", "$66.048/h", "$8.256", "instances.vantage.sh (third-party)", "2026-08-26 (generated)", "3 months"},
		{"on-demand", "p6-b200.48xlarge", "ap-south-1", "no on-demand price", "gpueconomics.com (third-party)", "2025 (published)"},
		{"on-demand", "trn2.48xlarge", "us-west-2", "no figure known", "no figure in the reference"},
		{"*", "capacity-block", "p5.48xlarge", "us-east-1", "$41.528/h", "$5.191", "AWS Capacity Block pricing page", "2026-07-22 (snapshot)", "4 months"},
		{"capacity-block", "p5.48xlarge", "any", "$47.757/h", "$5.970", "(unconfirmed)", "2026-10 (as of)", "~1 month", "derived, not published"},
		{"capacity-block", "p5.48xlarge", "us-east-1", "$39.330/h", "$4.916", "AWS Capacity Block pricing page", "2025-01-01 (valid until)", "23 months"},
		{"savings-plan-3y", "u-p6e-gb200x72", "any", "no figure known"},
		{"* the figure gpublock compares offerings with"},
	} {
		if cmdtest.LineWith(out, want...) == "" {
			t.Errorf("table has no line with %q", want)
		}
	}
	// A newer price outranks the 2025 "not sold on-demand" row of the same pair.
	for _, l := range []string{cmdtest.LineWith(out, "on-demand", "$98.320/h"), cmdtest.LineWith(out, "on-demand", "trn2.48xlarge", "no figure known"),
		cmdtest.LineWith(out, "on-demand", "p6-b200.48xlarge", "ap-south-1", "no on-demand price")} {
		if strings.HasPrefix(l, "*") {
			t.Errorf("marked used: %s", l)
		}
	}
	// every type and region the emulator sells appears
	for _, typ := range model.Catalog() {
		for _, r := range typ.Regions {
			if cmdtest.LineWith(out, "on-demand", " "+typ.Name+" ", " "+r+" ") == "" {
				t.Errorf("no on-demand line for %s in %s", typ.Name, r)
			}
		}
	}
}

func TestPricesRegionAndFormats(t *testing.T) {
	pricesEnv(t)
	code, out, errs := cli.Run("prices", "--region", "ap-south-1,eu-north-1", "--type", "p5.48xlarge", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rows) != 9 { // 2 on-demand, the region-less Capacity Block rate and 2 snapshots per region, 2 unknown Savings Plans
		t.Errorf("%d rows, want 9", len(rows))
	}
	var od, cb int
	for _, r := range rows {
		if r["InstanceType"] != "p5.48xlarge" || (r["Region"] != "ap-south-1" && r["Region"] != "eu-north-1" && r["Region"] != "*") {
			t.Errorf("row outside the filter: %v", r)
		}
		if r["Age"] == "" || r["Source"] == "" || r["Date"] == "" {
			t.Errorf("row without age, source or date: %v", r)
		}
		switch r["Kind"] {
		case "on-demand":
			od++
			want := map[any]string{"ap-south-1": "66.048", "eu-north-1": "58.8928"}[r["Region"]]
			if r["Status"] != "price" || r["HourlyPrice"] != want || r["Date"] != "2026-08-26" || r["Reliability"] != "third-party" ||
				r["Source"] != "instances.vantage.sh" || !strings.Contains(r["Note"].(string), "tsaol/aws-gpu") || r["Used"] != true {
				t.Errorf("on-demand row %v, want the dated and sourced $%s", r, want)
			}
		case "capacity-block":
			if r["Used"] != true {
				continue
			}
			cb++
			if r["HourlyPrice"] != "37.76" || r["AcceleratorHourly"] != "4.72" || r["Reliability"] != "official" || r["Date"] != "2026-07-22" ||
				r["Source"] != "AWS Capacity Block pricing page" || r["Region"] == "*" {
				t.Errorf("capacity-block row %v, want the 2026-07-22 snapshot of the region", r)
			}
		}
	}
	if od != 2 || cb != 2 {
		t.Errorf("%d on-demand and %d capacity-block rows used, want 2 and 2: %s", od, cb, out)
	}

	code, out, _ = cli.Run("prices", "-o", "csv", "--region", "us-east-1")
	if code != 0 {
		t.Fatalf("csv exit %d", code)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 20 {
		t.Fatalf("csv: %d records, %v", len(recs), err)
	}
	if strings.Join(recs[0], ",") != strings.Join(append(pricing.CSVHeader(), "age"), ",") {
		t.Errorf("csv header %v", recs[0])
	}
	var found bool
	for _, r := range recs[1:] {
		if r[0] == "on-demand" && r[1] == "p4d.24xlarge" && r[2] == "us-east-1" {
			found = r[4] == "21.957642" && r[7] == "2026-11-09" && r[11] == "20 days"
			// The per-accelerator rate, as the table and json show it: 21.957642 / 8 GPUs.
			if r[5] != "2.744705" {
				t.Errorf("p4d usd_per_accelerator_hour %q, want 2.744705 as in the json", r[5])
			}
		}
	}
	if !found {
		t.Errorf("csv lacks the exact p4d figure: %s", out)
	}
}

func TestPricesBadUsage(t *testing.T) {
	pricesEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-o", "xml"}, []string{`-o "xml"`, "table, json or csv"}},
		{[]string{"--region", "us-east-1,mars-1"}, []string{`--region "mars-1"`, "allowed", "ap-south-1", "us-west-2", "or all"}},
		{[]string{"--type", "p9.huge"}, []string{`--type "p9.huge"`, "p5.48xlarge"}},
		{[]string{"extra"}, []string{`unexpected argument "extra"`}},
		{[]string{"--endpoint-url", "http://127.0.0.1:1"}, []string{"--endpoint-url", "only used with --refresh"}},
		{[]string{"--refresh", "--endpoint-url", "ftp://x"}, []string{"--endpoint-url", "http:// or https://"}},
		{[]string{"--bogus"}, []string{"bogus"}},
	} {
		code, out, errs := cli.Run(append([]string{"prices"}, tc.args...)...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q", tc.args, code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, errs, w)
			}
		}
	}
	if code, out, _ := cli.Run("prices", "-h"); code != 0 || !strings.Contains(out, "gpublock prices") || !strings.Contains(out, "USAGE") {
		t.Errorf("-h: exit %d %q", code, out)
	}
}

// --refresh through the real SDK against the emulator's Price List handler, into the
// endpoint's own cache: a run without --refresh, for AWS, does not use it.
func TestPricesRefresh(t *testing.T) {
	awsCache := pricesEnv(t)
	cat := pricing.Embedded().With(pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p5.48xlarge", Region: "ap-south-1",
		Status: pricing.StatusPrice, Hourly: model.MustMoney("61.23"), Source: "test figure", Date: "2026-11-20"})
	srv := httptest.NewServer(ec2sim.NewPriceListHandlerFrom(cat))
	defer srv.Close()
	cachePath, _ := pricing.CachePathFor(srv.URL)

	code, out, errs := cli.Run("prices", "--refresh", "--endpoint-url", srv.URL, "--region", "ap-south-1,eu-north-1", "--type", "p5.48xlarge,p6-b200.48xlarge")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// p5.48xlarge in both regions and p6-b200 in ap-south-1; AWS does not sell p6-b200 on-demand in eu-north-1.
	if !strings.Contains(errs, "Fetched 3 on-demand prices from the AWS Price List API (2 requests) into "+cachePath) ||
		!strings.Contains(errs, "No on-demand price returned for: p6-b200.48xlarge in eu-north-1") {
		t.Errorf("stderr %q", errs)
	}
	// One price, one request: the counts agree with their nouns.
	if code, _, errs := cli.Run("prices", "--refresh", "--endpoint-url", srv.URL, "--region", "ap-south-1", "--type", "p5.48xlarge"); code != 0 ||
		!strings.Contains(errs, "Fetched 1 on-demand price from the AWS Price List API (1 request) into "+cachePath) {
		t.Errorf("one price: exit %d, stderr %q", code, errs)
	}
	if cmdtest.LineWith(out, "*", "on-demand", "p5.48xlarge", "ap-south-1", "$61.230/h", "AWS Price List API", "2026-11-29T20:00:00Z (fetched)", "today", "via "+srv.URL) == "" {
		t.Errorf("output lacks the fetched figure:\n%s", out)
	}
	if l := cmdtest.LineWith(out, "on-demand", "p5.48xlarge", "ap-south-1", "$66.048/h", "2026-08-26"); l == "" || strings.HasPrefix(l, "*") {
		t.Errorf("the older embedded row should remain, unused: %q", l)
	}
	if _, err := os.Stat(cachePath); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(awsCache); !os.IsNotExist(err) {
		t.Fatalf("the endpoint's prices reached AWS's cache %s: %v", awsCache, err)
	}
	// later runs for AWS do not use the endpoint's prices
	code, out, _ = cli.Run("prices", "--region", "ap-south-1", "--type", "p5.48xlarge", "-o", "json")
	if code != 0 || strings.Contains(out, `"HourlyPrice": "61.23"`) || strings.Contains(out, `"Source": "AWS Price List API"`) {
		t.Errorf("after an endpoint's refresh, AWS's prices: exit %d %s", code, out)
	}
	c2, _ := pricing.Load(cachePath)
	if c := pricing.Compare(c2, model.Offering{Region: "ap-south-1", InstanceType: "p5.48xlarge", Count: 1, DurationHours: 24, Fee: model.MustMoney("700")}); c.NoOnDemand || c.OnDemandHourly != model.MustMoney("61.23") {
		t.Errorf("Compare after refresh: %+v", c)
	}
}

func TestPricesRefreshFailures(t *testing.T) {
	cachePath := pricesEnv(t)
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.Write([]byte(`{}`)) // what a wrong endpoint looks like to the SDK: no products, no error
	}))
	defer empty.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(400)
		w.Write([]byte(`{"__type":"AccessDeniedException","message":"no pricing:GetProducts for you"}`))
	}))
	defer broken.Close()
	for _, tc := range []struct{ url, want string }{
		{empty.URL, "returned no price for any type asked for; the cache is unchanged"},
		{broken.URL, "AccessDeniedException"},
	} {
		code, out, errs := cli.Run("prices", "--refresh", "--endpoint-url", tc.url, "--type", "p5.48xlarge")
		if code != 1 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.want, code, out, errs)
		}
		if _, err := os.Stat(cachePath); err == nil {
			t.Errorf("%s: a cache was written", tc.want)
		}
	}
	// a broken cache is reported and the embedded catalog is shown
	os.MkdirAll(filepath.Dir(cachePath), 0o755)
	os.WriteFile(cachePath, []byte("garbage"), 0o644)
	code, out, errs := cli.Run("prices", "--type", "p5.48xlarge")
	if code != 0 || !strings.Contains(errs, "ignoring the price cache") || !strings.Contains(out, "$55.040/h") {
		t.Errorf("broken cache: exit %d %q %q", code, errs, out)
	}
}

// A refresh that fails says why in a sentence, as the other commands do, not as a raw
// SDK error chain; without credentials it does not offer --demo, which prices lacks.
func TestPricesRefreshFailureExplained(t *testing.T) {
	pricesEnv(t)
	down := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	url := down.URL
	down.Close()
	t.Setenv("AWS_MAX_ATTEMPTS", "1") // a refused connection would only be retried
	code, out, errs := cli.Run("prices", "--refresh", "--endpoint-url", url, "--type", "p5.48xlarge")
	if code != 1 || out != "" || !strings.Contains(errs, "AWS could not be reached") || strings.Contains(errs, "operation error") {
		t.Errorf("endpoint down: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	sim := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer sim.Close()
	code, _, errs = cli.Run("prices", "--refresh", "--endpoint-url", sim.URL, "--type", "p5.48xlarge")
	if code != 1 || !strings.Contains(errs, "No AWS credentials were found") || strings.Contains(errs, "--demo") {
		t.Errorf("no credentials: exit %d, stderr %q", code, errs)
	}
}

// prices --refresh --log-file logs its Price List calls as every other command logs its
// EC2 calls; without --refresh the flag is refused, as --endpoint-url is.
func TestPricesRefreshLogFile(t *testing.T) {
	pricesEnv(t)
	srv := httptest.NewServer(ec2sim.NewPriceListHandler())
	defer srv.Close()
	log := filepath.Join(t.TempDir(), "calls.log")
	code, _, errs := cli.Run("prices", "--refresh", "--endpoint-url", srv.URL, "--type", "p5.48xlarge,trn1.32xlarge", "--log-file", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs := cmdtest.ReadCallLog(t, log)
	if len(recs) != 2 {
		t.Fatalf("%d lines, want one GetProducts per type: %v", len(recs), recs)
	}
	for _, r := range recs {
		if r["service"] != "Pricing" || r["action"] != "GetProducts" || r["status"] != "200" || r["attempt"] != "1" {
			t.Errorf("line %v", r)
		}
	}
	code, out, errs := cli.Run("prices", "--log-file", log)
	if code != 2 || out != "" || !strings.Contains(errs, "only used with --refresh") {
		t.Errorf("--log-file without --refresh: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// cli runs `gpublock prices` as the program does, with `gpublock sim` to serve it.
var cli = cmdtest.NewCLI(NewCmdPrices, cmdtest.Cmd(sim.NewCmdSim))

// `gpublock prices --refresh` against `gpublock sim`: the emulator serves the Price List
// API, through the real SDK, from the embedded catalog.
func TestPricesRefreshFromSimCommand(t *testing.T) {
	awsCache := pricesEnv(t)
	base, _, cancel, wait := cli.ServeSim(t)
	cachePath, _ := pricing.CachePathFor(base)
	code, out, errs := cli.Run("prices", "--refresh", "--endpoint-url", base, "--region", "eu-north-1", "--type", "p5.48xlarge,p6-b200.48xlarge")
	if code != 0 || cachePath == awsCache || !strings.Contains(errs, "Fetched 1 on-demand price from the AWS Price List API (2 requests) into "+cachePath) ||
		!strings.Contains(errs, "No on-demand price returned for: p6-b200.48xlarge in eu-north-1") {
		t.Fatalf("refresh from gpublock sim: exit %d\n%s", code, errs)
	}
	if cmdtest.LineWith(out, "*", "on-demand", "p5.48xlarge", "eu-north-1", "$58.893/h", "AWS Price List API", "via "+base) == "" {
		t.Errorf("output lacks the fetched figure:\n%s", out)
	}
	// The emulator's prices are not AWS's: plain `prices` shows none of them.
	if _, err := os.Stat(awsCache); !os.IsNotExist(err) {
		t.Errorf("the emulator's prices reached AWS's price cache %s: %v", awsCache, err)
	}
	code, out, _ = cli.Run("prices", "--region", "eu-north-1", "--type", "p5.48xlarge")
	if code != 0 || strings.Contains(out, "via "+base) || strings.Contains(out, "AWS Price List API") {
		t.Errorf("plain prices shows the emulator's figure:\n%s", out)
	}
	cancel()
	wait()
}

// The in-process demo backend serves the Price List API as `gpublock sim` does.
func TestDemoBackendServesPriceList(t *testing.T) {
	pricesEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := cmdutil.AWSFlags{Demo: true, Region: "us-east-1", PerRegion: 4, Overall: 32, DemoSeed: 1}
	_, info, err := cmdutil.OpenBackend(ctx, &f, io.Discard)
	if err != nil || info.Mode != cmdutil.ModeSimulated || info.Endpoint == "" {
		t.Fatalf("demo backend: %+v, %v", info, err)
	}
	code, _, errs := cli.Run("prices", "--refresh", "--endpoint-url", info.Endpoint, "--region", "us-east-1", "--type", "p5.48xlarge")
	cachePath, _ := pricing.CachePathFor(info.Endpoint)
	if code != 0 || !strings.Contains(errs, "Fetched 1 on-demand price from the AWS Price List API (1 request) into "+cachePath) {
		t.Errorf("refresh from the demo backend: exit %d\n%s", code, errs)
	}
}
