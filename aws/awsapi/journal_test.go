package awsapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"
)

// The journal goes under XDG_STATE_HOME, in the directory of its backend and of the
// account STS names, never in the directory alone.
func TestJournalGoesUnderXDGStateHomeByBackendAndAccount(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *Config) { cfg.JournalDir = "" })
	p, err := c.JournalPath()
	// Taken for AWS when made (no probe said "emulator"), its answer to STS says which
	// emulator it is: its records go where the emulators' are, under its identity.
	want := filepath.Join(dir, "gpublock", "simulated", store.CloudOfEmulator(sim.ID()), "123456789012", "journal.jsonl")
	if err != nil || p != want {
		t.Fatalf("journal path %q, %v; want %q", p, err, want)
	}
	if err := c.journal.write(source.JournalEntry{Phase: "intent", RequestID: "x"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("journal file %v, %v: want mode 0600", fi, err)
	}
}

// Whatever the journal file holds, reading it never panics and keeps every whole line.
func FuzzReadJournal(f *testing.F) {
	f.Add([]byte(`{"time":"2026-12-01T08:00:00Z","phase":"intent","action":"PurchaseCapacityBlock","request_id":"gpb-1","region":"us-east-1"}` + "\n" + `{"tim`))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := t.TempDir() + "/journal.jsonl"
		whole := []byte(`{"time":"2026-12-01T08:00:00Z","phase":"intent","action":"PurchaseCapacityBlock","request_id":"gpb-last","region":"us-east-1"}`)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		// A line written after anything at all is read back.
		dir := strings.TrimSuffix(p, "/journal.jsonl")
		jj := journal{store: func() (store.Store, error) { return store.NewLocal(dir), nil }}
		var e source.JournalEntry
		if err := json.Unmarshal(whole, &e); err != nil {
			t.Fatal(err)
		}
		if err := jj.write(e); err != nil {
			t.Fatal(err)
		}
		entries, _, err := ReadJournal(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 || entries[len(entries)-1].RequestID != "gpb-last" {
			t.Fatalf("the entry written after %q was not read back: %+v", b, entries)
		}
	})
}

// A line without a backend is the live journal's (AWS's) and no one's in the simulated
// journal, where it could be the demo's or gpublock sim's and must not be settled.
func TestOfCloudLegacyLines(t *testing.T) {
	entries := []source.JournalEntry{{RequestID: "old"}, {RequestID: "demo", Cloud: CloudDemo}, {RequestID: "sim", Cloud: CloudEmulator}, {RequestID: "real", Cloud: CloudAWS}}
	ids := func(es []source.JournalEntry) (s string) {
		for _, e := range es {
			s += e.RequestID + ","
		}
		return s
	}
	if mine, hidden := OfCloud(entries, CloudAWS, CloudAWS); ids(mine) != "old,real," || hidden != 2 {
		t.Errorf("live: %s hidden %d", ids(mine), hidden)
	}
	if mine, hidden := OfCloud(entries, CloudDemo, ""); ids(mine) != "demo," || hidden != 3 {
		t.Errorf("demo: %s hidden %d", ids(mine), hidden)
	}
	if mine, _ := OfCloud(entries, CloudEmulator, ""); ids(mine) != "sim," {
		t.Errorf("sim: %s", ids(mine))
	}
}
