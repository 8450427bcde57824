package config_test

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

func TestYAMLConfigReadsEveryKey(t *testing.T) {
	p := cmdtest.TempFile(t, "config.yaml", `# a comment
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
	if c, err := config.Load(cmdtest.TempFile(t, "config.yaml", "max_spend: 25000\n")); err != nil || c.MaxSpend != "25000" {
		t.Errorf("max_spend 25000: %+v, %v", c, err)
	}
	for _, body := range []string{"", "# nothing yet\n"} {
		if c, err := config.Load(cmdtest.TempFile(t, "config.yaml", body)); err != nil || c.ReadOnly || c.MaxSpend != "" {
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
		{"ami: ubuntu\n", "line 1: ami \"ubuntu\""},
		{"warn_leads: soon\n", "line 1: warn_leads"},
		{"read_only: true\nextend_length: 99d\n", "line 2: extend_length"},
		{"read_only: [true\n", "line 1"},
		{"- read_only\n", "line 1: want keys and values"},
		{"read_only: true\n---\nread_only: false\n", "line 2: a second YAML document"},
	} {
		p := cmdtest.TempFile(t, "config.yaml", tc.body)
		_, err := config.Load(p)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "--") {
			t.Errorf("%q: %v, want the file and %q", tc.body, err, tc.want)
		}
	}
}

// FuzzYAMLConfig: whatever the file holds, reading it never panics, and what it accepts
// is written by config init as a file that reads back the same.
func FuzzYAMLConfig(f *testing.F) {
	for _, s := range []string{
		"read_only: true\nmax_spend: \"25000\"\ntags: {a: b}\ntheme: dark\nmouse: false\n",
		"read_only: true\nread_only: false\n", "tags: {a: ~}\n", "max_spend: 1e9\n", "&x a: *x\n",
		"warn_leads: 24h,2h\nextend_length: 7d\nnotify_cmd: echo\n", "- 1\n", "{", "---\n---\n",
		"organization: true\naccounts: [{profile: a, regions: [us-east-1, us-east-1]}, {profile: b, endpoint_url: \"http://h:1\"}]\n",
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
	if c, err := config.Load(cmdtest.TempFile(t, "config.yaml", "ami: \"\"\n")); err != nil || c.AMI != "" {
		t.Errorf(`ami: "": %+v, %v`, c, err)
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
		if _, err := config.Load(cmdtest.TempFile(t, "config.yaml", body)); err != nil {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// A file past the size limit is refused, and the message says the limit.
func TestConfigLargerThanTheLimitIsRefused(t *testing.T) {
	body := "read_only: true\n" + strings.Repeat("# padding\n", config.MaxSize/10+1)
	p := cmdtest.TempFile(t, "config.yaml", body)
	_, err := config.Load(p)
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("%d bytes: %v", len(body), err)
	}
	p = cmdtest.TempFile(t, "config.yaml", "read_only: true\n"+strings.Repeat("#", config.MaxSize-len("read_only: true\n")))
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

func TestAccessibleKey(t *testing.T) {
	var c config.File
	if _, err := config.DecodeYAML([]byte("accessible: true\n"), &c); err != nil || c.Accessible == nil || !*c.Accessible {
		t.Fatalf("accessible: true read as %v, %v", c.Accessible, err)
	}
	out, err := config.Marshal(c)
	if err != nil || !strings.Contains(string(out), "accessible: true") {
		t.Errorf("written as %q, %v", out, err)
	}
	var d config.File
	if _, err := config.DecodeYAML([]byte("accessible: 1\n"), &d); err == nil {
		t.Error("accessible: 1 was taken")
	}
}
