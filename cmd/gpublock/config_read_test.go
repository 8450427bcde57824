package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// A money key given blank is an error at its line, in either format, never "no cap"; a
// blank value for a key with no money in it stays "not given".
func TestConfigBlankMaxSpendIsRefusedAtItsLine(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"config.yaml", "read_only: false\nmax_spend: \"\"\n", `line 2: max_spend "" is blank`},
		{"config.yaml", "max_spend: \"  \"\n", `line 1: max_spend "  " is blank`},
		{"config.yaml", "max_spend: ''\n", `line 1: max_spend "" is blank`},
		{"config.json", "{\"read_only\": false,\n \"max_spend\": \"\"}", `line 2: max_spend "" is blank`},
		{"config.json", "{\"max_spend\": \" \"}", `line 1: max_spend " " is blank`},
	} {
		p := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := config.Load(p)
		if err == nil || !strings.Contains(err.Error(), p+", "+tc.want) || !strings.Contains(err.Error(), "leave the key out for no cap") {
			t.Errorf("%s %q: %+v, %v; want %s, %s", tc.name, tc.body, c, err, p, tc.want)
		}
	}
	if c, err := config.Load(writeYAMLConfig(t, "ami: \"\"\n")); err != nil || c.AMI != "" {
		t.Errorf(`ami: "": %+v, %v`, c, err)
	}
}

// A command that spends refuses a blank cap in the file before any call, instead of buying
// without a cap.
func TestPurchaseRefusesABlankCapInTheFile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := pickOffering(t, cs.URL)
	dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte("max_spend: \"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := cs.Calls.Load()
	code, out, errs := runCLI(purchaseArgsFor(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	if code != 2 || out != "" || !strings.Contains(errs, p+", line 1: max_spend \"\" is blank") {
		t.Errorf("purchase under a blank max_spend: exit %d, stdout %q\n%s", code, out, errs)
	}
	if n := cs.Calls.Load() - before; n != 0 {
		t.Errorf("%d calls to AWS under a refused configuration", n)
	}
	if err := os.Remove(p); err != nil { // blocks, which lists them, reads the file too
		t.Fatal(err)
	}
	if rows := reservations(t, cs.URL); len(rows) != 0 {
		t.Fatalf("bought under a blank cap: %+v", rows)
	}
}

// A tab in the indentation, a control character or bytes that are not UTF-8 are named
// with their line (yaml.v3 names none for the last two, and the line before for a tab).
func TestConfigTabsAndControlCharactersNameTheLine(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"config.yaml", "\tread_only: true\n", "line 1: a tab in the indentation"},
		{"config.yaml", "tags:\n  a: b\n\t  c: d\n", "line 3: a tab in the indentation"},
		{"config.yaml", "tags:\n\tproject: llm\n", "line 2: a tab in the indentation"},
		{"config.yaml", "read_only: true\nami: \"ami-\x01x\"\n", "line 2, column 11: control character U+0001"},
		{"config.yaml", "read_only: true\n\nmax_spend: 5\x7f\n", "line 3, column 13: control character U+007F"},
		{"config.yaml", "ami: ami-\x00\n", "line 1, column 10: control character U+0000"},
		{"config.yaml", "read_only: true\nami: \"\xff\"\n", "line 2, column 7: byte 0xFF is not UTF-8"},
		{"config.json", "{\"read_only\": true,\n\"ami\": \"ami-\x1b[31m\"}", "line 2, column 13: control character U+001B"},
	} {
		p := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := config.Load(p)
		if err == nil || !strings.Contains(err.Error(), p+", "+tc.want) {
			t.Errorf("%q: %v; want %s, %s", tc.body, err, p, tc.want)
		}
	}
	// Tabs where YAML and JSON allow them are no error.
	for _, body := range []string{"read_only:\ttrue\t# on\n", "tags: {a:\tb}\n", "notify_cmd: |\n  echo\tok\n"} {
		if _, err := config.Load(writeYAMLConfig(t, body)); err != nil {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// A file past the size limit is refused, and the message says the limit.
func TestConfigLargerThanTheLimitIsRefused(t *testing.T) {
	body := "read_only: true\n" + strings.Repeat("# padding\n", config.MaxSize/10+1)
	p := writeYAMLConfig(t, body)
	_, err := config.Load(p)
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("%d bytes: %v", len(body), err)
	}
	p = writeYAMLConfig(t, "read_only: true\n"+strings.Repeat("#", config.MaxSize-len("read_only: true\n")))
	if c, err := config.Load(p); err != nil || !c.ReadOnly {
		t.Errorf("exactly 1 MiB: %+v, %v", c, err)
	}
	// A directory in the file's place is named as one.
	d := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(d); err == nil || !strings.Contains(err.Error(), d+": it is a directory") {
		t.Errorf("directory: %v", err)
	}
}
