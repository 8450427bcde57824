package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/model"
)

// oncallConfig is the configuration file's keys for the person on call:
//
//	{"warn_leads": "24h,2h,40m", "notify_cmd": "notify-send gpublock \"$GPUBLOCK_TEXT\"",
//	 "notify_url": "https://hooks.slack.com/services/…", "extend_length": "7d"}
//
// The flags of the same names win over them.
type oncallConfig struct {
	WarnLeads    string `json:"warn_leads"`
	NotifyCmd    string `json:"notify_cmd"`
	NotifyURL    string `json:"notify_url"`
	ExtendLength string `json:"extend_length"`
}

const oncallConfigKeys = "warn_leads, notify_cmd, notify_url, extend_length"

// check names the file, and the key's line where lines has it.
func (c oncallConfig) check(path string, lines map[string]int) error {
	at := func(key string) string {
		if n := lines[key]; n > 0 {
			return fmt.Sprintf("%s, line %d", path, n)
		}
		return path
	}
	if c.WarnLeads != "" {
		if _, err := model.ParseWarnLeads(c.WarnLeads); err != nil {
			return fmt.Errorf("%s: warn_leads: %v", at("warn_leads"), err)
		}
	}
	if err := notify.Check(c.NotifyCmd, c.NotifyURL); err != nil {
		where := path
		if err := notify.Check("", c.NotifyURL); err != nil {
			where = at("notify_url")
		} else if err := notify.Check(c.NotifyCmd, ""); err != nil {
			where = at("notify_cmd")
		}
		return fmt.Errorf("%s: %s", where, strings.NewReplacer("--notify-url", "notify_url", "--notify-cmd", "notify_cmd").Replace(err.Error()))
	}
	if c.ExtendLength != "" {
		if _, err := extendLengthDays(c.ExtendLength); err != nil {
			return fmt.Errorf("%s: extend_length: %v", at("extend_length"), err)
		}
	}
	return nil
}

// extendLengthDays reads one extension length (1d–14d or 3w–26w).
func extendLengthDays(s string) (int, error) {
	r, err := model.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if r.IsRange() {
		return 0, fmt.Errorf("%q: give one length, not a range", s)
	}
	return r.MinDays, nil
}

// oncallFlags are the flags of `blocks` and of the TUI that say when and where a block's
// warnings go.
type oncallFlags struct {
	warnLeads, notifyCmd, notifyURL string
}

func (o *oncallFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.warnLeads, "warn-leads", "", "`leads` before a block's end to warn at, e.g. 24h,2h,40m: EXTEND BY until AWS's 1-hour cutoff, CAN'T EXTEND after (default 24h, or warn_leads in the config file)")
	fs.StringVar(&o.notifyCmd, "notify-cmd", "", "run this shell `command` for each new warning, the warning as JSON on stdin and GPUBLOCK_WARNING, GPUBLOCK_TEXT, GPUBLOCK_RESERVATION_ID, GPUBLOCK_REGION, GPUBLOCK_END set")
	fs.StringVar(&o.notifyURL, "notify-url", "", "post each new warning as JSON with a \"text\" field to this webhook `URL` (Slack-style incoming webhooks accept it)")
}

// oncallSettings is what the flags and the configuration file decide together.
type oncallSettings struct {
	rules        model.WarnRules
	notify       notify.Config
	extendLength int // days; 0 when not configured
}

// resolve lays the flags over the configuration file (flags win) and checks them.
func (o *oncallFlags) resolve(c oncallConfig) (oncallSettings, error) {
	var s oncallSettings
	leads := c.WarnLeads
	if o.warnLeads != "" {
		leads = o.warnLeads
	}
	s.rules = model.DefaultWarnRules()
	if leads != "" {
		ls, err := model.ParseWarnLeads(leads)
		if err != nil {
			return s, usagef("--warn-leads: %v", err)
		}
		s.rules = model.NewWarnRules(ls)
	}
	s.notify = notify.Config{Command: c.NotifyCmd, URL: c.NotifyURL}
	if o.notifyCmd != "" {
		s.notify.Command = o.notifyCmd
	}
	if o.notifyURL != "" {
		s.notify.URL = o.notifyURL
	}
	if err := notify.Check(s.notify.Command, s.notify.URL); err != nil {
		return s, usageError{err.Error()}
	}
	if c.ExtendLength != "" {
		s.extendLength, _ = extendLengthDays(c.ExtendLength) // checked when the file was read
	}
	return s, nil
}

// loadOncallConfig reads the on-call keys of the configuration file; no home or no file is
// an empty configuration.
func loadOncallConfig() (oncallConfig, error) {
	path, err := configPath()
	if err != nil {
		return oncallConfig{}, nil
	}
	c, err := loadTUIConfig(path)
	return c.oncallConfig, err
}

// notifyStatePath is where the warnings already sent are remembered: beside the client's
// journal, so that the simulator's warnings are kept apart from the real account's.
func notifyStatePath(c *awsapi.Client) string {
	p, err := c.JournalPath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "notified.json")
}

// notifyBackoff is the wait before a failed notification is tried again (doubled after);
// tests shorten it.
var notifyBackoff = 2 * time.Second

// notifyGrace is how long a command waits at its end for the notifications still going out.
const notifyGrace = 30 * time.Second

// A one-shot `blocks` gives an attempt this long and all its deliveries this long at its
// end: cron and a person at the prompt do not wait on a webhook that hangs. Tests shorten them.
var (
	oneShotNotifyTimeout = 5 * time.Second
	oneShotNotifyGrace   = 10 * time.Second
)
