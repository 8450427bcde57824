package journal

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// The --demo simulator and gpublock sim hand out the same reservation ids: each keeps its
// own journal (by backend and account), each run lists and settles only its own, and an
// entry still names its backend.
func TestJournalKeepsBackendsApart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	simBlock := cli.BoughtBlock(t, cs)
	search := []string{"--demo", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "1", "--duration", "2d", "--to", "+2w"}
	code, out, errs := cli.Run(append([]string{"offerings", "-o", "json"}, search...)...)
	var offs []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &offs) != nil || len(offs) == 0 {
		t.Fatalf("offerings: exit %d, stderr %q\n%s", code, errs, out)
	}
	if code, _, errs := cli.Run(append([]string{"purchase", offs[0].CapacityBlockOfferingId, "--yes"}, search...)...); code != 0 {
		t.Fatalf("purchase --demo: exit %d, %q", code, errs)
	}
	// An intent of the demo's left open by a crash: the emulator's run must not settle it.
	var path string // the demo's
	for _, p := range cmdtest.StateFiles(t, "journal.jsonl") {
		if strings.Contains(p, "/demo/") {
			path = p
		}
	}
	open := source.JournalEntry{Time: time.Now().UTC(), Phase: "intent", Action: "PurchaseCapacityBlock", RequestID: "demo-open-1",
		Region: "us-east-1", Offering: "cb-x", Type: "p5.48xlarge", Count: 1, Backend: awsapi.BackendDemo}
	line, _ := json.Marshal(open)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()

	rows := func(args ...string) ([]Row, string) {
		t.Helper()
		code, out, errs := cli.Run(append([]string{"journal", "-o", "json", "--region", "us-east-1"}, args...)...)
		var rs []Row
		if json.Unmarshal([]byte(out), &rs) != nil {
			t.Fatalf("journal %v: exit %d, stderr %q\n%s", args, code, errs, out)
		}
		return rs, errs
	}
	simRows, simErrs := rows("--endpoint-url", cs.URL)
	if len(simRows) != 1 || simRows[0].CapacityReservationId != simBlock.CapacityReservationId || simRows[0].Outcome != "bought" {
		t.Errorf("journal against gpublock sim lists %+v, want its one purchase", simRows)
	}
	// Each backend's journal is its own file: the demo's lines are not even read.
	if strings.Contains(simErrs, "settled") || strings.Contains(simErrs, "not shown") {
		t.Errorf("journal against gpublock sim: stderr %q; want nothing of the demo's, nothing settled", simErrs)
	}
	demoRows, demoErrs := rows("--demo", "--no-settle")
	if len(demoRows) != 2 || demoRows[0].Outcome != "bought" || demoRows[1].RequestId != "demo-open-1" || demoRows[1].Outcome != "open" {
		t.Errorf("journal --demo lists %+v, want its purchase and its open intent", demoRows)
	}
	if strings.Contains(demoErrs, "not shown") {
		t.Errorf("journal --demo: stderr %q, want nothing of the emulator's", demoErrs)
	}
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e source.JournalEntry
		if json.Unmarshal([]byte(l), &e) != nil || (e.Backend != awsapi.BackendDemo && e.Backend != awsapi.BackendEmulator) {
			t.Errorf("a journal line without its backend: %s", l)
		}
	}
}
