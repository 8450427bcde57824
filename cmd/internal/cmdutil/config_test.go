package cmdutil_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

func TestTUIConfig(t *testing.T) {
	c, err := cmdutil.LoadConfig(filepath.Join(t.TempDir(), "missing.json"))
	if err != nil || c.ReadOnly || c.MaxSpend != "" || len(c.Tags) != 0 {
		t.Fatalf("missing file: %+v, %v", c, err)
	}
	c, err = cmdutil.LoadConfig(cmdtest.TempFile(t, "config.json", `{"read_only": true, "max_spend": "$25,000", "ami": "ami-0abc", "tags": {"project": "llm", "cost-center": "42"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var f cmdutil.AWSFlags
	s := cmdutil.ApplyTUIConfig(&f, c)
	if !s.ReadOnly || !f.ReadOnly || s.MaxSpend == nil || s.MaxSpend.Dollars() != "$25,000.00" || f.MaxSpend != "$25,000" ||
		s.AMI != "ami-0abc" || s.Tags["project"] != "llm" || s.Tags["cost-center"] != "42" {
		t.Errorf("merged: %+v, flags %+v", s, f)
	}
	// A flag's cap wins over the file's; the file's read-only holds without the flag.
	f = cmdutil.AWSFlags{MaxSpend: "100"}
	s = cmdutil.ApplyTUIConfig(&f, c)
	if s.MaxSpend == nil || s.MaxSpend.Dollars() != "$100.00" || !s.ReadOnly {
		t.Errorf("flag over file: %+v", s)
	}
}

func TestTUIConfigRefusesDamage(t *testing.T) {
	for body, want := range map[string]string{
		`{"read_only": tru}`:                    "invalid character",
		`{"readonly": true}`:                    "allowed keys",
		`{"max_spend": "lots"}`:                 "max_spend",
		`{"max_spend": "-5"}`:                   "max_spend",
		`{"max_spend": "2601.109"}`:             "at most two decimals",
		`{"ami": "ubuntu"}`:                     "ami",
		`{"tags": {"aws:owner": "me"}}`:         "reserved",
		`{"tags": {"gpublock:request-id": ""}}`: "set by gpublock",
	} {
		if _, err := cmdutil.LoadConfig(cmdtest.TempFile(t, "config.json", body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", body, err, want)
		}
	}
}

// A duplicate key, a null and money that is not written as money are errors naming the
// file, the key and the line: encoding/json alone takes the last of two keys.
func TestTUIConfigRefusesDuplicatesNullsAndBadMoney(t *testing.T) {
	for body, want := range map[string][]string{
		"{\n  \"read_only\": true,\n  \"read_only\": false\n}": {"line 3", "read_only given twice", "first on line 2"},
		"{\"read_only\": null}":                                {"line 1", "read_only is null"},
		"{\"ami\": \"ami-1\",\n\"max_spend\": null}":           {"line 2", "max_spend is null"},
		"{\"tags\": {\"a\": \"1\",\n \"a\": \"2\"}}":           {"line 2", "tags.a given twice"},
		"{\"tags\": {\"a\": null}}":                            {"tags.a is null"},
		"{\n\"max_spend\": \"25 000\"}":                        {"line 2", "max_spend \"25 000\""},
		"{\"max_spend\": \" 25000\"}":                          {"line 1", "max_spend"},
		"{\"max_spend\": \"100,00\"}":                          {"line 1", "max_spend \"100,00\"", "groups of three"},
		"{\n\n\"read_only\": \"yes\"}":                         {"line 3", "read_only"},
	} {
		p := cmdtest.TempFile(t, "config.json", body)
		_, err := cmdutil.LoadConfig(p)
		if err == nil {
			t.Errorf("%q: accepted", body)
			continue
		}
		for _, w := range append(want, p) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want %q in it", body, err, w)
			}
		}
		if strings.Contains(err.Error(), "--max-spend") {
			t.Errorf("%q: %v blames a flag that was not given", body, err)
		}
	}
}

// The rules of values that belong to other packages (the TUI's themes, the notifier's
// targets, the demo's rate limits) hold when the commands read the file, with the key's line;
// the configuration package alone only reads them.
func TestLoadConfigChecksOtherPackagesValues(t *testing.T) {
	for body, want := range map[string]string{
		"read_only: true\ntheme: blue\n": "line 2: ",
		"notify_url: ftp://x\n":          "line 1: notify_url: want an http",
		"notify_cmd: \" \"\n":            "line 1: notify_cmd is empty",
		"\ndemo_rate_limits: fast\n":     "line 2: demo_rate_limits: \"fast\": want aws, off",
	} {
		p := cmdtest.TempFile(t, "config.yaml", body)
		_, err := cmdutil.LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), p+", "+want) || strings.Contains(err.Error(), "--") {
			t.Errorf("%q: %v, want the file and %q", body, err, want)
		}
		if _, err := config.Load(p); err != nil {
			t.Errorf("%q: the configuration package refuses it (%v); its rule is the command layer's", body, err)
		}
	}
}
