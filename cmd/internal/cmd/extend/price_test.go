package extend

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

func TestExtensionWithoutOnDemandPriceSaysSo(t *testing.T) {
	b := model.Block{ReservationID: "cr-0123456789abcdef0", Region: "eu-north-1", InstanceType: "p6-b200.48xlarge", TotalCount: 1}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", Count: 1, DurationHours: 24, Fee: model.MustMoney("2800.00"),
		Start: cmdtest.SimStart, End: cmdtest.SimStart.Add(24 * time.Hour)}
	cmp := extensionComparison(b, off)
	if !cmp.NoOnDemand || !strings.Contains(cmp.NoOnDemandReason, "no on-demand price") {
		t.Fatalf("comparison %+v", cmp)
	}
	var w strings.Builder
	printExtensionSummary(&w, cmdutil.BackendInfo{Mode: cmdutil.ModeSimulated}, "123", b, off, cmp)
	if !strings.Contains(w.String(), "Break-even:  none: no on-demand price") || !strings.Contains(w.String(), "$2,800.00") {
		t.Errorf("summary:\n%s", w.String())
	}
}

// A length extend cannot sell is refused with what is allowed, without offering a range,
// which extend does not take.
func TestExtendBadDurationOffersNoRange(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, d := range []string{"15d", "27w", "36h"} {
		code, _, errs := cli.Run("extend", "cr-0123456789abcdef0", "--endpoint-url", cs.URL, "--duration", d, "--yes")
		if code != 2 || !strings.Contains(errs, "--duration") || !strings.Contains(errs, "3w–26w") || strings.Contains(errs, "range 2d-7d") {
			t.Errorf("%s: exit %d, %q", d, code, errs)
		}
	}
}
