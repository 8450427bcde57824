package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/model"
)

func writeEmpty(path string) error { return os.WriteFile(path, nil, 0o600) }

func TestBlocksCommand(t *testing.T) {
	cs := startCLISim(t)
	code, out, errs := runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1", "-o", "json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("empty account: exit %d, %q, %q", code, out, errs)
	}

	c := testClient(t, cs.url)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: cliSimStart, End: cliSimStart.AddDate(0, 0, 14), Regions: []string{"us-east-1"}}
	var offer *model.Offering
	for ev := range c.Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && offer == nil {
			offer = &ev.Offerings[0]
		}
	}
	if offer == nil {
		t.Fatal("nothing to buy")
	}
	res, err := c.Purchase(context.Background(), *offer, "", nil)
	if err != nil {
		t.Fatal(err)
	}

	code, out, errs = runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1", "-o", "json")
	var rows []map[string]any
	if code != 0 || errs != "" || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 {
		t.Fatalf("exit %d, stderr %q, stdout %s", code, errs, out)
	}
	r := rows[0]
	want := map[string]any{
		"CapacityReservationId": res.Block.ReservationID, "CapacityBlockId": res.Block.BlockID, "Region": "us-east-1",
		"AvailabilityZone": offer.AvailabilityZone, "InstanceType": "p5.48xlarge", "TotalInstanceCount": float64(2),
		"AvailableInstanceCount": float64(0), "RunningInstanceCount": float64(0), "State": "payment-pending",
		"StartDate": offer.Start.Format("2006-01-02T15:04:05Z"), "EndDate": offer.End.Format("2006-01-02T15:04:05Z"),
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("%s = %v, want %v", k, r[k], v)
		}
	}

	code, table, _ := runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1")
	if code != 0 || !strings.Contains(table, res.Block.ReservationID) || !strings.HasPrefix(table, "RESERVATION") {
		t.Errorf("table: exit %d\n%s", code, table)
	}
	code, csvOut, _ := runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1", "-o", "csv")
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if code != 0 || err != nil || len(recs) != 2 || recs[1][0] != res.Block.ReservationID {
		t.Errorf("csv: exit %d, %v, %v", code, err, recs)
	}

	// The home region comes from the environment when --region is absent.
	t.Setenv("AWS_REGION", "us-west-2")
	code, out, _ = runCLI("blocks", "--endpoint-url", cs.url, "-o", "json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("us-west-2 from AWS_REGION: exit %d, %s", code, out)
	}
}

func TestBlocksRegionDown(t *testing.T) {
	cs := startCLISim(t)
	cs.sim.SetFaults(ecDown("us-west-2"))
	code, _, errs := runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1,us-west-2", "-o", "json")
	if code != 0 || !strings.Contains(errs, "us-west-2") {
		t.Errorf("one region down: exit %d, %q", code, errs)
	}
	code, _, _ = runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-west-2", "-o", "json")
	if code != 1 {
		t.Errorf("the only region down: exit %d, want 1", code)
	}
}

func TestBlocksBadUsage(t *testing.T) {
	cs := startCLISim(t)
	for _, args := range [][]string{{"-o", "yaml"}, {"--region", "moon-1"}, {"--region", "us-east-1,"}, {"stray"}} {
		code, _, errs := runCLI(append([]string{"blocks", "--endpoint-url", cs.url}, args...)...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if cs.calls.Load() != 0 {
		t.Errorf("bad usage made %d calls", cs.calls.Load())
	}
}
