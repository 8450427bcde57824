package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The configuration file is YAML at $XDG_CONFIG_HOME/gpublock/config.yaml
// (~/.config/gpublock/config.yaml without XDG_CONFIG_HOME):
//
//	read_only: true
//	max_spend: "25000"
//	ami: ami-0123456789abcdef0
//	tags: {project: llm, cost-center: "42"}
//	warn_leads: 24h,2h,40m
//	notify_cmd: notify-send gpublock "$GPUBLOCK_TEXT"
//	notify_url: https://hooks.slack.com/services/…
//	extend_length: 7d
//	auto_extend: {length: 1d, approve_cmd: approve-spend, tag: "gpublock:auto-extend=true"}
//	theme: auto        # auto, light or dark
//	mouse: true        # false: the TUI leaves the mouse to the terminal
//	accessible: false  # true: the TUI for screen readers and braille displays (--accessible)
//	demo_rate_limits: aws  # the demo's request buckets, as --rate-limits
//	organization: true     # the accounts below are the organization's whole set
//	accounts:              # whose reservations the listings show together
//	  - {profile: ml-prod, regions: [us-east-1, us-west-2]}
//	  - {profile: research, endpoint_url: http://127.0.0.1:4566}
//
// The older config.json beside it (same keys but theme and mouse) is read while no YAML
// file exists; `gpublock config init` writes the YAML from it.

const (
	YAMLName = "config.yaml"
	JSONName = "config.json"
)

// configKeys are the keys of the file, in the order `config show` and `config init` write them.
var configKeys = []string{"read_only", "max_spend", "ami", "tags", "warn_leads", "notify_cmd", "notify_url", "extend_length", "auto_extend", "theme", "demo_rate_limits", "mouse", "accessible", "organization", "accounts", "state"}

// Dir is the directory of the configuration file.
func Dir() (string, error) {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "gpublock"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".config", "gpublock"), nil
}

// UserPath is the file the program reads: config.yaml, or while there is none and
// the older config.json exists, that one (legacy is then true).
func UserPath() (path string, legacy bool, err error) {
	dir, err := Dir()
	if err != nil {
		return "", false, err
	}
	y := filepath.Join(dir, YAMLName)
	if _, err := os.Lstat(y); err == nil { // a broken symlink is refused when read, not passed over
		return y, false, nil
	}
	j := filepath.Join(dir, JSONName)
	if _, err := os.Lstat(j); err == nil {
		return j, true, nil
	}
	return y, false, nil
}

// LegacyNotice is what a command says on stderr when it read the older JSON file.
func LegacyNotice(path string) string {
	return fmt.Sprintf("gpublock: read %s; the configuration file is now %s beside it: "+
		"run 'gpublock config init' to write it from this one, then delete the JSON file.",
		path, YAMLName)
}

// loadYAMLConfig reads config.yaml strictly: an unknown key, a key given twice, a null or
// a value of the wrong type is an error naming the file, the key and its line, so that
// nothing starts with a cap or a read-only promise silently lost.
func loadYAMLConfig(path string, checks []ValueCheck) (File, error) {
	var c File
	b, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	lines, err := DecodeYAML(b, &c)
	if err != nil {
		return c, fmt.Errorf("%s, %v", path, err)
	}
	return c, c.Check(path, lines, checks...)
}

// tabIndentedLine is the first line whose indentation holds a tab, or 0. It is asked only
// when the document did not parse: inside a block scalar a tab can be text.
func tabIndentedLine(b []byte) int {
	for i, l := range strings.Split(string(b), "\n") {
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.Contains(indent, "\t") {
			return i + 1
		}
	}
	return 0
}

