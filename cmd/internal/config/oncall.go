package config

import (
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// Oncall is the configuration file's keys for the person on call:
//
//	{"warn_leads": "24h,2h,40m", "notify_cmd": "notify-send gpublock \"$GPUBLOCK_TEXT\"",
//	 "notify_url": "https://hooks.slack.com/services/…", "extend_length": "7d"}
//
// The flags of the same names win over them.
type Oncall struct {
	WarnLeads    string `json:"warn_leads"`
	NotifyCmd    string `json:"notify_cmd"`
	NotifyURL    string `json:"notify_url"`
	ExtendLength string `json:"extend_length"`
	// AutoExtend is the policy `blocks --watch` extends by; its flags win over it.
	AutoExtend AutoExtend `json:"auto_extend"`
}

// AutoExtend is the file's auto_extend section:
//
//	auto_extend: {length: 1d, approve_cmd: "approve-spend", tag: "gpublock:auto-extend=true"}
type AutoExtend struct {
	Length     string `json:"length"`
	ApproveCmd string `json:"approve_cmd"`
	Tag        string `json:"tag"`
}

const oncallConfigKeys = "warn_leads, notify_cmd, notify_url, extend_length, auto_extend"

// check names the file, and the key's line where at has it. The notifier's targets are
// checked by the command layer (a ValueCheck), which knows the notifier.
func (c Oncall) check(at func(key string) string) error {
	if c.WarnLeads != "" {
		if _, err := model.ParseWarnLeads(c.WarnLeads); err != nil {
			return fmt.Errorf("%s: warn_leads: %v", at("warn_leads"), err)
		}
	}
	if c.ExtendLength != "" {
		if _, err := model.ParseLength(c.ExtendLength); err != nil {
			return fmt.Errorf("%s: extend_length: %v", at("extend_length"), err)
		}
	}
	return c.AutoExtend.check(at("auto_extend"))
}

// check names where: the file and the section's line.
func (a AutoExtend) check(where string) error {
	if a.Length != "" {
		if _, err := model.ParseLength(a.Length); err != nil {
			return fmt.Errorf("%s: auto_extend.length: %v", where, err)
		}
	}
	if a.ApproveCmd != "" && strings.TrimSpace(a.ApproveCmd) == "" {
		return fmt.Errorf("%s: auto_extend.approve_cmd is empty", where)
	}
	if a.Tag != "" {
		if _, _, err := model.ParseAutoExtendTag(a.Tag); err != nil {
			return fmt.Errorf("%s: auto_extend.tag: %v", where, err)
		}
	}
	return nil
}
