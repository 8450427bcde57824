package tuibackend

import (
	"testing"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// A region searched for both sources is searching until both are done, counts the
// offerings of both, and names the source of each message.
func TestCombinedRegionStatus(t *testing.T) {
	m := &merged{done: map[model.Source]int{}, total: map[model.Source]int{}, regs: map[string]map[model.Source]backend.RegionStatus{}, n: 2}
	e := m.fold(model.SourceCapacityBlock, backend.SearchEvent{Region: "us-east-1", CallsDone: 1, CallsTotal: 1,
		Status: &backend.RegionStatus{Region: "us-east-1", State: backend.RegionOK, Offerings: 3}})
	if e.Status.State != backend.RegionSearching || e.Status.Offerings != 3 {
		t.Errorf("blocks done, plans not yet: %+v, want searching with 3", *e.Status)
	}
	e = m.fold(model.SourceTrainingPlan, backend.SearchEvent{Region: "us-east-1", CallsDone: 2, CallsTotal: 4,
		Status: &backend.RegionStatus{Region: "us-east-1", State: backend.RegionThrottled, Message: "slowed down"}})
	if e.CallsDone != 3 || e.CallsTotal != 5 {
		t.Errorf("calls %d/%d, want 3/5 over both sources", e.CallsDone, e.CallsTotal)
	}
	if e.Status.State != backend.RegionOK || e.Status.Offerings != 3 || e.Status.Message != "SageMaker Training Plans: slowed down" {
		t.Errorf("both answered: %+v", *e.Status)
	}
}

func TestCapacityReservationIDs(t *testing.T) {
	for id, want := range map[string]bool{"cr-0123456789abcdef0": true, "cr-0123": false, "gpb-0123456789abcdef01234567": false,
		"my-plan": false, "cr-0123456789ABCDEF0": false} {
		if got := isCapacityReservationID(id); got != want {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}

// AWS documents a plan extension's PaymentStatus as Pending then Completed; an unknown word
// stays pending, so that nothing is called paid that may not be.
func TestPlanExtensionStatus(t *testing.T) {
	for in, want := range map[string]model.ExtensionStatus{"Pending": model.ExtensionPaymentPending, "Completed": model.ExtensionPaymentSucceeded,
		"Failed": model.ExtensionPaymentFailed, "Whatever": model.ExtensionPaymentPending, "": model.ExtensionPaymentPending} {
		if got := planExtensionStatus(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}
