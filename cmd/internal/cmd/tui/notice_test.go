package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// Against an emulator the notice says nothing is real, and does not say nothing can be
// bought: buying works there, which is what the emulator is for.
func TestTUINoticeForAnEmulator(t *testing.T) {
	cs := cmdtest.StartSim(t)
	f := cmdutil.AWSFlags{PerRegion: 4, Overall: 32, EndpointURL: cs.URL}
	c, err := connect(context.Background(), &f, nil)
	if err != nil {
		t.Fatal(err)
	}
	// It fits a 100-column terminal with the endpoint of a local `gpublock sim` (the
	// notice line is cut to the width).
	if !c.Simulated || !strings.Contains(c.Notice, "nothing is real") || strings.Contains(c.Notice, "nothing can be bought") || len([]rune(c.Notice)) > 100-len("▲ ")-len("http://127.0.0.1:4566")+len(cs.URL) {
		t.Errorf("simulated %v, notice %q", c.Simulated, c.Notice)
	}
}
