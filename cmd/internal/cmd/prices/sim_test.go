package prices

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/pricing"
)

// `gpublock prices --refresh` against `gpublock sim`: the emulator serves the Price List
// API, through the real SDK, from the embedded catalog.
func TestPricesRefreshFromSimCommand(t *testing.T) {
	awsCache := pricesEnv(t)
	base, _, cancel, wait := cli.ServeSim(t)
	cachePath, _ := pricing.CachePathFor(base)
	code, out, errs := cli.Run("prices", "--refresh", "--endpoint-url", base, "--region", "eu-north-1", "--type", "p5.48xlarge,p6-b200.48xlarge")
	if code != 0 || cachePath == awsCache || !strings.Contains(errs, "Fetched 1 on-demand price from the AWS Price List API (2 requests) into "+cachePath) ||
		!strings.Contains(errs, "No on-demand price returned for: p6-b200.48xlarge in eu-north-1") {
		t.Fatalf("refresh from gpublock sim: exit %d\n%s", code, errs)
	}
	if cmdtest.LineWith(out, "*", "on-demand", "p5.48xlarge", "eu-north-1", "$58.893/h", "AWS Price List API", "via "+base) == "" {
		t.Errorf("output lacks the fetched figure:\n%s", out)
	}
	// The emulator's prices are not AWS's: plain `prices` shows none of them.
	if _, err := os.Stat(awsCache); !os.IsNotExist(err) {
		t.Errorf("the emulator's prices reached AWS's price cache %s: %v", awsCache, err)
	}
	code, out, _ = cli.Run("prices", "--region", "eu-north-1", "--type", "p5.48xlarge")
	if code != 0 || strings.Contains(out, "via "+base) || strings.Contains(out, "AWS Price List API") {
		t.Errorf("plain prices shows the emulator's figure:\n%s", out)
	}
	cancel()
	wait()
}

// The in-process demo backend serves the Price List API as `gpublock sim` does.
func TestDemoBackendServesPriceList(t *testing.T) {
	pricesEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := cmdutil.AWSFlags{Demo: true, Region: "us-east-1", PerRegion: 4, Overall: 32, DemoSeed: 1}
	_, info, err := cmdutil.OpenBackend(ctx, &f, io.Discard)
	if err != nil || info.Mode != cmdutil.ModeSimulated || info.Endpoint == "" {
		t.Fatalf("demo backend: %+v, %v", info, err)
	}
	code, _, errs := cli.Run("prices", "--refresh", "--endpoint-url", info.Endpoint, "--region", "us-east-1", "--type", "p5.48xlarge")
	cachePath, _ := pricing.CachePathFor(info.Endpoint)
	if code != 0 || !strings.Contains(errs, "Fetched 1 on-demand price from the AWS Price List API (1 request) into "+cachePath) {
		t.Errorf("refresh from the demo backend: exit %d\n%s", code, errs)
	}
}
