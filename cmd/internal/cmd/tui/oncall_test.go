package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
)

func writeOncallConfig(t *testing.T, body string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "gpublock"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpublock", "config.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The on-call keys of the configuration file reach the TUI; flags win over them.
func TestOncallConfigAndFlags(t *testing.T) {
	writeOncallConfig(t, `{"warn_leads": "24h,2h,40m", "notify_url": "https://hooks.example.com/services/T/B/X", "extend_length": "3d"}`)
	a, err := parseTUI([]string{"--demo", "--region", "eu-north-1,us-east-1"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := newTUIOncall(a.AWS, a.oncall, cmdutil.LoadUserConfig, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var opts ui.Options
	oc.apply(&opts)
	if got := model.FormatWarnLeads(opts.WarnRules.Leads); got != "24h,2h,40m" || opts.ExtendDays != 3 || opts.Notify == nil ||
		strings.Join(opts.BlockRegions, ",") != "eu-north-1,us-east-1" {
		t.Errorf("leads %s, extend %d, notify %v, regions %v", got, opts.ExtendDays, opts.Notify != nil, opts.BlockRegions)
	}
	// Not connected yet: nothing is delivered, nothing fails.
	if f := opts.Notify(context.Background(), model.Block{}, model.Warning{Kind: model.WarnExpiring}, time.Now()); f != nil {
		t.Errorf("failures before connecting: %v", f)
	}

	a, _ = parseTUI([]string{"--demo", "--warn-leads", "6h"}, os.Stderr)
	oc, err = newTUIOncall(a.AWS, a.oncall, cmdutil.LoadUserConfig, time.Second)
	if err != nil || oc.settings.Rules.Leads[0] != 6*time.Hour || len(oc.settings.Rules.Leads) != 1 || oc.regions != nil {
		t.Errorf("the flag does not win: %+v, %v", oc, err)
	}
}

// A damaged on-call key is named with its file, and its secret never repeated.
func TestOncallConfigRefusals(t *testing.T) {
	for body, want := range map[string]string{
		`{"warn_leads": "soon"}`:                     "warn_leads",
		`{"notify_url": "hooks.example.com/SECRET"}`: "notify_url",
		`{"extend_length": "15d"}`:                   "extend_length",
		`{"warn_lead": "24h"}`:                       "warn_leads, notify_cmd",
	} {
		writeOncallConfig(t, body)
		_, _, err := cmdutil.LoadUserConfig()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "config.json") || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: %v, want %q named", body, err, want)
		}
	}
}
