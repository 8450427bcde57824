package cmdutil

import (
	"context"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/store"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
)

// OncallFlags are the flags of `blocks` and of the TUI that say when and where a block's
// warnings go.
type OncallFlags struct {
	warnLeads, notifyCmd, notifyURL string
}

func (o *OncallFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&o.warnLeads, "warn-leads", "", "`leads` before a block's end to warn at, e.g. 24h,2h,40m: EXTEND BY until AWS's 1-hour cutoff, CAN'T EXTEND after (default 24h, or warn_leads in the config file)")
	fs.StringVar(&o.notifyCmd, "notify-cmd", "", "run this shell `command` for each new warning, the warning as JSON on stdin and GPUBLOCK_WARNING, GPUBLOCK_TEXT, GPUBLOCK_RESERVATION_ID, GPUBLOCK_REGION, GPUBLOCK_END set")
	fs.StringVar(&o.notifyURL, "notify-url", "", "post each new warning as JSON with a \"text\" field to this webhook `URL` (Slack-style incoming webhooks accept it)")
}

// OncallSettings is what the flags and the configuration file decide together.
type OncallSettings struct {
	Rules        model.WarnRules
	Notify       notify.Config
	ExtendLength int // days; 0 when not configured
}

// Resolve lays the flags over the configuration file (flags win) and checks them.
func (o *OncallFlags) Resolve(c config.Oncall) (OncallSettings, error) {
	var s OncallSettings
	leads := c.WarnLeads
	if o.warnLeads != "" {
		leads = o.warnLeads
	}
	s.Rules = model.DefaultWarnRules()
	if leads != "" {
		ls, err := model.ParseWarnLeads(leads)
		if err != nil {
			return s, Usagef("--warn-leads: %v", err)
		}
		s.Rules = model.NewWarnRules(ls)
	}
	s.Notify = notify.Config{Command: c.NotifyCmd, URL: c.NotifyURL}
	// How long the claim of a gpublock that died while sending a warning holds the others
	// off (a Go duration), as GPUBLOCK_STATE_LOCK_TTL is for the store's locks: tests
	// shorten it.
	if d, err := time.ParseDuration(os.Getenv("GPUBLOCK_NOTIFY_LEASE")); err == nil && d > 0 {
		s.Notify.Lease = d
	}
	if o.notifyCmd != "" {
		s.Notify.Command = o.notifyCmd
	}
	if o.notifyURL != "" {
		s.Notify.URL = o.notifyURL
	}
	if err := notify.Check(s.Notify.Command, s.Notify.URL); err != nil {
		return s, UsageError{err.Error()}
	}
	if c.ExtendLength != "" {
		s.ExtendLength, _ = model.ParseLength(c.ExtendLength) // checked when the file was read
	}
	return s, nil
}

// NotifyState is where the warnings already sent are remembered: in the client's store
// (its backend's and account's), found when first needed.
func NotifyState(c *awsapi.Client) store.Store {
	return store.Lazy(func() (store.Store, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return c.StateStore(ctx)
	}, "the records of this account")
}

// NotifyGrace is how long a command waits at its end for the notifications still going out.
const NotifyGrace = 30 * time.Second
