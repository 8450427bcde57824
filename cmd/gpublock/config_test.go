package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTUIConfig(t *testing.T) {
	c, err := loadTUIConfig(filepath.Join(t.TempDir(), "missing.json"))
	if err != nil || c.ReadOnly || c.MaxSpend != "" || len(c.Tags) != 0 {
		t.Fatalf("missing file: %+v, %v", c, err)
	}
	c, err = loadTUIConfig(writeConfig(t, `{"read_only": true, "max_spend": "$25,000", "ami": "ami-0abc", "tags": {"project": "llm", "cost-center": "42"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var f awsFlags
	s := applyTUIConfig(&f, c)
	if !s.readOnly || !f.readOnly || s.maxSpend == nil || s.maxSpend.Dollars() != "$25,000.00" || f.maxSpend != "$25,000" ||
		s.ami != "ami-0abc" || s.tags["project"] != "llm" || s.tags["cost-center"] != "42" {
		t.Errorf("merged: %+v, flags %+v", s, f)
	}
	// A flag's cap wins over the file's; the file's read-only holds without the flag.
	f = awsFlags{maxSpend: "100"}
	s = applyTUIConfig(&f, c)
	if s.maxSpend == nil || s.maxSpend.Dollars() != "$100.00" || !s.readOnly {
		t.Errorf("flag over file: %+v", s)
	}
}

func TestTUIConfigRefusesDamage(t *testing.T) {
	for body, want := range map[string]string{
		`{"read_only": tru}`:                    "invalid character",
		`{"readonly": true}`:                    "allowed keys",
		`{"max_spend": "lots"}`:                 "max_spend",
		`{"max_spend": "-5"}`:                   "max_spend",
		`{"max_spend": "2601.109"}`:             "at most to the cent",
		`{"ami": "ubuntu"}`:                     "ami",
		`{"tags": {"aws:owner": "me"}}`:         "reserved",
		`{"tags": {"gpublock:request-id": ""}}`: "set by gpublock",
	} {
		if _, err := loadTUIConfig(writeConfig(t, body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", body, err, want)
		}
	}
}
