package source

import (
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
