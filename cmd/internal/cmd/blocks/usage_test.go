package blocks

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

func TestBlocksCommand(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("empty account: exit %d, %q, %q", code, out, errs)
	}

	c := cmdtest.Client(t, cs.URL)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: cmdtest.SimStart, End: cmdtest.SimStart.AddDate(0, 0, 14), Regions: []string{"us-east-1"}}
	var offer *model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && offer == nil {
			offer = &ev.Offerings[0]
		}
	}
	if offer == nil {
		t.Fatal("nothing to buy")
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), *offer, "", nil)
	if err != nil {
		t.Fatal(err)
	}

	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
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

	code, table, _ := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
	if code != 0 || !strings.Contains(table, res.Block.ReservationID) || !strings.HasPrefix(table, "RESERVATION") {
		t.Errorf("table: exit %d\n%s", code, table)
	}
	// The table's FREE is what can be launched or attached: the whole count before the start,
	// as the launch dialog says, while JSON keeps AWS's available count of 0.
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 6 && f[0] == res.Block.ReservationID && (f[5] != "2" || f[6] != "2") {
			t.Errorf("TOTAL %s FREE %s, want 2 and 2:\n%s", f[5], f[6], table)
		}
	}
	code, csvOut, _ := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "csv")
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if code != 0 || err != nil || len(recs) != 2 || recs[1][0] != res.Block.ReservationID {
		t.Errorf("csv: exit %d, %v, %v", code, err, recs)
	}

	// Without --region every region is listed, whatever the home region: the block in
	// us-east-1 shows with a home region of us-west-2.
	t.Setenv("AWS_REGION", "us-west-2")
	code, out, _ = cli.Run("blocks", "--endpoint-url", cs.URL, "-o", "json")
	if code != 0 || !strings.Contains(out, res.Block.ReservationID) {
		t.Errorf("every region, home us-west-2: exit %d, %s", code, out)
	}
}

func TestBlocksBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, args := range [][]string{{"-o", "yaml"}, {"--region", "moon-1"}, {"--region", "us-east-1,"}, {"stray"}} {
		code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", cs.URL}, args...)...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if cs.Calls.Load() != 0 {
		t.Errorf("bad usage made %d calls", cs.Calls.Load())
	}
}

func TestBlocksWatchBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, args := range [][]string{{"--watch", "--interval", "10ms"}, {"--warn-within", "-5m"}, {"--warn-within", "soon"}, {"--interval", "0s"},
		{"--interval", "30s"}, {"--warn-within", "45m", "--interval", "1m"}, {"--warn-within", "45m", "--warn-of", "soon"}, {"--warn-of", "end"}} {
		code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", cs.URL}, args...)...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
		if args[len(args)-2] == "--interval" && args[len(args)-1] != "0s" && args[len(args)-1] != "10ms" &&
			!strings.Contains(errs, "--interval is used with --watch") {
			t.Errorf("%v: %q does not say --interval needs --watch", args, errs)
		}
	}
	code, out, _ := cli.Run("blocks", "-h")
	for _, want := range []string{"Exit status", "0 ok", "1 failure", "2 bad usage", "3 warning"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("-h: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	if cs.Calls.Load() != 0 {
		t.Errorf("bad usage made %d calls", cs.Calls.Load())
	}
}

// With --warn-within a region that could not be read fails the check: a monitor must not
// read "nothing ends soon" for blocks nobody looked at. Without it, the others still answer.
func TestBlocksWarnWithinRegionDown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "--warn-within", "45m")
	if code != 1 || !strings.Contains(errs, "--warn-within: the blocks of us-west-2 could not be checked") {
		t.Errorf("one region down with --warn-within: exit %d, %q; want 1", code, errs)
	}
	code, _, _ = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "45m")
	if code != 0 {
		t.Errorf("the region up with --warn-within: exit %d, want 0", code)
	}
}

// An empty table says so on stderr, as an empty offerings search does: stdout holds rows only.
func TestBlocksEmptyTableSaysSoOnStderr(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
	if code != 0 || out != "" || !strings.Contains(errs, "No Capacity Blocks.") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
