package blocks

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/order"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// A region that fails makes the list incomplete: exit 1, the region named on stderr, the
// blocks of the others still printed. When no region answers, stdout stays empty.
func TestBlocksRegionDown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "-o", "json")
	var rows []printers.BlockJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].CapacityReservationId != b.CapacityReservationId {
		t.Errorf("the listing of us-east-1: %v\n%s", err, out)
	}
	if code != 1 || !strings.Contains(errs, "gpublock blocks: us-west-2: EC2 is unavailable") || !strings.Contains(errs, "incomplete: us-west-2 failed") {
		t.Errorf("one region down: exit %d, %q; want 1 naming us-west-2", code, errs)
	}
	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2")
	if code != 1 || !strings.HasPrefix(out, "RESERVATION") || !strings.Contains(out, b.CapacityReservationId) || !strings.Contains(errs, "us-west-2") {
		t.Errorf("table, one region down: exit %d, stderr %q\n%s", code, errs, out)
	}
	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-west-2", "-o", "json")
	if code != 1 || out != "" || !strings.Contains(errs, "us-west-2: EC2 is unavailable") {
		t.Errorf("the only region down: exit %d, stdout %q, stderr %q; want 1 and nothing on stdout", code, out, errs)
	}
}

func TestBlocksWarnWithin(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	start, _ := time.Parse(time.RFC3339, b.StartDate)
	end, _ := time.Parse(time.RFC3339, b.EndDate)
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "45m"}

	// Scheduled: its end is within 72 h, but nothing runs in it yet.
	cs.Emulator.SetTime(start.Add(-time.Hour))
	if rows := cli.Reservations(t, cs.URL); rows[0].State != "scheduled" {
		t.Fatalf("want a scheduled block: %+v", rows[0])
	}
	if code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "72h"); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("scheduled block: exit %d, stderr %q", code, errs)
	}

	// Active, ending in 50 minutes: its end is outside a 45-minute window, but by default
	// the check measures to the extension cutoff (passed 10 minutes ago), and with
	// --warn-of termination to the termination's start, 20 minutes away.
	cs.Emulator.SetTime(end.Add(-50 * time.Minute))
	code, _, errs := cli.Run(args...)
	if code != ExitWarning || !strings.Contains(errs, "extension cutoff "+end.Add(-time.Hour).Format("15:04")+" UTC (passed 10m ago)") {
		t.Errorf("50 minutes left, default moment: exit %d, stderr %q; want 3 and the cutoff named", code, errs)
	}
	code, _, errs = cli.Run(append(args, "--warn-of", "termination")...)
	if code != ExitWarning || !strings.Contains(errs, "instances stop "+end.Add(-30*time.Minute).Format("15:04")+" UTC (in 20m)") {
		t.Errorf("50 minutes left, --warn-of termination: exit %d, stderr %q; want 3 and the termination named", code, errs)
	}
	// An hour and 50 minutes left: the cutoff is 50 minutes away, outside 45.
	cs.Emulator.SetTime(end.Add(-110 * time.Minute))
	if code, _, errs := cli.Run(args...); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("1h50m left: exit %d, stderr %q", code, errs)
	}
	cs.Emulator.SetTime(end.Add(-50 * time.Minute))
	code, out, errs := cli.Run(append(args, "--warn-of", "end")...)
	if code != 0 || strings.Contains(errs, "WARNING") || !strings.Contains(out, "ends in 50m") {
		t.Errorf("50 minutes left: exit %d, stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, "TERMINATES (UTC)") || !strings.Contains(out, end.Add(-30*time.Minute).Format("2006-01-02 15:04")) {
		t.Errorf("the table lacks the termination time:\n%s", out)
	}

	// Active, ending in 40 minutes: exit 3, and the block is named.
	cs.Emulator.SetTime(end.Add(-40 * time.Minute))
	code, out, errs = cli.Run(args...)
	warn := "WARNING: " + b.CapacityReservationId + "  us-east-1  p5.48xlarge × 2  ends " + end.Format("2006-01-02 15:04") + " UTC  in 40m"
	if code != ExitWarning || !strings.Contains(errs, warn) || !strings.Contains(out, b.CapacityReservationId) {
		t.Errorf("40 minutes left: exit %d, stderr %q, want %q", code, errs, warn)
	}
	// JSON output is unchanged by the warning, which goes to stderr.
	code, out, errs = cli.Run(append(args, "-o", "json")...)
	var rows []printers.BlockJSON
	if code != ExitWarning || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || !strings.Contains(errs, b.CapacityReservationId) {
		t.Errorf("json: exit %d, stderr %q\n%s", code, errs, out)
	}

	// Expired: nothing left to warn about.
	cs.Emulator.SetTime(end.Add(time.Minute))
	if code, _, errs := cli.Run(args...); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("expired block: exit %d, stderr %q", code, errs)
	}
}

