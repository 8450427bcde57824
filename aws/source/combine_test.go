package source

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/model"
)

// A region searched for both sources is searching until both are done, counts the
// offerings of both, and names the source of each message.
func TestCombinedRegionStatus(t *testing.T) {
	m := &merged{done: map[model.Source]int{}, total: map[model.Source]int{}, regs: map[string]map[model.Source]model.RegionStatus{},
		srcs: []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan}}
	e := m.fold(model.SourceCapacityBlock, SearchEvent{Region: "us-east-1", CallsDone: 1, CallsTotal: 1,
		Status: &model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 3}})
	if e.Status.State != model.RegionSearching || e.Status.Offerings != 3 {
		t.Errorf("blocks done, plans not yet: %+v, want searching with 3", *e.Status)
	}
	e = m.fold(model.SourceTrainingPlan, SearchEvent{Region: "us-east-1", CallsDone: 2, CallsTotal: 4,
		Status: &model.RegionStatus{Region: "us-east-1", State: model.RegionThrottled, Message: "slowed down"}})
	if e.CallsDone != 3 || e.CallsTotal != 5 {
		t.Errorf("calls %d/%d, want 3/5 over both sources", e.CallsDone, e.CallsTotal)
	}
	if e.Status.State != model.RegionOK || e.Status.Offerings != 3 || e.Status.Message != "SageMaker Training Plans: slowed down" {
		t.Errorf("both answered: %+v", *e.Status)
	}
}

// Split searches the sources that sell what is asked and names the others with why;
// it refuses only when none is left, and a query of one source is that source's to refuse.
func TestSplit(t *testing.T) {
	both := []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan}
	q := model.Query{Sources: both, InstanceTypes: []string{"ml.p6e-gb200.36xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2}}
	parts, skips, err := Split(both, q)
	if err != nil || len(parts) != 1 || parts[0].Source != model.SourceTrainingPlan || len(skips) != 1 || skips[0].Source != model.SourceCapacityBlock {
		t.Errorf("a type only the plans sell: parts %+v, skips %+v, %v", parts, skips, err)
	}
	if parts, skips, err = Split(both[:1], q); err == nil || len(parts) != 0 || len(skips) != 2 ||
		!strings.Contains(err.Error(), "SageMaker Training Plans are not available in this build") {
		t.Errorf("the plans not linked: parts %+v, skips %+v, %v", parts, skips, err)
	}
	q.InstanceTypes = []string{"g6e.48xlarge"}
	if _, _, err = Split(both, q); err == nil || !strings.HasPrefix(err.Error(), "no source sells this: ") {
		t.Errorf("a type no source sells: %v", err)
	}
	q.Sources = both[1:]
	if parts, skips, err = Split(both, q); err != nil || len(parts) != 1 || len(skips) != 0 || parts[0].Query.InstanceTypes[0] != "g6e.48xlarge" {
		t.Errorf("one source is asked as it is: parts %+v, skips %+v, %v", parts, skips, err)
	}
}
