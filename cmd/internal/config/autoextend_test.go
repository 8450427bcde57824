package config_test

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// The auto_extend section is read, written back by config init, and refused at its line
// when it is damaged.
func TestAutoExtendSection(t *testing.T) {
	c, err := config.Load(cmdtest.TempFile(t, "config.yaml", "auto_extend:\n  length: 1d\n  approve_cmd: approve-spend\n  tag: keep=yes\n"))
	want := config.AutoExtend{Length: "1d", ApproveCmd: "approve-spend", Tag: "keep=yes"}
	if err != nil || c.AutoExtend != want {
		t.Fatalf("%+v, %v", c.AutoExtend, err)
	}
	out, err := config.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back config.File
	if _, err := config.DecodeYAML(out, &back); err != nil || back.AutoExtend != want {
		t.Errorf("written back as %q: %+v, %v", out, back.AutoExtend, err)
	}
	for body, why := range map[string]string{
		"warn_leads: 24h\nauto_extend:\n  length: 5x\n": "line 2: auto_extend.length",
		"auto_extend:\n  lenght: 1d\n":                  "unknown key auto_extend.lenght",
		"auto_extend:\n  length: 1d\n  length: 2d\n":    "auto_extend.length given twice",
		"auto_extend: 1d\n":                             "auto_extend: want length",
		"auto_extend:\n  tag: novalue\n":                "auto_extend.tag",
		"auto_extend:\n  length: 2d-3d\n":               "not a range",
	} {
		if _, err := config.Load(cmdtest.TempFile(t, "config.yaml", body)); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", body, err, why)
		}
	}
}