func TestBlocksWatch(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	end, _ := time.Parse(time.RFC3339, b.EndDate)
	cs.Emulator.SetTime(end.Add(-40 * time.Minute))
	code, got, errs := cli.Watch(context.Background(), 2, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s", "--warn-within", "45m")
	if n := cmdtest.Refreshes(got); n < 2 {
		t.Fatalf("%d refreshes printed, want at least 2:\n%s", n, got)
	}
	if n := strings.Count(got, b.CapacityReservationId); n < 2 {
		t.Errorf("the block is in %d refreshes, want at least 2:\n%s", n, got)
	}
	if code != ExitWarning || strings.Count(errs, "WARNING: "+b.CapacityReservationId) < 2 {
		t.Errorf("exit %d, want %d with a warning per refresh; stderr:\n%s", code, ExitWarning, errs)
	}
}

// cli runs `gpublock blocks` as the program does, with the commands its tests run to buy
// what it acts on, to launch into it and to place the orders a watch fills.
var cli = cmdtest.NewCLI(NewCmdBlocks, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(launch.NewCmdLaunch),
	cmdtest.Cmd(order.NewCmdOrder))

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

// A block whose payment failed never starts: the table gives it no countdown and no
// termination time.
func TestBlocksPaymentFailedHasNoCountdown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Fault(t, "payfail=1"))
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.Advance(10 * time.Minute) // past the payment
	code, table, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
	var row string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, b.CapacityReservationId) {
			row = l
		}
	}
	if code != 0 || !strings.Contains(row, "payment-failed") {
		t.Fatalf("exit %d, stderr %q, no payment-failed row for %s:\n%s", code, errs, b.CapacityReservationId, table)
	}
	termination := cmdtest.MustTime(t, b.EndDate).Add(-30 * time.Minute).Format("2006-01-02 15:04")
	if !strings.Contains(row, "will not start") || strings.Contains(row, "starts in") || strings.Contains(row, termination) {
		t.Errorf("a payment-failed block with a countdown or a termination time:\n%s", row)
	}
}

// listed parses `blocks -o json`, failing the test unless it is a list.
func listed(t *testing.T, out string) []printers.BlockJSON {
	t.Helper()
	var rows []printers.BlockJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not a JSON list: %v\n%s", err, out)
	}
	return rows
}

func accountsOf(rows []printers.BlockJSON) map[string]int {
	got := map[string]int{}
	for _, r := range rows {
		got[r.Account]++
	}
	return got
}

