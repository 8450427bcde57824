package search

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// shown is the screen as the root shows it in a w×h terminal: under a one-line header,
// over the status line, which says the last key's flash, or else the screen's own line.
type shown struct {
	Model
	flash string
}

// newShown is the screen of a program started with opts, in a w×h terminal, whose clock
// reads now.
func newShown(opts Options, now func() time.Time, w, h int) shown {
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(now), Location: uitest.Loc}
	if opts.Region == "" {
		opts.Region = "us-east-1"
	}
	return shown{Model: New(pc, opts)}.resize(w, h)
}

// unsized is newShown with the tests' fixed clock and the default options, before the
// terminal's first size.
func unsized() shown { return newShown(Options{}, func() time.Time { return uitest.Now }, 0, 0) }

// resize is the terminal resized to w×h, as the root gives the screen its body.
func (s shown) resize(w, h int) shown {
	s.pc.Width, s.pc.Height = w, h
	if w > 0 {
		s.Resize(screen.Area{Top: 1, Width: w, Height: h - 2})
	}
	return s
}

// update gives the screen msgs as the root would: a key clears the flash before it.
func (s shown) update(msgs ...tea.Msg) shown {
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case tea.WindowSizeMsg:
			s = s.resize(msg.Width, msg.Height)
			continue
		case tea.KeyPressMsg:
			s.flash = ""
		}
		s.Model, _ = s.Model.Update(msg)
		s.SetNow(s.pc.Now())
		s.flash = s.Flash().Apply(s.flash)
	}
	return s
}

// update and keyMsg are the names the program's tests gave these steps.
func update(s shown, msgs ...tea.Msg) shown { return s.update(msgs...) }

var keyMsg = uitest.Key

// startSearch and startFormSearch are a search started, as a key would start it with a
// backend.
func (s shown) startSearch(q model.Query) shown {
	s.flash = ""
	s.Model, _ = s.StartSearch(q)
	s.flash = s.Flash().Apply(s.flash)
	return s
}

func (s shown) startFormSearch(q model.Query) shown {
	s.flash = ""
	s.Model, _ = s.StartFormSearch(q)
	s.flash = s.Flash().Apply(s.flash)
	return s
}

// status is the status line.
func (s shown) status() string {
	if s.flash != "" {
		return s.flash
	}
	return s.StatusLine(s.Typing())
}

// header is the header's word on the watch, as the root draws it.
func (s shown) header() string { return ansi.Strip(s.WatchBadge(s.pc.Width < 80)) }

// view is the screen and its status line, without colour.
func (s shown) view() string { return ansi.Strip(s.View() + "\n" + s.status()) }

// withResults is s after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(s shown, offs []model.Offering) shown {
	q, _ := s.form.Query()
	s = s.startFormSearch(q)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	events = append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
	return s.update(EventsMsg{ID: s.search.id, Events: events, Closed: true})
}
