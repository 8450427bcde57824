package cmdutil

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
)

// TUISpending is what the TUI's purchase and launch dialogs start from: the configuration
// merged into the flags (f's read-only and cap then also reach the adapter).
type TUISpending struct {
	ReadOnly bool
	MaxSpend *model.Money
	Tags     map[string]string
	AMI      string
	Theme    string // the file's theme, "" when not given
	Mouse    *bool  // the file's mouse, nil when not given
	// Accessible is the file's accessible, nil when not given.
	Accessible *bool
}

func ApplyTUIConfig(f *AWSFlags, c config.File) TUISpending {
	f.ReadOnly = f.ReadOnly || c.ReadOnly
	if f.MaxSpend == "" {
		f.MaxSpend = c.MaxSpend
	}
	f.demoRateLimitsFile = c.DemoRateLimits
	f.SetAccounts(c)
	s := TUISpending{ReadOnly: f.ReadOnly, Tags: c.Tags, AMI: c.AMI, Theme: c.Theme, Mouse: c.Mouse, Accessible: c.Accessible}
	s.MaxSpend = f.SpendCap()
	return s
}

// CommandSpending lays the configuration file's read_only and max_spend over the flags of
// a command that spends (purchase, extend, launch), as the TUI does: a promise written in
// the file holds at the command line too, where a script with --yes would otherwise buy
// past it. The flag's cap wins over the file's; read-only from either holds. A damaged
// file is bad usage (exit 2), so that nothing runs with the promise silently lost.
func CommandSpending(stderr io.Writer, cmd string, f *AWSFlags, load config.Loader) (int, bool) {
	c, path, err := load()
	if path == "" && err == nil {
		return 0, false // no home: no file to read
	}
	if err != nil {
		fmt.Fprintf(stderr, "gpublock %s: %v\n", cmd, err)
		return 2, true
	}
	if strings.HasSuffix(path, ".json") {
		fmt.Fprintln(stderr, config.LegacyNotice(path))
	}
	if c.ReadOnly && !f.ReadOnly {
		f.readOnlyFile = path
	}
	if c.MaxSpend != "" && f.MaxSpend == "" {
		f.maxSpendFile = path
	}
	ApplyTUIConfig(f, c)
	return 0, false
}

// ReadOnlyRule names what made the command read-only, or "" when it is not.
func (f *AWSFlags) ReadOnlyRule() string {
	switch {
	case !f.ReadOnly:
		return ""
	case strings.HasSuffix(f.readOnlyFile, ".json"):
		return `"read_only": true in ` + f.readOnlyFile
	case f.readOnlyFile != "":
		return "read_only: true in " + f.readOnlyFile
	}
	return "--read-only"
}

// MaxSpendRule names where the spending cap came from.
func (f *AWSFlags) MaxSpendRule() string {
	if f.maxSpendFile != "" {
		return "max_spend in " + f.maxSpendFile
	}
	return "--max-spend"
}

// TUIConfigFor reads the configuration file and merges it into the TUI's flags.
func TUIConfigFor(f *AWSFlags, load config.Loader) (TUISpending, error) {
	c, _, err := load() // no home: no file to read, the empty configuration
	if err != nil {
		return TUISpending{}, err
	}
	return ApplyTUIConfig(f, c), nil
}
