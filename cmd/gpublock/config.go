package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

// tuiConfig is the configuration file (config_yaml.go has its keys; the older JSON file,
// config.json, has the same but theme and mouse):
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

	// Theme and Mouse are the YAML file's only: the TUI's --theme, and mouse: false for
	// --no-mouse. Mouse is nil when not given.
	Theme string `json:"-"`
	Mouse *bool  `json:"-"`
	// DemoRateLimits is the YAML file's demo_rate_limits: the built-in simulator's
	// request buckets, as --demo --rate-limits gives them (the flag wins).
	DemoRateLimits string `json:"-"`
}

// configPath is where the configuration is read from: config.yaml, or the older
// config.json while there is no YAML file.
func configPath() (string, error) {
	p, _, err := userConfigPath()
	return p, err
}

// loadTUIConfig reads the configuration; a missing file is an empty configuration, a
// damaged one an error naming the file and what is wrong, so that nothing starts with a
// cap or a read-only promise silently lost.
func loadTUIConfig(path string) (tuiConfig, error) {
	if !strings.HasSuffix(path, ".json") {
		return loadYAMLConfig(path)
	}
	var c tuiConfig
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	lines, err := checkConfigKeys(b)
	if err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %v (allowed keys: read_only, max_spend, ami, tags, %s)", path, jsonErrorLine(b, err), oncallConfigKeys)
	}
	return c, c.check(path, lines)
}

// check is the rules of the values, whichever format they were read from; lines has the
// line of each top-level key.
func (c tuiConfig) check(path string, lines map[string]int) error {
	if err := c.oncallConfig.check(path, lines); err != nil {
		return err
	}
	if c.Theme != "" {
		if err := checkTheme(c.Theme); err != nil {
			return fmt.Errorf("%s, line %d: %v", path, lines["theme"], err)
		}
	}
	if c.DemoRateLimits != "" {
		if _, err := parseRateLimits(c.DemoRateLimits); err != nil {
			return fmt.Errorf("%s, line %d: demo_rate_limits: %v", path, lines["demo_rate_limits"], strings.TrimPrefix(err.Error(), "--rate-limits "))
		}
	}
	if c.MaxSpend != "" {
		if _, err := model.ParseDollars(c.MaxSpend); err != nil {
			return fmt.Errorf("%s, line %d: max_spend %s", path, lines["max_spend"], err)
		}
	}
	if c.AMI != "" && !strings.HasPrefix(c.AMI, "ami-") {
		return fmt.Errorf("%s, line %d: ami %q: want an AMI id (ami-…)", path, lines["ami"], c.AMI)
	}
	keys := make([]string, 0, len(c.Tags))
	for k := range c.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := (tagFlag{}).Set(k + "=" + c.Tags[k]); err != nil {
			return fmt.Errorf("%s, line %d: tags: %v", path, lines["tags"], err)
		}
	}
	if err := aws.CheckTags(c.Tags); err != nil {
		return fmt.Errorf("%s, line %d: tags: %v", path, lines["tags"], err)
	}
	return nil
}

// wholeCents reports whether m has no fraction of a cent, as every fee AWS quotes.
func wholeCents(m model.Money) bool { return m.Micros()%10_000 == 0 }

// moneyReason is ParseDollars' complaint without the amount, which the caller names.
func moneyReason(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "\": "); ok {
		return rest
	}
	return msg
}

// tuiSpending is what the TUI's purchase and launch dialogs start from: the configuration
// merged into the flags (f's read-only and cap then also reach the adapter).
type tuiSpending struct {
	readOnly bool
	maxSpend *model.Money
	tags     map[string]string
	ami      string
	theme    string // the file's theme, "" when not given
	mouse    *bool  // the file's mouse, nil when not given
}

func applyTUIConfig(f *awsFlags, c tuiConfig) tuiSpending {
	f.readOnly = f.readOnly || c.ReadOnly
	if f.maxSpend == "" {
		f.maxSpend = c.MaxSpend
	}
	f.demoRateLimitsFile = c.DemoRateLimits
	s := tuiSpending{readOnly: f.readOnly, tags: c.Tags, ami: c.AMI, theme: c.Theme, mouse: c.Mouse}
	s.maxSpend = f.spendCap()
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
	if strings.HasSuffix(path, ".json") {
		fmt.Fprintln(stderr, legacyNotice(path))
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
	case strings.HasSuffix(f.readOnlyFile, ".json"):
		return `"read_only": true in ` + f.readOnlyFile
	case f.readOnlyFile != "":
		return "read_only: true in " + f.readOnlyFile
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

// checkConfigKeys reads the file's keys before it is decoded, since encoding/json takes the
// last of two equal keys ("read_only": true, then false, would turn a promise off) and
// leaves a null as "not given". Both are errors, with the key and its line; it returns the
// line of each top-level key.
func checkConfigKeys(b []byte) (map[string]int, error) {
	lines := map[string]int{}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	lineAt := func() int { return 1 + strings.Count(string(b[:dec.InputOffset()]), "\n") }
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErrorLine(b, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("want a JSON object such as {\"read_only\": true}")
	}
	var object func(prefix string, seen map[string]int) error
	object = func(prefix string, seen map[string]int) error {
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return jsonErrorLine(b, err)
			}
			key, _ := kt.(string)
			line := lineAt()
			name := prefix + key
			if first, dup := seen[key]; dup {
				return fmt.Errorf("line %d: key %s given twice (first on line %d); give it once", line, name, first)
			}
			seen[key] = line
			vt, err := dec.Token()
			if err != nil {
				return jsonErrorLine(b, err)
			}
			switch v := vt.(type) {
			case nil:
				return fmt.Errorf("line %d: key %s is null; give a value or leave the key out", line, name)
			case json.Delim:
				if v == '{' {
					if err := object(name+".", map[string]int{}); err != nil {
						return err
					}
				} else if err := skipValue(dec, b); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // the closing brace
		if err != nil {
			return jsonErrorLine(b, err)
		}
		return nil
	}
	if err := object("", lines); err != nil {
		return nil, err
	}
	return lines, nil
}

// skipValue reads the rest of an array whose opening bracket was read.
func skipValue(dec *json.Decoder, b []byte) error {
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return jsonErrorLine(b, err)
		}
		if d, ok := t.(json.Delim); ok {
			if d == '[' || d == '{' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// jsonErrorLine adds the line to a decoding error that knows its offset.
func jsonErrorLine(b []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return err
	}
	return fmt.Errorf("line %d: %v", 1+strings.Count(string(b[:off]), "\n"), err)
}
