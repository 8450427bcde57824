package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// tuiConfig is the TUI's optional configuration file, $XDG_CONFIG_HOME/gpublock/config.json
// (~/.config/gpublock/config.json without XDG_CONFIG_HOME):
//
//	{"read_only": true, "max_spend": "25000", "ami": "ami-…", "tags": {"project": "llm", "cost-center": "42"}}
//
// Flags win over it, except that read-only set in either place holds: a config that
// promises read-only is never turned off by a forgotten flag.
type tuiConfig struct {
	ReadOnly bool              `json:"read_only"`
	MaxSpend string            `json:"max_spend"`
	AMI      string            `json:"ami"`
	Tags     map[string]string `json:"tags"`

	oncallConfig // warn_leads, notify_cmd, notify_url, extend_length (config_oncall.go)
}

// configPath is where the TUI's configuration is read from.
func configPath() (string, error) {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "gpublock", "config.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".config", "gpublock", "config.json"), nil
}

// loadTUIConfig reads the configuration; a missing file is an empty configuration, a
// damaged one an error naming the file and what is wrong, so that nothing starts with a
// cap or a read-only promise silently lost.
func loadTUIConfig(path string) (tuiConfig, error) {
	var c tuiConfig
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %v (allowed keys: read_only, max_spend, ami, tags, %s)", path, err, oncallConfigKeys)
	}
	if err := c.oncallConfig.check(path); err != nil {
		return c, err
	}
	if c.MaxSpend != "" {
		if m, err := parseDollars(c.MaxSpend); err != nil || m.Micros() <= 0 || !wholeCents(m) {
			return c, fmt.Errorf("%s: max_spend %q: want a positive amount of dollars, at most to the cent, such as 25000", path, c.MaxSpend)
		}
	}
	if c.AMI != "" && !strings.HasPrefix(c.AMI, "ami-") {
		return c, fmt.Errorf("%s: ami %q: want an AMI id (ami-…)", path, c.AMI)
	}
	keys := make([]string, 0, len(c.Tags))
	for k := range c.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := (tagFlag{}).Set(k + "=" + c.Tags[k]); err != nil {
			return c, fmt.Errorf("%s: tags: %v", path, err)
		}
	}
	return c, nil
}

// wholeCents reports whether m has no fraction of a cent, as every fee AWS quotes.
func wholeCents(m model.Money) bool { return m.Micros()%10_000 == 0 }

func parseDollars(s string) (model.Money, error) {
	return model.ParseMoney(strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), "$"))
}

// tuiSpending is what the TUI's purchase and launch dialogs start from: the configuration
// merged into the flags (f's read-only and cap then also reach the adapter).
type tuiSpending struct {
	readOnly bool
	maxSpend *model.Money
	tags     map[string]string
	ami      string
}

func applyTUIConfig(f *awsFlags, c tuiConfig) tuiSpending {
	f.readOnly = f.readOnly || c.ReadOnly
	if f.maxSpend == "" {
		f.maxSpend = c.MaxSpend
	}
	s := tuiSpending{readOnly: f.readOnly, tags: c.Tags, ami: c.AMI}
	if f.maxSpend != "" {
		if m, err := parseDollars(f.maxSpend); err == nil {
			s.maxSpend = &m
		}
	}
	return s
}

// commandSpending lays the configuration file's read_only and max_spend over the flags of
// a command that spends (purchase, extend, launch), as the TUI does: a promise written in
// the file holds at the command line too, where a script with --yes would otherwise buy
// past it. The flag's cap wins over the file's; read-only from either holds. A damaged
// file is bad usage (exit 2), so that nothing runs with the promise silently lost.
func commandSpending(stderr io.Writer, cmd string, f *awsFlags) (int, bool) {
	path, err := configPath()
	if err != nil {
		return 0, false // no home: no file to read
	}
	c, err := loadTUIConfig(path)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock %s: %v\n", cmd, err)
		return 2, true
	}
	if c.ReadOnly && !f.readOnly {
		f.readOnlyFile = path
	}
	if c.MaxSpend != "" && f.maxSpend == "" {
		f.maxSpendFile = path
	}
	applyTUIConfig(f, c)
	return 0, false
}

// readOnlyRule names what made the command read-only, or "" when it is not.
func (f *awsFlags) readOnlyRule() string {
	switch {
	case !f.readOnly:
		return ""
	case f.readOnlyFile != "":
		return `"read_only": true in ` + f.readOnlyFile
	}
	return "--read-only"
}

// maxSpendRule names where the spending cap came from.
func (f *awsFlags) maxSpendRule() string {
	if f.maxSpendFile != "" {
		return "max_spend in " + f.maxSpendFile
	}
	return "--max-spend"
}

// tuiConfigFor reads the configuration file and merges it into the TUI's flags.
func tuiConfigFor(f *awsFlags) (tuiSpending, error) {
	path, err := configPath()
	if err != nil {
		return applyTUIConfig(f, tuiConfig{}), nil // no home: no file to read
	}
	c, err := loadTUIConfig(path)
	if err != nil {
		return tuiSpending{}, err
	}
	return applyTUIConfig(f, c), nil
}
