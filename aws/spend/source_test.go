package spend

import (
	"testing"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// fakeSource is a second source as a new package would add it: only its part in the
// journal's settling is exercised here, so every other call refuses.
type fakeSource struct{ source.Source }

func (fakeSource) Caps() source.Caps {
	return source.Caps{Source: model.SourceTrainingPlan, Noun: "fake plan"}
}
func (fakeSource) Owns(id string) bool { return id == "fake-1" }
func (fakeSource) Intents() source.IntentSource {
	return source.IntentSource{Source: model.SourceTrainingPlan, Purchase: "CreateFake", Extend: "ExtendFake", Noun: "fake plan"}
}

// A second source is one more in the spend path's list: its intents are settled, and ids
// are routed to it.
func TestSecondSourceIsSettled(t *testing.T) {
	fake := fakeSource{}
	sv := New(nil, fake)
	if got, ok := source.Owning([]source.Source{fake}, "fake-1"); !ok || got.Caps().Noun != "fake plan" {
		t.Errorf("fake-1 routed to %v", got)
	}
	if !sv.settles("CreateFake") || !sv.isExtendAction("ExtendFake") || sv.purchaseAction(model.SourceTrainingPlan) != "CreateFake" {
		t.Error("the source did not reach the journal's settling")
	}
}
