package capacityblocks

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/pricelist"
	"github.com/gpublock/gpublock/aws/source"
)

// loggedClient is a client of the emulator at url whose call log writes to buf.
func loggedClient(t *testing.T, url string) (c *Client, buf *bytes.Buffer) {
	t.Helper()
	buf = new(bytes.Buffer)
	return newTestClient(t, url, func(cfg *awsapi.Config) { cfg.CallLog = awsapi.NewCallLog(buf) }), buf
}

// callLogKeys is the order of the fields every line has.
var callLogKeys = []string{"time", "service", "action", "region", "host", "attempt", "status"}

// parseCallLog reads every line of a call log as logfmt, failing the test on a line that
// is not one whole record (two lines written into each other would be).
func parseCallLog(t testing.TB, raw string) []map[string]string {
	t.Helper()
	if raw == "" || !strings.HasSuffix(raw, "\n") {
		t.Fatalf("call log %q: want whole lines", raw)
	}
	var out []map[string]string
	for _, line := range strings.Split(strings.TrimSuffix(raw, "\n"), "\n") {
		rec, keys, err := parseLogfmt(line)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		for i, k := range callLogKeys {
			if i >= len(keys) || keys[i] != k {
				t.Fatalf("line %q: fields %v, want to start with %v", line, keys, callLogKeys)
			}
		}
		if _, ok := rec["duration_ms"]; !ok {
			t.Fatalf("line %q has no duration", line)
		}
		out = append(out, rec)
	}
	return out
}

func parseLogfmt(line string) (map[string]string, []string, error) {
	rec := map[string]string{}
	var keys []string
	for line != "" {
		k, rest, ok := strings.Cut(line, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \"") {
			return nil, nil, fmt.Errorf("bad key in %q", line)
		}
		var v string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, nil, err
			}
			v, _ = strconv.Unquote(q)
			rest = rest[len(q):]
		} else if i := strings.IndexByte(rest, ' '); i >= 0 {
			v, rest = rest[:i], rest[i:]
		} else {
			v, rest = rest, ""
		}
		if _, dup := rec[k]; dup {
			return nil, nil, fmt.Errorf("key %s twice", k)
		}
		rec[k] = v
		keys = append(keys, k)
		if rest != "" {
			if rest[0] != ' ' {
				return nil, nil, fmt.Errorf("no space after %s", k)
			}
			if rest = rest[1:]; rest == "" {
				return nil, nil, fmt.Errorf("trailing space")
			}
		}
		line = rest
	}
	return rec, keys, nil
}

