package main

// The configuration file: its spending rules (read_only, max_spend) hold at the command line,
// the older JSON file until config init moves it, and --read-only before any call.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// writeUserConfig writes $XDG_CONFIG_HOME/gpublock/config.json, the older file the commands
// still read where there is no config.yaml (cmdtest.WriteConfig).
func writeUserConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock", "config.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The configuration file's read_only and max_spend hold at the command line too: a script
// with --yes does not buy past a promise written in the file.
func TestCommandsKeepTheConfigurationsSpendingRules(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	path := writeUserConfig(t, `{"read_only": true}`)
	before := cs.Calls.Load()
	for _, args := range [][]string{
		cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes"),
		cmdtest.ExtendArgs(cs.URL, "cr-0123456789abcdef0", "--yes"),
		cmdtest.LaunchArgs(cs.URL, "cr-0123456789abcdef0", "--yes"),
	} {
		code, out, errs := cli.Run(args...)
		if code != 1 || out != "" || !strings.Contains(errs, `refused: "read_only": true in `+path) || !strings.Contains(errs, "nothing was sent to AWS") {
			t.Errorf("%s with read_only in the file: exit %d, stdout %q\n%s", args[0], code, out, errs)
		}
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("read-only from the file: %d calls", n)
	}
	// A read-only file still lets the searches run.
	if code, _, errs := cli.Run(append([]string{"offerings", "--endpoint-url", cs.URL, "-o", "json"}, cmdtest.PurchaseSearch...)...); code != 0 {
		t.Errorf("offerings under a read-only file: exit %d\n%s", code, errs)
	}

	path = writeUserConfig(t, `{"max_spend": "10"}`)
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, "above the spending cap of $10.00 (max_spend in "+path+")") {
		t.Errorf("max_spend in the file: exit %d, stdout %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 0 {
		t.Fatalf("bought past the file's cap: %+v", rows)
	}
	// The flag's cap wins over the file's.
	code, _, errs = cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--max-spend", "1000000")...)
	if rows := cli.Reservations(t, cs.URL); code != 0 || len(rows) != 1 {
		t.Fatalf("--max-spend over the file's cap: exit %d, %d blocks\n%s", code, len(rows), errs)
	}

	// A damaged file is bad usage before any call, not a promise silently dropped.
	writeUserConfig(t, `{"read_only": tru}`)
	before = cs.Calls.Load()
	code, _, errs = cli.Run(cmdtest.ExtendArgs(cs.URL, "cr-0123456789abcdef0", "--yes")...)
	if code != 2 || !strings.Contains(errs, "gpublock extend: ") || !strings.Contains(errs, "config.json") || cs.Calls.Load() != before {
		t.Errorf("damaged file: exit %d, %d calls\n%s", code, cs.Calls.Load()-before, errs)
	}
}

