package flows

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui"
)

func TestConnectFailure(t *testing.T) {
	opts := testOptions(nil)
	opts.Connect = func(context.Context) (ui.Connection, error) {
		return ui.Connection{}, errors.New("The AWS configuration could not be loaded: bad profile.")
	}
	s := newScreen(t, ui.New(opts), 120, 30)
	text := s.WaitText("NOT CONNECTED")
	if !strings.Contains(text, "Could not connect: The AWS configuration could not be loaded") {
		t.Errorf("the error is not on screen:\n%s", text)
	}
	s.Press("enter")
	s.WaitText("Not connected, so nothing can be searched")
	s.Press("q")
	m := s.TM.FinalModel(t).(ui.Model)
	if m.Err() == nil || searched(m) {
		t.Errorf("err=%v searched=%v", m.Err(), searched(m))
	}
}
