package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// The first frame is drawn while the backend is still opening; once it is open the header
// says what it is and the form's default region becomes its region.
func TestConnectBehindTheFirstFrame(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	release := make(chan struct{})
	opts := testOptions(nil)
	opts.Region = ""
	opts.Simulated = false
	opts.Connect = func(ctx context.Context) (Connection, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return Connection{}, ctx.Err()
		}
		return Connection{Backend: b, Simulated: true, Profile: "demo", Region: "us-west-2", Notice: "A notice, said once.",
			Now: func() time.Time { return testNow }}, nil
	}
	s := newScreen(t, New(opts), 160, 48)
	first := s.waitText("connecting")
	if strings.Contains(first, "SIMULATED") || strings.Contains(first, "LIVE") {
		t.Errorf("a mode is claimed before the backend is open:\n%s", first)
	}
	s.press("enter")
	s.waitText("Still connecting")
	close(release)
	s.waitText("123456789012")
	s.waitText("A notice, said once.")
	s.press("enter")
	if found := foundCount(t, s); found == 0 {
		t.Error("the search after connecting found nothing")
	}
	m := s.final()
	if got := m.search().Query().Regions; len(got) != 1 || got[0] != "us-west-2" {
		t.Errorf("searched %v, want the connection's region us-west-2", got)
	}
	if !m.pc.Simulated || m.opts.Profile != "demo" || m.Err() != nil {
		t.Errorf("after connecting: simulated=%v profile=%q err=%v", m.pc.Simulated, m.opts.Profile, m.Err())
	}
}

func TestConnectFailure(t *testing.T) {
	opts := testOptions(nil)
	opts.Connect = func(context.Context) (Connection, error) {
		return Connection{}, errors.New("The AWS configuration could not be loaded: bad profile.")
	}
	s := newScreen(t, New(opts), 120, 30)
	text := s.waitText("NOT CONNECTED")
	if !strings.Contains(text, "Could not connect: The AWS configuration could not be loaded") {
		t.Errorf("the error is not on screen:\n%s", text)
	}
	s.press("enter")
	s.waitText("Not connected, so nothing can be searched")
	s.press("q")
	m := s.tm.FinalModel(t).(Model)
	if m.Err() == nil || searched(m) {
		t.Errorf("err=%v searched=%v", m.Err(), searched(m))
	}
}