func openTestCallLog(t *testing.T) (*awsapi.CallLog, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "logs", "deeper", "calls.log")
	l, err := awsapi.OpenCallLog(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func hostOf(t testing.TB, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Host
}

func TestCallLogSearchLogsEveryAttempt(t *testing.T) {
	_, rc, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	l, path := openTestCallLog(t)
	c := newTestClient(t, u, func(cfg *awsapi.Config) { cfg.CallLog = l })
	c.pageSize = 1 // many pages, so the fan-out writes many lines at once
	q := baseQuery()
	q.Regions = []string{"us-east-1", "us-west-2"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) < 2 {
		t.Fatalf("%d offerings, want pages to follow", len(offs))
	}
	lines := parseCallLog(t, readFile(t, path))
	if len(lines) != rc.Total() {
		t.Fatalf("%d lines for %d requests", len(lines), rc.Total())
	}
	perRegion := map[string]int{}
	for _, r := range lines {
		if r["service"] != "EC2" || r["action"] != "DescribeCapacityBlockOfferings" || r["host"] != hostOf(t, u) ||
			r["attempt"] != "1" || r["status"] != "200" || r["request_id"] == "" || r["code"] != "" || r["error"] != "" {
			t.Errorf("line %v", r)
		}
		if _, err := strconv.ParseFloat(r["duration_ms"], 64); err != nil {
			t.Errorf("duration %q", r["duration_ms"])
		}
		if !strings.HasSuffix(r["time"], "Z") || len(r["time"]) != len("2006-01-02T15:04:05.000Z") {
			t.Errorf("time %q: want UTC with milliseconds", r["time"])
		}
		perRegion[r["region"]]++
	}
	for _, region := range q.Regions {
		want := rc.Count(func(r simtest.Recorded) bool { return r.Region == region })
		if want < 2 || perRegion[region] != want {
			t.Errorf("%s: %d lines, %d requests", region, perRegion[region], want)
		}
	}
	if len(perRegion) != 2 {
		t.Errorf("regions %v", perRegion)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700, filepath.Dir(filepath.Dir(path)): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %v", p, fi.Mode(), err, want)
		}
	}

	// A second client appends to the same file; nothing is truncated.
	before := len(lines)
	l2, err := awsapi.OpenCallLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	c2 := newTestClient(t, u, func(cfg *awsapi.Config) { cfg.CallLog = l2 })
	if _, err := c2.api.Identity(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines = parseCallLog(t, readFile(t, path))
	if len(lines) != before+1 {
		t.Fatalf("%d lines after one more call, want %d", len(lines), before+1)
	}
	if r := lines[before]; r["service"] != "STS" || r["action"] != "GetCallerIdentity" || r["region"] != "us-east-1" || r["status"] != "200" {
		t.Errorf("STS line %v", r)
	}
}

// describeOnce makes one read through the adapter's EC2 client and retryer.
func describeOnce(c *Client, region string) error {
	_, err := c.api.EC2(region).DescribeCapacityBlockOfferings(context.Background(), &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(48),
	})
	return err
}

func TestCallLogFaultsLogCodeAndAttempts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		faults   ec2sim.Faults
		region   string
		attempts int
		status   string
		code     string
	}{
		{"throttle", ec2sim.Faults{Throttle: 1}, "us-east-1", awsapi.ReadAttempts, "503", "RequestLimitExceeded"},
		{"error", ec2sim.Faults{Error: 1}, "us-east-1", awsapi.OtherAttempts, "500", "InternalError"},
		{"down", ec2sim.Faults{Down: []string{"us-west-2"}}, "us-west-2", awsapi.OtherAttempts, "503", "Unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rc, u := simtest.NewRecordedSim(t, 1, tc.faults)
			var buf bytes.Buffer
			c := newTestClient(t, u, func(cfg *awsapi.Config) { cfg.CallLog = awsapi.NewCallLog(&buf) })
			if err := describeOnce(c, tc.region); err == nil {
				t.Fatal("the call succeeded under the fault")
			}
			lines := parseCallLog(t, buf.String())
			if len(lines) != tc.attempts || rc.Total() != tc.attempts {
				t.Fatalf("%d lines, %d requests, want %d:\n%s", len(lines), rc.Total(), tc.attempts, buf.String())
			}
			for i, r := range lines {
				if r["attempt"] != strconv.Itoa(i+1) || r["status"] != tc.status || r["code"] != tc.code ||
					r["region"] != tc.region || r["action"] != "DescribeCapacityBlockOfferings" || r["request_id"] == "" {
					t.Errorf("line %d: %v", i+1, r)
				}
			}
		})
	}
}

func TestCallLogNoAnswer(t *testing.T) {
	srv := httptest.NewServer(nil)
	u := srv.URL
	srv.Close() // nothing listens: connection refused
	c, buf := loggedClient(t, u)
	if err := describeOnce(c, "us-east-1"); err == nil {
		t.Fatal("a call to a closed port succeeded")
	}
	lines := parseCallLog(t, buf.String())
	if len(lines) < 2 {
		t.Fatalf("%d lines; a refused connection is retried:\n%s", len(lines), buf.String())
	}
	for i, r := range lines {
		if r["status"] != "-" || r["code"] != "" || !strings.Contains(r["error"], "refused") || r["attempt"] != strconv.Itoa(i+1) {
			t.Errorf("line %v", r)
		}
	}
}

