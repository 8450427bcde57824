package awsapi

import (
	"testing"

	"github.com/gpublock/gpublock/aws/source"
)

// A line without a backend is the live journal's (AWS's) and no one's in the simulated
// journal, where it could be the demo's or gpublock sim's and must not be settled.
func TestOfBackendLegacyLines(t *testing.T) {
	entries := []source.JournalEntry{{RequestID: "old"}, {RequestID: "demo", Backend: BackendDemo}, {RequestID: "sim", Backend: BackendEmulator}, {RequestID: "real", Backend: BackendAWS}}
	ids := func(es []source.JournalEntry) (s string) {
		for _, e := range es {
			s += e.RequestID + ","
		}
		return s
	}
	if mine, hidden := OfBackend(entries, BackendAWS, BackendAWS); ids(mine) != "old,real," || hidden != 2 {
		t.Errorf("live: %s hidden %d", ids(mine), hidden)
	}
	if mine, hidden := OfBackend(entries, BackendDemo, ""); ids(mine) != "demo," || hidden != 3 {
		t.Errorf("demo: %s hidden %d", ids(mine), hidden)
	}
	if mine, _ := OfBackend(entries, BackendEmulator, ""); ids(mine) != "sim," {
		t.Errorf("sim: %s", ids(mine))
	}
}
