package blocks

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmd/extend"
	"github.com/gpublock/gpublock/cmd/internal/cmd/launch"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

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