// With no config.yaml the older config.json is read, and the command says how to move it;
// config init writes the YAML from it, which then is what is read.
func TestJSONConfigIsReadUntilMovedByConfigInit(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	jsonPath := writeUserConfig(t, `{"read_only": true, "max_spend": "10", "tags": {"project": "llm"}, "notify_url": "https://hooks.example.com/services/T/B/secret", "notify_cmd": "curl -H token-secret"}`)
	yamlPath := filepath.Join(filepath.Dir(jsonPath), "config.yaml")

	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, `refused: "read_only": true in `+jsonPath) ||
		!strings.Contains(errs, "run 'gpublock config init'") {
		t.Fatalf("purchase under config.json: exit %d\n%s", code, errs)
	}
	if code, out, errs := cli.Run("config", "path"); code != 0 || strings.TrimSpace(out) != yamlPath || !strings.Contains(errs, "config init") {
		t.Errorf("config path: exit %d, %q\n%s", code, out, errs)
	}

	code, out, errs = cli.Run("config", "init")
	if code != 0 || strings.TrimSpace(out) != yamlPath || !strings.Contains(errs, "delete it") {
		t.Fatalf("config init: exit %d, %q\n%s", code, out, errs)
	}
	st, err := os.Stat(yamlPath)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config.yaml: %v, %v", st, err)
	}
	c, err := config.Load(yamlPath)
	if err != nil || !c.ReadOnly || c.MaxSpend != "10" || c.Tags["project"] != "llm" || c.NotifyURL != "https://hooks.example.com/services/T/B/secret" || c.NotifyCmd != "curl -H token-secret" {
		t.Fatalf("moved: %+v, %v", c, err)
	}
	// Moved: the YAML is read and nothing more is said about the JSON file.
	code, _, errs = cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "refused: read_only: true in "+yamlPath) || strings.Contains(errs, "config init") {
		t.Errorf("purchase under config.yaml: exit %d\n%s", code, errs)
	}
	// A second init keeps the file the person may have edited.
	if code, _, errs := cli.Run("config", "init"); code != 1 || !strings.Contains(errs, "exists") {
		t.Errorf("second init: exit %d\n%s", code, errs)
	}
	// show checks and prints the file, the webhook's secret path left out.
	code, out, errs = cli.Run("config", "show")
	if code != 0 || !strings.Contains(out, "read_only: true") || !strings.Contains(out, `max_spend: "10"`) ||
		!strings.Contains(out, "https://hooks.example.com/…") || !strings.Contains(out, "notify_cmd: curl …") || strings.Contains(out, "secret") {
		t.Errorf("config show: exit %d\n%s\n%s", code, out, errs)
	}
	if err := os.WriteFile(yamlPath, []byte("read_only: true\nread_only: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := cli.Run("config", "show"); code != 2 || out != "" || !strings.Contains(errs, yamlPath+", line 2: key read_only given twice") {
		t.Errorf("config show of a damaged file: exit %d, %q\n%s", code, out, errs)
	}
	for _, args := range [][]string{{"config", "bogus"}, {"config", "show", "extra"}, {"config", "init", "--bogus"}, {"config", "show", "--region", "us-east-1"}, {"config"}} {
		code, out, errs := cli.Run(args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "gpublock config") || !strings.Contains(errs, "--help' for its flags.") || strings.Count(errs, "\n") != 2 {
			t.Errorf("%v: exit %d, stdout %q\n%s", args, code, out, errs)
		}
	}
}

// A command that spends refuses a blank cap in the file before any call, instead of buying
// without a cap.
func TestPurchaseRefusesABlankCapInTheFile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	p := cmdtest.WriteConfig(t, "max_spend: \"\"\n")
	before := cs.Calls.Load()
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 2 || out != "" || !strings.Contains(errs, p+", line 1: max_spend \"\" is blank") {
		t.Errorf("purchase under a blank max_spend: exit %d, stdout %q\n%s", code, out, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%d calls to AWS under a refused configuration", n)
	}
	if err := os.Remove(p); err != nil { // blocks, which lists them, reads the file too
		t.Fatal(err)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 0 {
		t.Fatalf("bought under a blank cap: %+v", rows)
	}
}

// --read-only refuses a purchase, an extension and a launch before any call, so nobody is
// shown a confirmation for something that would be refused; a dry run still runs.
func TestReadOnlyRefusesBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, true, "buy\nextend\nlaunch\n")
	for _, args := range [][]string{
		append([]string{"purchase", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--read-only"}, cmdtest.PurchaseSearch...),
		{"extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--duration", "1d", "--read-only"},
		{"launch", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--ami", "ami-0123456789abcdef0", "--read-only", "--yes"},
	} {
		before := cs.Calls.Load()
		code, out, errs := cli.Run(args...)
		if code != 1 || out != "" || !strings.Contains(errs, "--read-only") || strings.Contains(errs, "Type ") {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", args[0], code, out, errs)
		}
		if n := cs.Calls.Load() - before; n != 0 {
			t.Errorf("%s --read-only made %d calls", args[0], n)
		}
	}
	before := cs.Calls.Load()
	code, out, errs := cli.Run("purchase", "cbr-0123456789abcdef0", "--endpoint-url", cs.URL, "--region", "us-east-1", "--read-only", "--dry-run")
	if code == 2 || strings.Contains(errs, "refused: --read-only") || cs.Calls.Load() == before {
		t.Errorf("--read-only --dry-run did not ask AWS: exit %d, %q, %q", code, out, errs)
	}
}