// Two emulators stand for two accounts, each reached by its profile's own endpoint_url:
// `blocks --profile a,b` lists both accounts' blocks, each with its account; with one
// emulator gone the other's are still listed and the failed account is named on stderr.
func TestBlocksListsEveryAccount(t *testing.T) {
	accts := cmdtest.StartAccounts(t, "111122223333", "222233334444")
	cli.AsPerson(t, false, "")
	cli.BuyAs(t, "a")
	cli.BuyAs(t, "b")

	code, out, errs := cli.Run("blocks", "--profile", "a,b", "--region", "us-east-1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if got := accountsOf(listed(t, out)); len(got) != 2 || got["111122223333"] != 1 || got["222233334444"] != 1 {
		t.Errorf("accounts of the blocks: %v\n%s", got, out)
	}

	// One account alone has no ACCOUNT column; two have one, each row its own account.
	code, out, _ = cli.Run("blocks", "--profile", "a", "--region", "us-east-1")
	if code != 0 || strings.Contains(out, "ACCOUNT") || !strings.Contains(out, "RESERVATION") {
		t.Errorf("one account: exit %d\n%s", code, out)
	}
	code, out, _ = cli.Run("blocks", "--profile", "a,b", "--region", "us-east-1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ACCOUNT ") ||
		!strings.HasPrefix(lines[1], "111122223333 ") || !strings.HasPrefix(lines[2], "222233334444 ") {
		t.Errorf("two accounts: exit %d\n%s", code, out)
	}

	// The same through the configuration file's accounts, without --profile.
	cmdtest.WriteConfig(t, "accounts:\n  - profile: a\n    regions: [us-east-1]\n  - {profile: b, regions: [us-east-1, us-west-2]}\n")
	code, out, errs = cli.Run("blocks", "-o", "json")
	if got := accountsOf(listed(t, out)); code != 0 || len(got) != 2 {
		t.Errorf("configuration's accounts: exit %d, accounts %v\n%s", code, got, errs)
	}

	// The configuration file's endpoint_url reaches an account whose profile has none.
	cfg := os.Getenv("AWS_CONFIG_FILE")
	if err := os.WriteFile(cfg, []byte("[profile a]\nregion = us-east-1\n\n[profile b]\nregion = us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmdtest.WriteConfig(t, "accounts:\n  - {profile: a, endpoint_url: \""+accts[0].Sim.URL+"\"}\n  - {profile: b, endpoint_url: \""+accts[1].Sim.URL+"\"}\n")
	code, out, errs = cli.Run("blocks", "--region", "us-east-1", "-o", "json")
	if got := accountsOf(listed(t, out)); code != 0 || len(got) != 2 || got["222233334444"] != 1 {
		t.Errorf("the configuration's endpoints: exit %d, accounts %v\n%s", code, got, errs)
	}

	// Account b's emulator goes away: a's block is still listed, b is named as failed.
	t.Setenv("AWS_MAX_ATTEMPTS", "1") // a refused connection would only be retried
	accts[1].Sim.Stop()
	code, out, errs = cli.Run("blocks", "--profile", "a,b", "--region", "us-east-1", "-o", "json")
	rows := listed(t, out)
	if code != 1 || len(rows) != 1 || rows[0].Account != "111122223333" {
		t.Errorf("b down: exit %d, rows %+v\n%s", code, rows, errs)
	}
	if !strings.Contains(errs, "profile b") || !strings.Contains(errs, "the list is incomplete") || strings.Contains(errs, "profile a") {
		t.Errorf("b down: stderr does not name account b alone:\n%s", errs)
	}
	// The table says it too, under the rows of a.
	code, out, _ = cli.Run("blocks", "--profile", "a,b", "--region", "us-east-1")
	if code != 1 || !strings.Contains(out, "111122223333 ") {
		t.Errorf("b down, table: exit %d\n%s", code, out)
	}

	// With both gone nothing is printed: an empty list would read as "no blocks".
	accts[0].Sim.Stop()
	code, out, errs = cli.Run("blocks", "--profile", "a,b", "--region", "us-east-1", "-o", "json")
	if code != 1 || out != "" || !strings.Contains(errs, "every account failed") {
		t.Errorf("both down: exit %d, stdout %q\n%s", code, out, errs)
	}
}

// spenders are the commands that spend, beside blocks.
var spenders = cmdtest.NewCLI(NewCmdBlocks, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(launch.NewCmdLaunch), cmdtest.Cmd(extend.NewCmdExtend))

// Only a listing reads several accounts: a command that spends is given one.
func TestSpendingCommandsRefuseSeveralProfiles(t *testing.T) {
	cmdtest.StartAccounts(t, "111122223333", "222233334444")
	for _, args := range [][]string{
		append([]string{"purchase", "cbr-0123456789abcdef0", "--profile", "a,b"}, cmdtest.PurchaseSearch...),
		{"launch", "cr-0123456789abcdef0", "--profile", "a,b", "--region", "us-east-1", "--ami", cmdtest.AMI, "--yes"},
		{"extend", "cr-0123456789abcdef0", "--profile", "a,b", "--region", "us-east-1", "--duration", "1d", "--yes"},
		{"extend", "cr-0123456789abcdef0", "--profile", "a,b", "--region", "us-east-1", "--list"},
		{"blocks", "--profile", "a,b", "--watch", "--auto-extend", "1d"},
	} {
		code, out, errs := spenders.Run(args...)
		if code != 2 || out != "" || !strings.Contains(errs, "give one") || !strings.Contains(errs, "profile") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, bad := range []string{"a,,b", "a,a", ","} {
		if code, _, errs := cli.Run("blocks", "--profile", bad); code != 2 || !strings.Contains(errs, "--profile") {
			t.Errorf("--profile %q: exit %d, %q", bad, code, errs)
		}
	}
}

// With organization: true the listing states the organization's instances against AWS's cap:
// a line under the table, and beside the JSON list on stderr.
func TestBlocksStatesTheOrganizationsCap(t *testing.T) {
	cmdtest.StartAccounts(t, "111122223333", "222233334444")
	cli.AsPerson(t, false, "")
	o := cli.BuyAs(t, "a")
	cli.BuyAs(t, "b")
	cmdtest.WriteConfig(t, "organization: true\naccounts: [{profile: a}, {profile: b}]\n")

	code, out, errs := cli.Run("blocks", "--region", "us-east-1")
	if code != 0 || !strings.Contains(out, "organization: at most 4 of 256 Capacity Block instances on "+o.StartDate[:10]) {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	// One of the two accounts listed: its figures are said to be possibly low.
	if _, out, _ := cli.Run("blocks", "--profile", "a", "--region", "us-east-1"); !strings.Contains(out, "organization: at most 2 of 256") || !strings.Contains(out, model.IncompleteNote) {
		t.Errorf("--profile a of a and b:\n%s", out)
	}
	// Under it, what is held per date: the blocks' first date among them.
	if !strings.Contains(out, "\n  "+o.StartDate[:10]) || !strings.Contains(out, "4 of 256\n") {
		t.Errorf("no figures per date under the line:\n%s", out)
	}
	// JSON stays the list it is without the setting; the figures go to stderr.
	code, out, errs = cli.Run("blocks", "--region", "us-east-1", "-o", "json")
	if rows := listed(t, out); code != 0 || len(rows) != 2 || !strings.Contains(errs, "organization: at most 4 of 256 Capacity Block instances on "+o.StartDate[:10]) {
		t.Errorf("-o json: exit %d, %d blocks, stderr %q", code, len(rows), errs)
	}
}

// buyElsewhere buys a p5.48xlarge block in the region with a client of its own journal:
// another machine's purchase.
func buyElsewhere(t *testing.T, url, region string) string {
	t.Helper()
	c := cmdtest.Client(t, url)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: cmdtest.SimStart, End: cmdtest.SimStart.AddDate(0, 0, 14), Regions: []string{region}}
	var offer *model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && offer == nil {
			offer = &ev.Offerings[0]
		}
	}
	if offer == nil {
		t.Fatalf("nothing to buy in %s", region)
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), *offer, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Block.ReservationID
}

// Blocks bought in three regions by another process appear on a fresh start (an empty
// state directory, no --region), with what the screen shows: tags, the countdown, the
// warnings, and the fee paid only where this machine bought the block.
func TestBlocksEveryRegionOnAFreshStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	want := map[string]string{}
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-east-2"} {
		want[buyElsewhere(t, cs.URL, r)] = r
	}
	mine := cli.BoughtBlock(t, cs) // this machine's, in us-east-1

	rows := cmdtest.RunJSON[[]printers.BlockJSON](t, cli, "blocks", "--endpoint-url", cs.URL, "-o", "json")
	if len(rows) != 4 {
		t.Fatalf("%d blocks listed, want 4: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if r.CapacityReservationId == mine.CapacityReservationId {
			if r.FeePaid == "" || !strings.HasPrefix(r.Countdown, "starts in") || len(r.Tags) == 0 || r.Warnings == nil {
				t.Errorf("this machine's block: fee %q, countdown %q, tags %v, warnings %v", r.FeePaid, r.Countdown, r.Tags, r.Warnings)
			}
			continue
		}
		if want[r.CapacityReservationId] != r.Region {
			t.Errorf("%s listed in %s, want %s", r.CapacityReservationId, r.Region, want[r.CapacityReservationId])
		}
		if r.FeePaid != "" {
			t.Errorf("%s bought elsewhere shows a fee paid: %s", r.CapacityReservationId, r.FeePaid)
		}
	}
	// The same in the table: every region, a WARNING column.
	code, table, _ := cli.Run("blocks", "--endpoint-url", cs.URL)
	for id := range want {
		if code != 0 || !strings.Contains(table, id) || !strings.Contains(table, "WARNING") {
			t.Errorf("the table lacks %s or its WARNING column (exit %d):\n%s", id, code, table)
		}
	}
}

