package cmdutil

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
)

// AutoExtendFlags are the flags of the auto-extension policy of `blocks --watch`.
type AutoExtendFlags struct {
	length, approveCmd, tag string
}

func (f *AutoExtendFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.length, "auto-extend", "", "with --watch: extend a block that still runs instances (or carries --auto-extend-tag) by this `length` (1d–14d, 3w–26w) once it reaches an EXTEND BY lead, within --max-spend, once per block and lead; off turns auto_extend in the config file off")
	fs.StringVar(&f.approveCmd, "approve-cmd", "", "ask this shell `command` before each auto-extension (the facts as JSON on stdin, GPUBLOCK_RESERVATION_ID, GPUBLOCK_REGION, GPUBLOCK_LENGTH, GPUBLOCK_FEE, GPUBLOCK_NEW_END set); only exit 0 within 2 minutes approves")
	fs.StringVar(&f.tag, "auto-extend-tag", "", "the `KEY=VALUE` tag that asks for a block to be auto-extended even with no instance running (default "+model.AutoExtendTag+")")
}

// AutoExtendSettings are the policy and who approves it; Policy.Days is 0 when it is off.
type AutoExtendSettings struct {
	Policy     model.AutoExtendPolicy
	ApproveCmd string
}

// Resolve lays the flags over the file's auto_extend section (flags win) and checks them:
// anything wrong is a usage error before anything is listed or bought.
func (f *AutoExtendFlags) Resolve(c config.AutoExtend, rules model.WarnRules, watch bool) (AutoExtendSettings, error) {
	var s AutoExtendSettings
	length, approve, tag := c.Length, c.ApproveCmd, c.Tag
	flagged := f.length != "" || f.approveCmd != "" || f.tag != ""
	if f.length != "" {
		length = f.length
	}
	if f.approveCmd != "" {
		approve = f.approveCmd
	}
	if f.tag != "" {
		tag = f.tag
	}
	if strings.EqualFold(strings.TrimSpace(length), "off") {
		if f.approveCmd != "" || f.tag != "" {
			return s, Usagef("--approve-cmd and --auto-extend-tag go with --auto-extend LENGTH, not off")
		}
		return s, nil
	}
	switch {
	case length == "" && flagged:
		return s, Usagef("--approve-cmd and --auto-extend-tag go with --auto-extend LENGTH (e.g. --auto-extend 1d)")
	case length == "":
		return s, nil
	case !watch && f.length != "":
		return s, Usagef("--auto-extend is used with --watch (e.g. blocks --watch --auto-extend 1d)")
	case !watch:
		return s, nil // the file's policy is the watch's: a one-shot listing buys nothing
	}
	days, err := model.ParseLength(length)
	if err != nil {
		return s, Usagef("--auto-extend: %v", err)
	}
	if s.Policy, err = model.NewAutoExtendPolicy(days, tag, rules); err != nil {
		return s, Usagef("--auto-extend: %v", err)
	}
	if approve != "" {
		if err := checkCommand(approve); err != nil {
			return s, Usagef("--approve-cmd: %v", err)
		}
	}
	s.ApproveCmd = approve
	return s, nil
}

// checkCommand refuses a blank command, and one whose program (its first word, when that
// is a plain word) is not found: a typo would otherwise refuse every extension unseen.
func checkCommand(command string) error {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return errors.New("the command is empty")
	}
	prog := fields[0]
	if strings.ContainsAny(prog, "=$'\"`\\;&|<>(){}*?[]~") {
		return nil // shell syntax: sh decides
	}
	if strings.Contains(prog, "/") {
		if fi, err := os.Stat(prog); err != nil || fi.IsDir() {
			return fmt.Errorf("%s: command not found", prog)
		}
		return nil
	}
	if _, err := exec.LookPath(prog); err != nil && !shellBuiltin[prog] {
		return fmt.Errorf("%s: command not found", prog)
	}
	return nil
}

var shellBuiltin = map[string]bool{"true": true, "false": true, "exit": true, "test": true, "[": true, "echo": true, "printf": true, ":": true, "read": true}
