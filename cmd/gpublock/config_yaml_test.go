package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

func writeYAMLConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestYAMLConfigReadsEveryKey(t *testing.T) {
	p := writeYAMLConfig(t, `# a comment
read_only: true
max_spend: "$25,000"
ami: ami-0abc
tags: {project: llm, cost-center: "42"}
warn_leads: 24h,2h
notify_cmd: echo hi
notify_url: https://hooks.example.com/services/T/B/secret
extend_length: 7d
theme: light
mouse: false
`)
	c, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if !c.ReadOnly || c.MaxSpend != "$25,000" || c.AMI != "ami-0abc" || c.Tags["cost-center"] != "42" || c.Tags["project"] != "llm" ||
		c.WarnLeads != "24h,2h" || c.NotifyCmd != "echo hi" || c.ExtendLength != "7d" || c.Theme != "light" || c.Mouse == nil || *c.Mouse {
		t.Fatalf("read %+v", c)
	}
	var f cmdutil.AWSFlags
	s := cmdutil.ApplyTUIConfig(&f, c)
	if !s.ReadOnly || s.MaxSpend == nil || s.MaxSpend.Dollars() != "$25,000.00" || s.Theme != "light" || s.Mouse == nil || *s.Mouse {
		t.Errorf("merged %+v", s)
	}
	// A number is money as written; an empty file or one of comments only is no configuration.
	if c, err := config.Load(writeYAMLConfig(t, "max_spend: 25000\n")); err != nil || c.MaxSpend != "25000" {
		t.Errorf("max_spend 25000: %+v, %v", c, err)
	}
	for _, body := range []string{"", "# nothing yet\n"} {
		if c, err := config.Load(writeYAMLConfig(t, body)); err != nil || c.ReadOnly || c.MaxSpend != "" {
			t.Errorf("%q: %+v, %v", body, c, err)
		}
	}
}

// Every problem names the file, the line and the key, so that a promise is never lost in
// silence and no flag that was not given is blamed.
func TestYAMLConfigRefusesDamageWithFileKeyAndLine(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"read_only: true\nreadonly: true\n", "line 2: unknown key readonly"},
		{"read_only: true\nread_only: false\n", "line 2: key read_only given twice (first on line 1)"},
		{"ami: ami-0abc\nread_only:\n", "line 2: key read_only is null"},
		{"read_only: ~\n", "line 1: key read_only is null"},
		{"read_only: \"yes\"\n", `line 1: read_only: want true or false, not "yes"`},
		{"mouse: 1\n", `line 1: mouse: want true or false, not "1"`},
		{"\n\nmax_spend: lots\n", "line 3: max_spend"},
		{"max_spend: 2601.109\n", "at most two decimals"},
		{"max_spend: [1, 2]\n", "line 1: max_spend: want a dollar amount"},
		{"tags: [a, b]\n", "line 1: tags: want KEY: VALUE pairs"},
		{"tags:\n  project: llm\n  project: x\n", "line 3: key tags.project given twice"},
		{"tags:\n  owner:\n", "line 2: key tags.owner is null"},
		{"tags: {aws:owner: me}\n", "reserved"},
		{"theme: blue\n", "line 1: "},
		{"ami: ubuntu\n", "line 1: ami \"ubuntu\""},
		{"warn_leads: soon\n", "line 1: warn_leads"},
		{"read_only: true\nextend_length: 99d\n", "line 2: extend_length"},
		{"notify_url: ftp://x\n", "line 1: "},
		{"read_only: [true\n", "line 1"},
		{"- read_only\n", "line 1: want keys and values"},
		{"read_only: true\n---\nread_only: false\n", "line 2: a second YAML document"},
	} {
		p := writeYAMLConfig(t, tc.body)
		_, err := config.Load(p)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "--") {
			t.Errorf("%q: %v, want the file and %q", tc.body, err, tc.want)
		}
	}
}

