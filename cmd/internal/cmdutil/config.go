package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/store"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/ui/theme"
)

// configChecks are the rules of the configuration's values whose meaning belongs to the
// packages the commands stand on (the notifier, the emulator, the TUI's themes), which the
// configuration package does not import.
var configChecks = []config.ValueCheck{checkNotifyConfig, checkDemoRateLimits, checkThemeConfig, checkStateConfig}

// LoadConfig reads the configuration at path with every rule of its values.
func LoadConfig(path string) (config.File, error) { return config.Load(path, configChecks...) }

// LoadUserConfig reads the user's configuration with every rule of its values: the
// commands' config.Loader.
func LoadUserConfig() (config.File, string, error) { return config.LoadUser(configChecks...) }

// checkNotifyConfig names the key at fault, notify_cmd or notify_url, in the file's words.
func checkNotifyConfig(c config.File, at func(string) string) error {
	err := notify.Check(c.NotifyCmd, c.NotifyURL)
	if err == nil {
		return nil
	}
	where := at("")
	if notify.Check("", c.NotifyURL) != nil {
		where = at("notify_url")
	} else if notify.Check(c.NotifyCmd, "") != nil {
		where = at("notify_cmd")
	}
	return fmt.Errorf("%s: %s", where, strings.NewReplacer("--notify-url", "notify_url", "--notify-cmd", "notify_cmd").Replace(err.Error()))
}

func checkDemoRateLimits(c config.File, at func(string) string) error {
	if c.DemoRateLimits == "" {
		return nil
	}
	if _, err := ParseRateLimits(c.DemoRateLimits); err != nil {
		return fmt.Errorf("%s: demo_rate_limits: %v", at("demo_rate_limits"), strings.TrimPrefix(err.Error(), "--rate-limits "))
	}
	return nil
}

// checkStateConfig is the state key's rule: a store's location; given blank, it is a
// mistake (leaving the key out is how a file asks for the default).
func checkStateConfig(c config.File, at func(string) string) error {
	given := at("state") != at("")
	if !given && c.State == "" {
		return nil
	}
	if _, err := store.ParseLocation(c.State); err != nil {
		return fmt.Errorf("%s: %v", at("state"), err)
	}
	return nil
}

// checkThemeConfig is the theme key's rule: one of the TUI's --theme values.
func checkThemeConfig(c config.File, at func(string) string) error {
	if c.Theme == "" {
		return nil
	}
	if _, err := theme.ParseMode(c.Theme); err != nil {
		return fmt.Errorf("%s: %v", at("theme"), err)
	}
	return nil
}

// ParseRateLimits reads a --rate-limits value, of `gpublock sim` or of the demo: aws
// (AWS's request buckets), off (nil) or N (AWS's refill rates × N).
func ParseRateLimits(v string) (*ec2sim.RateLimits, error) {
	switch v {
	case "aws":
		return ec2sim.AWSRateLimits(1), nil
	case "off":
		return nil, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 || n > 1e6 || n != n {
		return nil, fmt.Errorf("--rate-limits %q: want aws, off, or a positive number up to 1000000 (AWS's refill rates × N)", v)
	}
	return ec2sim.AWSRateLimits(n), nil
}
