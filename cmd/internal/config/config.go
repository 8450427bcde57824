package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/gpublock/gpublock/model"
)

// File is the configuration file (yaml.go has its keys; the older JSON file,
// config.json, has the same but theme, mouse, accounts and organization):
//
//	{"read_only": true, "max_spend": "25000", "ami": "ami-…", "tags": {"project": "llm", "cost-center": "42"}}
//
// Flags win over it, except that read-only set in either place holds: a config that
// promises read-only is never turned off by a forgotten flag.
type File struct {
	ReadOnly bool              `json:"read_only"`
	MaxSpend string            `json:"max_spend"`
	AMI      string            `json:"ami"`
	Tags     map[string]string `json:"tags"`

	Oncall // warn_leads, notify_cmd, notify_url, extend_length (oncall.go)

	// Theme and Mouse are the YAML file's only: the TUI's --theme, and mouse: false for
	// --no-mouse. Mouse is nil when not given.
	Theme string `json:"-"`
	Mouse *bool  `json:"-"`
	// Accessible is the YAML file's accessible: the TUI's --accessible (screen readers,
	// braille displays). Nil when not given.
	Accessible *bool `json:"-"`
	// DemoRateLimits is the YAML file's demo_rate_limits: the built-in simulator's
	// request buckets, as --demo --rate-limits gives them (the flag wins).
	DemoRateLimits string `json:"-"`
	// Accounts are the YAML file's accounts (accounts.go): the accounts whose reservations
	// the listings show together, the first the one searches and spending use when
	// --profile names none. Organization says they are the organization's whole set, so
	// that the listings can state AWS's cap across it.
	Accounts     []Account `json:"-"`
	Organization bool      `json:"-"`
	// State is where gpublock keeps what it has done: s3://BUCKET/PREFIX for a team's
	// machines to share, or a directory; "" is the local default ($XDG_STATE_HOME/gpublock).
	State string `json:"state"`
}

// Path is where the configuration is read from: config.yaml, or the older
// config.json while there is no YAML file.
func Path() (string, error) {
	p, _, err := UserPath()
	return p, err
}

// Loader reads the user's configuration file and says where it is.
type Loader func() (File, string, error)

// LoadUser reads the user's configuration file (Path) and says where it is. With no home
// there is no file: an empty configuration and no path.
func LoadUser(checks ...ValueCheck) (File, string, error) {
	path, err := Path()
	if err != nil {
		return File{}, "", nil
	}
	c, err := Load(path, checks...)
	return c, path, err
}

// ValueCheck is the rule of a value whose meaning belongs to a package above this one (the
// TUI's themes, the demo's rate limits, the notifier's targets), given by the command layer
// that knows it, so that this package imports none of them. at names the file and a key's
// line, for its message.
type ValueCheck func(c File, at func(key string) string) error

// Load reads the configuration; a missing file is an empty configuration, a
// damaged one an error naming the file and what is wrong, so that nothing starts with a
// cap or a read-only promise silently lost. The checks run after the file's own rules.
func Load(path string, checks ...ValueCheck) (File, error) {
	if !strings.HasSuffix(path, ".json") {
		return loadYAMLConfig(path, checks)
	}
	var c File
	b, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	lines, err := checkConfigKeys(b)
	if err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %v (allowed keys: read_only, max_spend, ami, tags, state, %s)", path, jsonErrorLine(b, err), oncallConfigKeys)
	}
	return c, c.Check(path, lines, checks...)
}

// MaxSize is the largest configuration file read: a real one is a few hundred bytes,
// and a limit keeps a mistaken path (a device, a log) from filling memory.
const MaxSize = 1 << 20

// readConfigFile reads a configuration file, which must be a regular file (a symlink to one
// is followed) of at most maxConfigSize bytes. Anything else is refused before a byte is read:
// a named pipe would block the read with no writer, and a device such as /dev/zero never ends.
// The open is non-blocking, and the opened file is checked again, in case the path was swapped
// between the two looks. A missing file is fs.ErrNotExist, unwrapped, for the caller.
func readConfigFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil { // a symlink to nothing is no "no file"
			target, _ := os.Readlink(path)
			return nil, fmt.Errorf("reading %s: it is a symlink to %s, which does not exist", path, target)
		}
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := configFileKind(path, fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := configFileKind(path, fi); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(b) > MaxSize {
		return nil, configTooLarge(path)
	}
	if err := checkConfigText(b); err != nil {
		return nil, fmt.Errorf("%s, %v", path, err)
	}
	return b, nil
}

// configFileKind refuses what is not a regular file of at most maxConfigSize bytes.
func configFileKind(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	if !m.IsRegular() {
		kind := "not a regular file"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe (FIFO)"
		case m&fs.ModeSocket != 0:
			kind = "a socket"
		case m&fs.ModeDevice != 0:
			kind = "a device"
		}
		return fmt.Errorf("reading %s: it is %s; the configuration is read only from a regular file", path, kind)
	}
	if fi.Size() > MaxSize {
		return configTooLarge(path)
	}
	return nil
}

func configTooLarge(path string) error {
	return fmt.Errorf("reading %s: larger than %d KiB (1 MiB), the most a configuration file may hold", path, MaxSize>>10)
}

// checkConfigText refuses a control character (a tab, line ends aside) or bytes that are not
// UTF-8, with the line and column: the parsers name neither for these.
func checkConfigText(b []byte) error {
	line, col := 1, 1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Errorf("line %d, column %d: byte 0x%02X is not UTF-8; save the file as UTF-8", line, col, b[i])
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r':
		case unicode.IsControl(r):
			return fmt.Errorf("line %d, column %d: control character %U is not allowed; delete it", line, col, r)
		}
		i += size
		col++
	}
	return nil
}

// Check is the rules of the values, whichever format they were read from, then checks;
// lines has the line of each top-level key.
func (c File) Check(path string, lines map[string]int, checks ...ValueCheck) error {
	at := func(key string) string {
		if n := lines[key]; n > 0 {
			return fmt.Sprintf("%s, line %d", path, n)
		}
		return path
	}
	if err := c.Oncall.check(at); err != nil {
		return err
	}
	// A key given with a blank value is a mistake, not "no cap": leaving the key out is how a
	// file says that.
	if _, given := lines["max_spend"]; given || c.MaxSpend != "" {
		if strings.TrimSpace(c.MaxSpend) == "" {
			return fmt.Errorf("%s, line %d: max_spend %q is blank: write an amount like 25000, or leave the key out for no cap", path, lines["max_spend"], c.MaxSpend)
		}
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
		if err := model.AddTag(map[string]string{}, k+"="+c.Tags[k]); err != nil {
			return fmt.Errorf("%s, line %d: tags: %v", path, lines["tags"], err)
		}
	}
	if err := model.CheckTags(c.Tags); err != nil {
		return fmt.Errorf("%s, line %d: tags: %v", path, lines["tags"], err)
	}
	for _, check := range checks {
		if err := check(c, at); err != nil {
			return err
		}
	}
	return nil
}

// MoneyReason is ParseDollars' complaint without the amount, which the caller names.
func MoneyReason(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "\": "); ok {
		return rest
	}
	return msg
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