func TestCallLogPurchaseCarriesRequestID(t *testing.T) {
	_, _, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c, buf := loggedClient(t, u)
	o := firstOffering(t, c)
	res, err := c.Purchase(context.Background(), o, "", map[string]string{"team": "ml"})
	if err != nil || res.RequestID == "" {
		t.Fatalf("purchase: %v %+v", err, res)
	}
	var dry, buy int
	for _, r := range parseCallLog(t, buf.String()) {
		if r["action"] != "PurchaseCapacityBlock" {
			if r["gpublock_request_id"] != "" {
				t.Errorf("%s carries a request id: %v", r["action"], r)
			}
			continue
		}
		switch r["code"] {
		case "DryRunOperation": // the permission check: no tags
			dry++
			if r["gpublock_request_id"] != "" {
				t.Errorf("dry run line %v", r)
			}
		case "":
			buy++
			if r["gpublock_request_id"] != res.RequestID || r["status"] != "200" || r["region"] != o.Region || r["attempt"] != "1" {
				t.Errorf("purchase line %v, want request id %s", r, res.RequestID)
			}
		default:
			t.Errorf("purchase line %v", r)
		}
	}
	if dry != 1 || buy != 1 {
		t.Errorf("%d dry runs and %d purchases logged:\n%s", dry, buy, buf.String())
	}
	if strings.Contains(buf.String(), "team") {
		t.Error("the log shows the purchase's other tags")
	}
}

func TestCallLogHasNoSecrets(t *testing.T) {
	_, _, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{Throttle: 0.5})
	var buf bytes.Buffer
	const token = "SESSIONTOKEN-gpublock-test-must-not-be-logged"
	c := newTestClient(t, u, func(cfg *awsapi.Config) {
		cfg.CallLog = awsapi.NewCallLog(&buf)
		cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(simtest.AccessKey, simtest.SecretKey, token))
	})
	firstOffering(t, c)
	if _, err := c.api.Identity(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	parseCallLog(t, got)
	for _, secret := range []string{simtest.SecretKey, token, "Authorization", "Signature=", "Credential=", simtest.AccessKey} {
		if strings.Contains(got, secret) {
			t.Errorf("the log contains %q:\n%s", secret, got)
		}
	}
}

// The Price List client of `prices --refresh` takes the same log through its options.
func TestCallLogPriceList(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials", "AWS_PROFILE": "", "AWS_DEFAULT_PROFILE": "",
		"AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_ENDPOINT_URL": "", "AWS_MAX_ATTEMPTS": "", "AWS_RETRY_MODE": "",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": simtest.AccessKey, "AWS_SECRET_ACCESS_KEY": simtest.SecretKey, "AWS_SESSION_TOKEN": "",
	} {
		t.Setenv(k, v)
	}
	var requests atomic.Int32
	h := ec2sim.NewPriceListHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	var buf bytes.Buffer
	cl, err := pricelist.NewClient(context.Background(), "", srv.URL, awsapi.NewCallLog(&buf).APIOption())
	if err != nil {
		t.Fatal(err)
	}
	res, err := pricelist.Fetch(context.Background(), cl, []string{"p5.48xlarge"}, nil, simtest.Start, "")
	if err != nil || len(res.Rows) == 0 {
		t.Fatalf("fetch: %v, %d rows", err, len(res.Rows))
	}
	lines := parseCallLog(t, buf.String())
	if len(lines) != int(requests.Load()) {
		t.Fatalf("%d lines for %d requests:\n%s", len(lines), requests.Load(), buf.String())
	}
	ok := 0
	for _, r := range lines {
		if r["service"] != "Pricing" || r["action"] != "GetProducts" || r["region"] != "us-east-1" || r["host"] != hostOf(t, srv.URL) {
			t.Errorf("line %v", r)
		}
		if r["status"] == "200" {
			ok++
		}
	}
	if ok != res.Calls {
		t.Errorf("%d answered lines for %d calls", ok, res.Calls)
	}
}

