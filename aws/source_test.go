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
