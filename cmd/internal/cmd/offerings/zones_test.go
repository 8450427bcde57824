package offerings

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// offerings --all-zones also searches the zones the account has not opted in to: the
// Atlanta Local Zone's p5 blocks show then, with their ZoneType, and never without it.
func TestOfferingsAllZones(t *testing.T) {
	cs := cmdtest.StartSim(t)
	localRows := func(extra ...string) int {
		t.Helper()
		n := 0
		for d := 0; d < 30 && n == 0; d++ {
			from := cmdtest.SimStart.Add(time.Duration(d) * 24 * time.Hour)
			args := append([]string{"offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "p5.48xlarge",
				"--duration", "1d", "--from", from.Format(time.RFC3339), "--to", from.Add(7 * 24 * time.Hour).Format(time.RFC3339), "-o", "json"}, extra...)
			code, out, errs := cli.Run(args...)
			var rows []struct{ AvailabilityZone, ZoneType string }
			if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
				t.Fatalf("offerings %v: exit %d\n%s\n%s", extra, code, out, errs)
			}
			for _, r := range rows {
				switch r.ZoneType {
				case "local-zone":
					n++
				case "availability-zone":
				default:
					t.Fatalf("row in %s has ZoneType %q", r.AvailabilityZone, r.ZoneType)
				}
			}
		}
		return n
	}
	if n := localRows(); n != 0 {
		t.Errorf("%d Local Zone rows without --all-zones", n)
	}
	if n := localRows("--all-zones"); n == 0 {
		t.Error("no Local Zone row with --all-zones in 30 days")
	}
}