// After a lost reply, the purchase and the look-up that settles it both name the request id.
func TestCallLogLostReplyAndItsLookUp(t *testing.T) {
	sim, _, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c, buf := loggedClient(t, u)
	o := firstOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil || !res.Recovered {
		t.Fatalf("purchase: %v %+v", err, res)
	}
	var lost, lookUps int
	for _, r := range parseCallLog(t, buf.String()) {
		switch {
		case r["action"] == "PurchaseCapacityBlock" && r["status"] == "500":
			lost++
			if r["gpublock_request_id"] != res.RequestID || r["code"] != "InternalError" || r["attempt"] != "1" {
				t.Errorf("lost purchase line %v", r)
			}
		case r["action"] == "DescribeCapacityReservations":
			lookUps++
			if r["gpublock_request_id"] != res.RequestID || r["status"] != "200" {
				t.Errorf("look-up line %v", r)
			}
		}
	}
	if lost != 1 || lookUps == 0 {
		t.Errorf("%d lost purchases, %d look-ups:\n%s", lost, lookUps, buf.String())
	}
}

// An extension has no tags, but its call, and the history look-up after its lost reply,
// name the request id of its journal lines, as a purchase's do; its dry run does not.
func TestCallLogExtensionCarriesRequestID(t *testing.T) {
	sim, _, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c, buf := loggedClient(t, u)
	_, b := runningBlock(t, sim, c)
	offs := oneDayExtensions(t, c, b)
	buf.Reset()
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Extend(context.Background(), b, offs[0])
	if err != nil || !res.Recovered || res.RequestID == "" {
		t.Fatalf("extend: %v %+v", err, res)
	}
	var dry, lost, lookUps int
	for _, r := range parseCallLog(t, buf.String()) {
		switch {
		case r["action"] == "PurchaseCapacityBlockExtension" && r["code"] == "DryRunOperation":
			dry++
			if r["gpublock_request_id"] != "" {
				t.Errorf("dry run line %v", r)
			}
		case r["action"] == "PurchaseCapacityBlockExtension":
			lost++
			if r["gpublock_request_id"] != res.RequestID || r["code"] != "InternalError" || r["attempt"] != "1" {
				t.Errorf("lost extension line %v, want request id %s", r, res.RequestID)
			}
		case r["action"] == "DescribeCapacityBlockExtensionHistory":
			lookUps++
			if r["gpublock_request_id"] != res.RequestID || r["status"] != "200" {
				t.Errorf("look-up line %v, want request id %s", r, res.RequestID)
			}
		case r["gpublock_request_id"] != "":
			t.Errorf("%s carries a request id: %v", r["action"], r)
		}
	}
	if dry != 1 || lost != 1 || lookUps == 0 {
		t.Errorf("%d dry runs, %d lost extensions, %d look-ups:\n%s", dry, lost, lookUps, buf.String())
	}
}

// A launch's request id is its client token, not a tag: the call log names it on the
// RunInstances call, as on a purchase's, and not on the dry run before it.
func TestCallLogLaunchCarriesRequestID(t *testing.T) {
	sim, _, u := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c, buf := loggedClient(t, u)
	_, b := runningBlock(t, sim, c)
	buf.Reset()
	res, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1, Name: "trainer"})
	if err != nil || res.RequestID == "" || len(res.Instances) != 1 {
		t.Fatalf("launch: %v %+v", err, res)
	}
	var dry, run int
	for _, r := range parseCallLog(t, buf.String()) {
		switch {
		case r["action"] == "RunInstances" && r["code"] == "DryRunOperation":
			dry++
			if r["gpublock_request_id"] != "" {
				t.Errorf("dry run line %v", r)
			}
		case r["action"] == "RunInstances":
			run++
			if r["gpublock_request_id"] != res.RequestID || r["status"] != "200" {
				t.Errorf("launch line %v, want request id %s", r, res.RequestID)
			}
		case r["gpublock_request_id"] != "":
			t.Errorf("%s carries a request id: %v", r["action"], r)
		}
	}
	if dry != 1 || run != 1 {
		t.Errorf("%d dry runs and %d launches logged:\n%s", dry, run, buf.String())
	}
	if strings.Contains(buf.String(), "trainer") {
		t.Error("the log shows the launch's tags")
	}
}