// yamlError is a problem at a line of the file.
func yamlError(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

// DecodeYAML fills c from the document and returns the line of each key.
func DecodeYAML(b []byte, c *File) (map[string]int, error) {
	lines := map[string]int{}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) { // an empty file is an empty configuration
			return lines, nil
		}
		// yaml.v3's messages start "yaml: line N: ...", but the line it names for a tab is
		// the line before, or none on line 1: a tab in the indentation is named here.
		msg := err.Error()
		if n := tabIndentedLine(b); n > 0 && (strings.Contains(msg, "tab") || strings.Contains(msg, "cannot start any token")) {
			return nil, fmt.Errorf("line %d: a tab in the indentation; YAML indents with spaces only", n)
		}
		return nil, errors.New(strings.TrimPrefix(msg, "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("line " + strconv.Itoa(extra.Line) + ": a second YAML document after a document separator; give one")
	}
	if len(doc.Content) == 0 {
		return lines, nil
	}
	m := doc.Content[0]
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return lines, nil // only comments
	}
	if m.Kind != yaml.MappingNode {
		return nil, yamlError(m, "want keys and values such as read_only: true")
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if first, dup := lines[key]; dup {
			return nil, yamlError(k, "key %s given twice (first on line %d); give it once", key, first)
		}
		lines[key] = k.Line
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil, yamlError(k, "key %s is null; give a value or leave the key out", key)
		}
		var err error
		switch key {
		case "read_only":
			c.ReadOnly, err = yamlBool(k, v)
		case "mouse":
			var on bool
			on, err = yamlBool(k, v)
			c.Mouse = &on
		case "accessible":
			var on bool
			on, err = yamlBool(k, v)
			c.Accessible = &on
		case "max_spend":
			// A number is taken as written (25000, or 2601.109 which ParseDollars refuses).
			c.MaxSpend, err = yamlScalar(k, v, "a dollar amount such as \"25000\"", "!!str", "!!int", "!!float")
		case "tags":
			c.Tags, err = yamlTags(k, v)
		case "ami":
			c.AMI, err = yamlScalar(k, v, "an AMI id (ami-…)", "!!str")
		case "warn_leads":
			c.WarnLeads, err = yamlScalar(k, v, "leads such as 24h,2h,40m", "!!str")
		case "notify_cmd":
			c.NotifyCmd, err = yamlScalar(k, v, "a shell command", "!!str")
		case "notify_url":
			c.NotifyURL, err = yamlScalar(k, v, "a webhook URL", "!!str")
		case "extend_length":
			c.ExtendLength, err = yamlScalar(k, v, "a length such as 7d", "!!str")
		case "auto_extend":
			c.AutoExtend, err = yamlAutoExtend(k, v)
		case "theme":
			c.Theme, err = yamlScalar(k, v, "auto, light or dark", "!!str")
		case "demo_rate_limits":
			c.DemoRateLimits, err = yamlScalar(k, v, "aws, off or a number", "!!str", "!!int", "!!float")
		case "organization":
			c.Organization, err = yamlBool(k, v)
		case "state":
			c.State, err = yamlScalar(k, v, "s3://BUCKET/PREFIX or a directory", "!!str")
		case "accounts":
			c.Accounts, err = yamlAccounts(k, v)
		default:
			return nil, yamlError(k, "unknown key %s (allowed: %s)", key, strings.Join(configKeys, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	return lines, nil
}

func yamlBool(k, v *yaml.Node) (bool, error) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		return false, yamlError(k, "%s: want true or false, not %s", k.Value, yamlShown(v))
	}
	return strconv.ParseBool(v.Value)
}

func yamlScalar(k, v *yaml.Node, want string, tags ...string) (string, error) {
	if v.Kind == yaml.ScalarNode {
		for _, t := range tags {
			if v.Tag == t {
				return v.Value, nil
			}
		}
	}
	return "", yamlError(k, "%s: want %s, not %s", k.Value, want, yamlShown(v))
}

func yamlTags(k, v *yaml.Node) (map[string]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, yamlError(k, "tags: want KEY: VALUE pairs such as {project: llm}, not %s", yamlShown(v))
	}
	tags := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		tk, tv := v.Content[i], v.Content[i+1]
		if _, dup := tags[tk.Value]; dup {
			return nil, yamlError(tk, "key tags.%s given twice; give it once", tk.Value)
		}
		if tv.Kind == yaml.ScalarNode && tv.Tag == "!!null" {
			return nil, yamlError(tk, "key tags.%s is null; give a value (\"\" for none) or leave the key out", tk.Value)
		}
		if tv.Kind != yaml.ScalarNode || tk.Kind != yaml.ScalarNode {
			return nil, yamlError(tk, "tags.%s: want a text value, not %s", tk.Value, yamlShown(tv))
		}
		tags[tk.Value] = tv.Value
	}
	return tags, nil
}

