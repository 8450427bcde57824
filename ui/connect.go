package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// Connection is the backend and what the header says about it. When the UI opens it itself
// (Options.Connect), the first frame does not wait for credentials to resolve, an SSO token
// to refresh or the emulator to start.
type Connection struct {
	Backend   source.Backend
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

// onConnected takes the backend into use and asks who the calls are made as.
func (m Model) onConnected(msg connectedMsg) (tea.Model, tea.Cmd) {
	m.connecting = false
	if msg.err != nil {
		m.connectErr = msg.err
		m.pc.Identity.Known = true // nothing more will load
		m, _ = m.connectScreens(uiscreen.Connection{Err: msg.err})
		return m, nil
	}
	c := msg.c
	m.pc.Backend, m.pc.Simulated, m.opts.Profile, m.opts.Region = c.Backend, c.Simulated, c.Profile, c.Region
	if c.Notice != "" {
		m.notice = c.Notice
	}
	if c.Now != nil {
		m.pc.Clock.Replace(c.Now)
	}
	m, tick := m.moveClock()
	m, cmd := m.connectScreens(uiscreen.Connection{Region: c.Region, Sources: c.Sources})
	return m, tea.Batch(identityCmd(m.pc.Ctx, c.Backend), tick, cmd, m.spinCmd())
}

// connectScreens tells every screen of the connection.
func (m Model) connectScreens(c uiscreen.Connection) (Model, tea.Cmd) {
	return m.tellScreens(func(s uiscreen.Screen) (uiscreen.Screen, tea.Cmd) { return s.Connect(c) })
}

// Err is why the UI could not connect, for the program's exit status; nil otherwise.
func (m Model) Err() error { return m.connectErr }

type identityMsg struct {
	id  source.Identity
	err error
}

func identityCmd(ctx context.Context, b source.Backend) tea.Cmd {
	if b == nil {
		return func() tea.Msg { return identityMsg{err: errors.New("no backend")} }
	}
	return func() tea.Msg {
		id, err := b.Identity(ctx)
		return identityMsg{id, err}
	}
}
