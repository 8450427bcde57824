package configcmd

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// cli runs `gpublock config` as the program does.
var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdConfig(f) }}

// Without any file, init writes an example that reads back as no configuration.
func TestConfigInitWritesAnExample(t *testing.T) {
	cmdtest.Env(t)
	code, out, errs := cli.Run("config", "init")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile(strings.TrimSpace(out))
	if err != nil || !strings.Contains(string(b), "# theme: auto") {
		t.Fatalf("%s: %v", b, err)
	}
	c, err := config.Load(strings.TrimSpace(out))
	if err != nil || c.ReadOnly || c.MaxSpend != "" || c.Theme != "" {
		t.Errorf("example read back as %+v, %v", c, err)
	}
}
