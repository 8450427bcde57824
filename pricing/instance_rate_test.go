package pricing

import (
	"testing"

	"github.com/gpublock/gpublock/model"
)

func TestInstanceOnDemandHourly(t *testing.T) {
	c := Comparison{OnDemandHourly: model.MustMoney("900")}
	ultra := model.Offering{InstanceType: "u-p6e-gb200x36", UltraServerCount: 1}
	if got := c.InstanceOnDemandHourly(ultra); got.Cmp(model.MustMoney("100")) != 0 {
		t.Errorf("UltraServer of 9: %s per instance-hour, want 100", got)
	}
	if got := c.InstanceOnDemandHourly(model.Offering{InstanceType: "p5.48xlarge"}); got.Cmp(c.OnDemandHourly) != 0 {
		t.Errorf("p5: %s, want the rate itself", got)
	}
}
