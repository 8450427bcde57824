package spend_test

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

func service(t *testing.T) (*spend.Service, *awsapi.Client) {
	t.Helper()
	_, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Speed: 1e-9})
	c := apitest.Client(t, url, func(cfg *awsapi.Config) { cfg.Cloud = awsapi.CloudEmulator })
	cb := capacityblocks.New(c)
	return spend.New(c, cb), c
}

func outcomes(t *testing.T, c *awsapi.Client, id string) []source.JournalEntry {
	t.Helper()
	entries, _, err := c.Journal()
	if err != nil {
		t.Fatal(err)
	}
	var out []source.JournalEntry
	for _, e := range entries {
		if e.Phase == "outcome" && e.RequestID == id {
			out = append(out, e)
		}
	}
	return out
}

// A launch a stopped run left open is closed once, with what AWS started under its token.
func TestLaunchFoundClosesItsIntentOnce(t *testing.T) {
	sv, c := service(t)
	if err := c.WriteJournal(source.JournalEntry{Time: time.Now().UTC(), Phase: "intent", Action: "RunInstances", RequestID: "gpb-launch-1",
		Region: "us-east-1", Target: "cr-0123456789abcdef0", Count: 2}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sv.LaunchFound("gpb-launch-1", []string{"i-1", "i-2"}); err != nil {
			t.Fatal(err)
		}
	}
	got := outcomes(t, c, "gpb-launch-1")
	if len(got) != 1 || got[0].Outcome != "launched" || !got[0].SettledLater || got[0].Result != "i-1,i-2" || got[0].Target != "cr-0123456789abcdef0" {
		t.Fatalf("outcome lines %+v; want one, launched i-1,i-2, settled later", got)
	}
	if err := sv.LaunchFound("gpb-never-written", []string{"i-3"}); err != nil || len(outcomes(t, c, "gpb-never-written")) != 0 {
		t.Errorf("a launch without an intent line got an outcome (%v)", err)
	}
}

// The extension a decision led to is the block's first extension intent since the
// decision, with its final outcome once there is one.
func TestExtensionSince(t *testing.T) {
	sv, c := service(t)
	b := model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1"}
	decided := time.Now().UTC()
	intent := source.JournalEntry{Time: decided.Add(time.Second), Phase: "intent", Action: "PurchaseCapacityBlockExtension",
		RequestID: "gpb-ext-1", Region: "us-east-1", Target: b.ReservationID, Hours: 24}
	other := intent
	other.RequestID, other.Target = "gpb-ext-other", "cr-0fffffffffffffff0"
	for _, e := range []source.JournalEntry{other, intent} {
		if err := c.WriteJournal(e); err != nil {
			t.Fatal(err)
		}
	}
	got, out, found, err := sv.ExtensionSince(b, decided)
	if err != nil || !found || got.RequestID != "gpb-ext-1" || out != nil {
		t.Fatalf("open: %+v, %+v, %v (%v)", got, out, found, err)
	}
	closed := intent
	closed.Time, closed.Phase, closed.Outcome = decided.Add(2*time.Second), "outcome", string(source.Bought)
	if err := c.WriteJournal(closed); err != nil {
		t.Fatal(err)
	}
	if _, out, found, err := sv.ExtensionSince(b, decided); err != nil || !found || out == nil || out.Outcome != string(source.Bought) {
		t.Fatalf("closed: %+v, %v (%v)", out, found, err)
	}
	if _, _, found, err := sv.ExtensionSince(b, decided.Add(time.Minute)); err != nil || found {
		t.Errorf("an extension intended before the decision was taken for it (%v)", err)
	}
}