func yamlAutoExtend(k, v *yaml.Node) (AutoExtend, error) {
	var a AutoExtend
	if v.Kind != yaml.MappingNode {
		return a, yamlError(k, "auto_extend: want length, approve_cmd and tag such as {length: 1d}, not %s", yamlShown(v))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		ak, av := v.Content[i], v.Content[i+1]
		if seen[ak.Value] {
			return a, yamlError(ak, "key auto_extend.%s given twice; give it once", ak.Value)
		}
		seen[ak.Value] = true
		var err error
		switch ak.Value {
		case "length":
			a.Length, err = yamlScalar(ak, av, "a length such as 1d", "!!str")
		case "approve_cmd":
			a.ApproveCmd, err = yamlScalar(ak, av, "a shell command", "!!str")
		case "tag":
			a.Tag, err = yamlScalar(ak, av, "KEY=VALUE", "!!str")
		default:
			return a, yamlError(ak, "unknown key auto_extend.%s (allowed: length, approve_cmd, tag)", ak.Value)
		}
		if err != nil {
			return a, err
		}
	}
	return a, nil
}

// yamlShown names what was given instead, for the messages.
func yamlShown(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	}
	return strconv.Quote(v.Value)
}

// Marshal writes c as config.yaml, keys in configKeys' order, secrets as they are:
// it is the file the person owns (config init), not something shown.
func Marshal(c File) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	if c.ReadOnly {
		add("read_only", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if c.MaxSpend != "" {
		add("max_spend", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: c.MaxSpend, Style: yaml.DoubleQuotedStyle})
	}
	if c.AMI != "" {
		add("ami", str(c.AMI))
	}
	if len(c.Tags) > 0 {
		t := &yaml.Node{Kind: yaml.MappingNode}
		keys := make([]string, 0, len(c.Tags))
		for k := range c.Tags {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Content = append(t.Content, str(k), str(c.Tags[k]))
		}
		add("tags", t)
	}
	for _, kv := range [][2]string{{"warn_leads", c.WarnLeads}, {"notify_cmd", c.NotifyCmd}, {"notify_url", c.NotifyURL}, {"extend_length", c.ExtendLength}} {
		if kv[1] != "" {
			add(kv[0], str(kv[1]))
		}
	}
	if a := c.AutoExtend; a != (AutoExtend{}) {
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, kv := range [][2]string{{"length", a.Length}, {"approve_cmd", a.ApproveCmd}, {"tag", a.Tag}} {
			if kv[1] != "" {
				m.Content = append(m.Content, str(kv[0]), str(kv[1]))
			}
		}
		add("auto_extend", m)
	}
	for _, kv := range [][2]string{{"theme", c.Theme}, {"demo_rate_limits", c.DemoRateLimits}, {"state", c.State}} {
		if kv[1] != "" {
			add(kv[0], str(kv[1]))
		}
	}
	if c.Mouse != nil {
		add("mouse", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*c.Mouse)})
	}
	if c.Accessible != nil {
		add("accessible", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*c.Accessible)})
	}
	if c.Organization {
		add("organization", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if len(c.Accounts) > 0 {
		add("accounts", accountsNode(c.Accounts))
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}
