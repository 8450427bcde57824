package tui

import (
	"bytes"
	"testing"
)

// --no-mouse is read; the mouse is on without it.
func TestTUINoMouseFlag(t *testing.T) {
	var errw bytes.Buffer
	if a, err := parseTUI([]string{"--no-mouse"}, &errw); err != nil || !a.noMouse {
		t.Errorf("--no-mouse read as %v, err %v", a.noMouse, err)
	}
	if a, err := parseTUI(nil, &errw); err != nil || a.noMouse {
		t.Errorf("default read as noMouse %v, err %v", a.noMouse, err)
	}
}
