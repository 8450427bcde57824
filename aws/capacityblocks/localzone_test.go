package capacityblocks

import (
	"context"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

// A search asks for the zones the account has not opted in to (AllAvailabilityZones)
// only when the query says so, and its offerings carry their zone type: p5 blocks in
// the Atlanta Local Zone are found then, and only then.
func TestSearchAllZones(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	local := func(all bool) (found bool) {
		t.Helper()
		q.AllZones = all
		for d := 0; d < 40 && !found; d++ {
			q.Start = simtest.Start.Add(time.Duration(d) * 24 * time.Hour)
			q.End = q.Start.Add(7 * 24 * time.Hour)
			offs, _, _ := collect(t, c.Search(context.Background(), q))
			for _, o := range offs {
				switch {
				case o.ZoneType == "local-zone":
					found = true
				case o.ZoneType != "availability-zone":
					t.Fatalf("offering %s has zone type %q", o.ID, o.ZoneType)
				}
			}
		}
		return found
	}
	if local(false) {
		t.Error("a Local Zone offering without AllZones")
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Form.Has("AllAvailabilityZones") }); n != 0 {
		t.Errorf("%d calls sent AllAvailabilityZones without AllZones", n)
	}
	if !local(true) {
		t.Error("no Local Zone offering with AllZones in 40 days")
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Form.Get("AllAvailabilityZones") == "true" }); n == 0 {
		t.Error("AllZones sent no AllAvailabilityZones=true")
	}
}