// Run by cron through a block's last day, `blocks` sends every warning once, at its lead,
// to the command and to the webhook; a run with nothing new sends nothing.
func TestBlocksNotifyEachWarningOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	end := cmdtest.MustTime(t, b.EndDate)
	h := cmdtest.StartHook(t)
	log := filepath.Join(t.TempDir(), "notify.log")
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-leads", "24h,2h",
		"--notify-url", h.URL + "/services/T0/B0/SECRETTOKEN", "--notify-cmd", `echo "$GPUBLOCK_WARNING $GPUBLOCK_LEAD" >> ` + log}
	steps := []struct {
		before time.Duration
		news   []string
	}{
		{25 * time.Hour, []string{"idle"}},
		{23 * time.Hour, []string{"extend-by/24h"}},
		{22 * time.Hour, nil},
		{90 * time.Minute, []string{"extend-by/2h"}},
		{50 * time.Minute, []string{"cant-extend"}},
		{35 * time.Minute, []string{"expiring"}},
		{20 * time.Minute, []string{"terminating"}},
		{10 * time.Minute, nil},
	}
	var wantAll []string
	for _, st := range steps {
		cs.Emulator.SetTime(end.Add(-st.before))
		h.Mu.Lock()
		before := len(h.Kinds)
		h.Mu.Unlock()
		code, _, errs := cli.Run(args...)
		if code != 0 || strings.Contains(errs, "SECRETTOKEN") {
			t.Fatalf("%s before the end: exit %d, stderr %q", st.before, code, errs)
		}
		h.Mu.Lock()
		got := append([]string(nil), h.Kinds[before:]...)
		h.Mu.Unlock()
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(st.news, ",") {
			t.Errorf("%s before the end the webhook got %v, want %v", st.before, got, st.news)
		}
		wantAll = append(wantAll, st.news...)
	}
	lines, _ := os.ReadFile(log)
	var cmdKinds []string
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		k, lead, _ := strings.Cut(l, " ")
		if lead != "" {
			k += "/" + lead
		}
		cmdKinds = append(cmdKinds, k)
	}
	if strings.Join(cmdKinds, ",") != strings.Join(wantAll, ",") {
		t.Errorf("the command ran for %v, want %v", cmdKinds, wantAll)
	}
	h.Mu.Lock()
	defer h.Mu.Unlock()
	for _, text := range h.Texts {
		if !strings.Contains(text, b.CapacityReservationId) {
			t.Errorf("text without the reservation: %q", text)
		}
	}
}

