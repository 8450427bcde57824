package simcore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An emulator's identity is made at its first start and kept in its state file: a
// restart on the file is the same emulator, another file or none is another.
func TestIDIsKeptInTheStateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	first, err := New(Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	id := first.ID()
	if !validID(id) {
		t.Fatalf("identity %q", id)
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), `"id":"`+id+`"`) {
		t.Fatalf("the state file after the first start holds %q (%v); want the identity %s", b, err, id)
	}
	again, err := New(Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	if again.ID() != id {
		t.Errorf("restarted on its state file: identity %q, want %q", again.ID(), id)
	}
	other, err := New(Options{StateFile: filepath.Join(t.TempDir(), "state.json")})
	if err != nil {
		t.Fatal(err)
	}
	inMemory, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if other.ID() == id || inMemory.ID() == id || inMemory.ID() == other.ID() || !validID(inMemory.ID()) {
		t.Errorf("identities %q (first), %q (another file), %q (in memory): want three", id, other.ID(), inMemory.ID())
	}
}

// A state file written before emulators had an identity gets one, kept with its state.
func TestStateFileWithoutAnIDGetsOne(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, []byte(`{"version":1,"clock":"2026-12-01T00:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	again, err := New(Options{StateFile: file})
	if err != nil || !validID(c.ID()) || again.ID() != c.ID() {
		t.Fatalf("identities %q then %q (%v): want one, kept", c.ID(), again.ID(), err)
	}
}

// An identity that could not name a place for records is refused with the file named.
func TestStateFileWithABadIDIsRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, []byte(`{"version":1,"id":"../other","clock":"2026-12-01T00:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{StateFile: file})
	if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "id") {
		t.Fatalf("New: %v; want the file and its bad id said", err)
	}
}
