package main

import (
	"os"
	"path/filepath"

	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"

	"github.com/gpublock/gpublock/cmd/internal/config"
)

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