// A webhook that cannot be reached is reported on stderr without its secret, and the
// listing is printed and exits as it would without it.
func TestBlocksNotifyFailureReportedWithoutSecret(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ExpiringBlock(t, cs)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	cli.Tweak(t, func(f *cmdutil.Factory) { f.Notify.Backoff = time.Millisecond })
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", url+"/hooks/SECRETTOKEN")
	if code != 0 || !strings.Contains(out, b.CapacityReservationId) {
		t.Errorf("exit %d\n%s", code, out)
	}
	if !strings.Contains(errs, "notify:") || strings.Contains(errs, "SECRETTOKEN") || strings.Contains(errs, "/hooks") {
		t.Errorf("stderr %q: want the failure reported without the URL's path", errs)
	}
	for _, bad := range [][]string{{"--notify-url", "ftp://x/SECRET"}, {"--warn-leads", "soon"}, {"--warn-leads", "24h,"}} {
		code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1"}, bad...)...)
		if code != 2 || strings.Contains(errs, "SECRET") {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// A watch sends each warning once, however many refreshes see it.
func TestBlocksWatchNotifiesOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.ExpiringBlock(t, cs)
	h := cmdtest.StartHook(t)
	code, out, errs := cli.Watch(context.Background(), 3, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s", "--notify-url", h.URL+"/x")
	if code != 0 || cmdtest.Refreshes(out) < 3 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the webhook got %s over 3 refreshes, want can't extend and expiring once each", got)
	}
}

// A record of warnings sent that cannot be written (a directory in its place) is said on
// stderr and fails the run (exit 1), and the warning still goes out once.
func TestBlocksNotifyRecordUnwritable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ExpiringBlock(t, cs)
	h := cmdtest.StartHook(t)
	state := filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "notified.json")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", h.URL + "/x"}
	code, out, errs := cli.Run(args...)
	if code != 1 || !strings.Contains(out, b.CapacityReservationId) || !strings.Contains(errs, "cannot be kept") || !strings.Contains(errs, "notified.json") {
		t.Fatalf("exit %d (want 1), stderr %q", code, errs)
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the webhook got %s, want each warning once", got)
	}
}

