package capacityblocks

import "testing"

func TestCapacityBlocksOwnReservationIDs(t *testing.T) {
	src := &Client{}
	for id, want := range map[string]bool{"cr-0123456789abcdef0": true, "cr-0123": false, "gpb-0123456789abcdef01234567": false,
		"my-plan": false, "cr-0123456789ABCDEF0": false} {
		if got := src.Owns(id); got != want {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}
