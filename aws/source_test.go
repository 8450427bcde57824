package aws

import (
	"testing"

	"github.com/gpublock/gpublock/model"
)

func TestCapacityBlocksOwnReservationIDs(t *testing.T) {
	src := (&Client{}).CapacityBlocks()
	for id, want := range map[string]bool{"cr-0123456789abcdef0": true, "cr-0123": false, "gpb-0123456789abcdef01234567": false,
		"my-plan": false, "cr-0123456789ABCDEF0": false} {
		if got := src.Owns(id); got != want {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}

// The Capacity Blocks register themselves; a source that is not linked is refused by
// name, never opened as something else.
func TestSourceRegistry(t *testing.T) {
	c := &Client{}
	src, err := OpenSource(c, model.SourceCapacityBlock)
	if err != nil || src.Caps().Source != model.SourceCapacityBlock || !src.Caps().DryRun || !src.Caps().Launch {
		t.Fatalf("capacity blocks: %v, %+v", err, src)
	}
	if got := RegisteredSources(); len(got) == 0 || got[0] != model.SourceCapacityBlock {
		t.Errorf("registered %v, want the Capacity Blocks first", got)
	}
	if _, err := OpenSource(c, model.Source(99)); err == nil {
		t.Error("an unknown source opened")
	}
	if _, ok := SourceOwning([]Source{src}, "my-plan"); ok {
		t.Error("a plan's name was taken for a Capacity Reservation id")
	}
	if got, ok := SourceOwning([]Source{src}, "cr-0123456789abcdef0"); !ok || got.Caps().Source != model.SourceCapacityBlock {
		t.Error("a Capacity Reservation id was not routed to the Capacity Blocks")
	}
}

// fakeSource is a second source as a new package would register it: only the registry's
// part is exercised here, so every call refuses.
type fakeSource struct{ Source }

func (fakeSource) Caps() SourceCaps {
	return SourceCaps{Source: model.SourceTrainingPlan, Noun: "fake plan"}
}
func (fakeSource) Owns(id string) bool { return id == "fake-1" }

// A second source is one registration: it is listed after the blocks, opened by its value,
// its capabilities known without a client, its intents settled, and ids routed to it.
func TestRegisterSecondSource(t *testing.T) {
	RegisterSource(SourceRegistration{Source: model.SourceTrainingPlan, Caps: fakeSource{}.Caps(),
		Open:    func(*Client) Source { return fakeSource{} },
		Intents: &IntentSource{Purchase: "CreateFake", Extend: "ExtendFake", Noun: "fake plan"}})
	t.Cleanup(func() {
		sourceMu.Lock()
		delete(sources, model.SourceTrainingPlan)
		sourceMu.Unlock()
		intentMu.Lock()
		delete(intentSources, "CreateFake")
		delete(intentSources, "ExtendFake")
		intentMu.Unlock()
	})
	if got := RegisteredSources(); len(got) != 2 || got[0] != model.SourceCapacityBlock || got[1] != model.SourceTrainingPlan {
		t.Fatalf("registered %v", got)
	}
	if caps, ok := CapsOf(model.SourceTrainingPlan); !ok || caps.Noun != "fake plan" || caps.DryRun {
		t.Errorf("caps %+v, %v", caps, ok)
	}
	c := &Client{}
	blocks, _ := OpenSource(c, model.SourceCapacityBlock)
	fake, err := OpenSource(c, model.SourceTrainingPlan)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := SourceOwning([]Source{blocks, fake}, "fake-1"); !ok || got.Caps().Noun != "fake plan" {
		t.Errorf("fake-1 routed to %v", got)
	}
	if !settles("CreateFake") || !isExtendAction("ExtendFake") || purchaseAction(model.SourceTrainingPlan) != "CreateFake" {
		t.Error("the registration did not reach the journal's settling")
	}
}
