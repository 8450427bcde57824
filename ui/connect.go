package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
)

// Connection is the backend and what the header says about it. When the UI opens it itself
// (Options.Connect), the first frame does not wait for credentials to resolve, an SSO token
// to refresh or the emulator to start.
type Connection struct {
	Backend   Backend
	Simulated bool
	Profile   string
	Region    string
	Notice    string
	// Now is the backend's clock (the emulator's may be moved); nil keeps the UI's.
	Now func() time.Time
	// Sources, when set, are what the form searches at first: the demo shows both side by side.
	Sources []model.Source
}

type connectedMsg struct {
	c   Connection
	err error
}

func connectCmd(ctx context.Context, connect func(context.Context) (Connection, error)) tea.Cmd {
	return func() tea.Msg {
		c, err := connect(ctx)
		return connectedMsg{c, err}
	}
}

// clock is the UI's time, shared by the root and the form, so that a backend with a clock
// of its own can replace it once connected. skew is how far the backend's clock was from it
// at the last look (sync): the emulator's clock can be moved while the UI runs.
type clock struct {
	now  func() time.Time
	skew time.Duration
}

func (c *clock) Now() time.Time { return c.now().Add(c.skew) }

// sync sets the clock to the backend's time t, read just now.
func (c *clock) sync(t time.Time) { c.skew = t.Sub(c.now()) }

// onConnected takes the backend into use and asks who the calls are made as.
func (m Model) onConnected(msg connectedMsg) (tea.Model, tea.Cmd) {
	m.connecting = false
	if msg.err != nil {
		m.connectErr = msg.err
		m.identityOK = true // nothing more will load
		return m, nil
	}
	c := msg.c
	m.opts.Backend, m.opts.Simulated, m.opts.Profile, m.opts.Region = c.Backend, c.Simulated, c.Profile, c.Region
	if c.Notice != "" {
		m.notice = c.Notice
	}
	if c.Now != nil {
		m.clk.now, m.clk.skew = c.Now, 0
	}
	m.clock = m.clk.Now()
	m.form.SetHomeRegion(c.Region)
	if len(c.Sources) > 0 {
		m.form.SetSources(c.Sources, "")
	}
	m, list := m.loadBlocks() // the header counts the blocks' warnings on every screen
	return m, tea.Batch(identityCmd(m.opts.Context, c.Backend), list)
}

// Err is why the UI could not connect, for the program's exit status; nil otherwise.
func (m Model) Err() error { return m.connectErr }
