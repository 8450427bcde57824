package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/theme"
)

func TestViewComparedSaysOnDemandOrWhyNot(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := twoDays("cb-1", start, "2000")
	c := pricing.Compare(nil, o)
	v := ansi.Strip(ViewCompared(theme.New(false), c, model.Query{}, start.Add(-time.Hour), time.UTC, false, 200, 40))
	flat := strings.Join(strings.Fields(v), " ")
	for _, want := range []string{"On-demand $55.040/h", "$2,614.40 for the usable hours: the block costs 24% less", "Break-even " + c.Reading()} {
		if !strings.Contains(flat, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
	o.InstanceType, o.Region, o.AvailabilityZone = "trn2.48xlarge", "us-west-2", "us-west-2a"
	v = ansi.Strip(ViewCompared(theme.New(false), pricing.Compare(nil, o), model.Query{}, start.Add(-time.Hour), time.UTC, false, 200, 40))
	if !strings.Contains(v, "On-demand   — none known in us-west-2 · try gpublock prices --refresh") || strings.Contains(v, "Break-even") {
		t.Errorf("without an on-demand price:\n%s", v)
	}
	o.InstanceType, o.Region, o.AvailabilityZone = "p6-b200.48xlarge", "eu-north-1", "eu-north-1a"
	v = ansi.Strip(ViewCompared(theme.New(false), pricing.Compare(nil, o), model.Query{}, start.Add(-time.Hour), time.UTC, false, 200, 40))
	if !strings.Contains(v, "sold only as Capacity Blocks") || strings.Contains(v, "Break-even") {
		t.Errorf("a type sold only as blocks:\n%s", v)
	}
}