// A webhook that hangs holds a one-shot run up for the one-shot bound only; the failure
// says it timed out, and the next run sends the warning again.
func TestBlocksHungWebhookBounded(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.ExpiringBlock(t, cs)
	var hang atomic.Bool
	hang.Store(true)
	h := &cmdtest.Hook{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			io.Copy(io.Discard, r.Body) // so that the server notices the client giving up
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cli.Tweak(t, func(f *cmdutil.Factory) {
		f.Notify = cmdutil.NotifyTimings{Backoff: 50 * time.Millisecond, OneShotTimeout: 200 * time.Millisecond, OneShotGrace: 700 * time.Millisecond}
	})
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", srv.URL + "/x"}
	start := time.Now()
	code, _, errs := cli.Run(args...)
	if took := time.Since(start); took > 5*time.Second || code != 0 || !strings.Contains(errs, "timed out") || !strings.Contains(errs, "next run") {
		t.Fatalf("took %s, exit %d, stderr %q", took, code, errs)
	}
	hang.Store(false)
	if code, _, errs := cli.Run(args...); code != 0 {
		t.Fatalf("the next run: exit %d, %q", code, errs)
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the next run delivered %s, want the warnings that timed out", got)
	}
}

// Instances terminated at a block's end stay in its listing while AWS lists them (about an
// hour), with when they stopped; the ids of the live ones are InstanceIds.
func TestBlocksKeepTerminatedInstances(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.RunningBlock(t, cs)
	end := cmdtest.MustTime(t, b.EndDate)
	if r := cli.ListedBlock(t, cs.URL); len(r.Instances) != 1 || (r.Instances[0].State != "running" && r.Instances[0].State != "pending") || r.Instances[0].StoppedTime != "" || len(r.InstanceIds) != 1 {
		t.Fatalf("running: %+v / %v", r.Instances, r.InstanceIds)
	}
	cs.Emulator.SetTime(end.Add(-10 * time.Minute))
	r := cli.ListedBlock(t, cs.URL)
	stopped := end.Add(-30 * time.Minute).UTC().Format(time.RFC3339)
	if len(r.Instances) != 1 || r.Instances[0].State != "terminated" || r.Instances[0].StoppedTime != stopped || len(r.InstanceIds) != 0 {
		t.Errorf("after the termination: %+v / %v; want it terminated at %s, and no live id", r.Instances, r.InstanceIds, stopped)
	}
}