// With no config.yaml the older config.json is read, and the command says how to move it;
// config init writes the YAML from it, which then is what is read.
func TestJSONConfigIsReadUntilMovedByConfigInit(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := pickOffering(t, cs.URL)
	jsonPath := writeUserConfig(t, `{"read_only": true, "max_spend": "10", "tags": {"project": "llm"}, "notify_url": "https://hooks.example.com/services/T/B/secret", "notify_cmd": "curl -H token-secret"}`)
	yamlPath := filepath.Join(filepath.Dir(jsonPath), "config.yaml")

	code, out, errs := runCLI(purchaseArgsFor(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, `refused: "read_only": true in `+jsonPath) ||
		!strings.Contains(errs, "run 'gpublock config init'") {
		t.Fatalf("purchase under config.json: exit %d\n%s", code, errs)
	}
	if code, out, errs := runCLI("config", "path"); code != 0 || strings.TrimSpace(out) != yamlPath || !strings.Contains(errs, "config init") {
		t.Errorf("config path: exit %d, %q\n%s", code, out, errs)
	}

	code, out, errs = runCLI("config", "init")
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
	code, _, errs = runCLI(purchaseArgsFor(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "refused: read_only: true in "+yamlPath) || strings.Contains(errs, "config init") {
		t.Errorf("purchase under config.yaml: exit %d\n%s", code, errs)
	}
	// A second init keeps the file the person may have edited.
	if code, _, errs := runCLI("config", "init"); code != 1 || !strings.Contains(errs, "exists") {
		t.Errorf("second init: exit %d\n%s", code, errs)
	}
	// show checks and prints the file, the webhook's secret path left out.
	code, out, errs = runCLI("config", "show")
	if code != 0 || !strings.Contains(out, "read_only: true") || !strings.Contains(out, `max_spend: "10"`) ||
		!strings.Contains(out, "https://hooks.example.com/…") || !strings.Contains(out, "notify_cmd: curl …") || strings.Contains(out, "secret") {
		t.Errorf("config show: exit %d\n%s\n%s", code, out, errs)
	}
	if err := os.WriteFile(yamlPath, []byte("read_only: true\nread_only: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI("config", "show"); code != 2 || out != "" || !strings.Contains(errs, yamlPath+", line 2: key read_only given twice") {
		t.Errorf("config show of a damaged file: exit %d, %q\n%s", code, out, errs)
	}
	for _, args := range [][]string{{"config", "bogus"}, {"config", "show", "extra"}, {"config", "init", "--bogus"}, {"config", "show", "--region", "us-east-1"}, {"config"}} {
		code, out, errs := runCLI(args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "gpublock config") || !strings.Contains(errs, "--help' for its flags.") || strings.Count(errs, "\n") != 2 {
			t.Errorf("%v: exit %d, stdout %q\n%s", args, code, out, errs)
		}
	}
}

// Without any file, init writes an example that reads back as no configuration.
func TestConfigInitWritesAnExample(t *testing.T) {
	cmdtest.Env(t)
	code, out, errs := runCLI("config", "init")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile(strings.TrimSpace(out))
	if err != nil || !strings.Contains(string(b), "# theme: auto") {
		t.Fatalf("%s: %v", b, err)
	}
	c, err := config.Load(strings.TrimSpace(out))
	if err != nil || c.ReadOnly || c.MaxSpend != "" || c.Theme != "" {
		t.Errorf("example read back as %+v, %v", c, err)
	}
}

// FuzzYAMLConfig: whatever the file holds, reading it never panics, and what it accepts
// is written by config init as a file that reads back the same.
func FuzzYAMLConfig(f *testing.F) {
	for _, s := range []string{
		"read_only: true\nmax_spend: \"25000\"\ntags: {a: b}\ntheme: dark\nmouse: false\n",
		"read_only: true\nread_only: false\n", "tags: {a: ~}\n", "max_spend: 1e9\n", "&x a: *x\n",
		"warn_leads: 24h,2h\nextend_length: 7d\nnotify_cmd: echo\n", "- 1\n", "{", "---\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var c config.File
		lines, err := config.DecodeYAML([]byte(body), &c)
		if err != nil || c.Check("config.yaml", lines) != nil {
			return
		}
		b, err := config.Marshal(c)
		if err != nil {
			t.Fatalf("%q: accepted as %+v, not written: %v", body, c, err)
		}
		var back config.File
		if _, err := config.DecodeYAML(b, &back); err != nil {
			t.Fatalf("%q: written as %q, which does not read back: %v", body, b, err)
		}
		if len(c.Tags) == 0 {
			c.Tags = nil // tags: {} is written as no tags
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("%q: read %+v, wrote %q, read back %+v", body, c, b, back)
		}
	})
}
