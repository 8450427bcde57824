package order

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/screen"
)

// List is the account's orders: each one's state, countdown to expiry, the best offering
// its last search saw against its ceiling, and what it bought or why it has not, read again
// by itself while it is open (a watcher fills them). x cancels the selected open order; r
// reads them again now.
type List struct {
	env    dialog.Env
	every  time.Duration
	orders []model.Order
	now    time.Time // the backend's, when they were read
	loaded bool
	err    error
	note   string
	cursor int
	// confirm is the order x was pressed on once: x again on it cancels it. It is the
	// order's id, so that a list read again in between cannot turn it into another's.
	confirm string
	id      int64
	timer   int // the read that is due when the timer fires; earlier timers are stale
}

// NewList is the list, reading the orders, and again every (screen.RefreshEvery) while open.
func NewList(env dialog.Env, every time.Duration) (List, tea.Cmd) {
	l := List{env: env, every: screen.RefreshEvery(every), id: dialog.NextSeq()}
	return l, l.load()
}

type timerMsg struct {
	id    int64
	timer int
}

type listedMsg struct {
	id     int64
	orders []model.Order
	now    time.Time
	err    error
}

type cancelledMsg struct {
	id    int64
	order model.Order
	err   error
}

var (
	up     = key.NewBinding(key.WithKeys("up", "k"))
	down   = key.NewBinding(key.WithKeys("down", "j"))
	cancel = key.NewBinding(key.WithKeys("x"))
	reload = key.NewBinding(key.WithKeys("r"))
	closeL = key.NewBinding(key.WithKeys("esc", "q"))
)

func (l List) book() (source.OrderBook, bool) {
	b, ok := l.env.Backend.(source.OrderBook)
	return b, ok
}

func (l List) load() tea.Cmd {
	book, ok := l.book()
	id, ctx := l.id, l.env.CallCtx()
	return func() tea.Msg {
		if !ok {
			return listedMsg{id: id, err: fmt.Errorf("this backend keeps no orders (several accounts at once): use gpublock order --list")}
		}
		ctx, stop := context.WithTimeout(ctx, time.Minute)
		defer stop()
		os, now, err := book.Orders(ctx)
		return listedMsg{id: id, orders: os, now: now, err: err}
	}
}

func (l List) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case listedMsg:
		if msg.id != l.id {
			return l, nil, false
		}
		selected := l.selected()
		l.orders, l.now, l.err, l.loaded = msg.orders, msg.now, msg.err, true
		l.cursor = min(l.cursor, max(0, len(l.orders)-1))
		for i, o := range l.orders {
			if o.ID == selected {
				l.cursor = i // the same order stays selected wherever it moved
			}
		}
		l.timer++
		id, timer := l.id, l.timer
		return l, tea.Tick(l.every, func(time.Time) tea.Msg { return timerMsg{id, timer} }), false
	case timerMsg:
		if msg.id != l.id || msg.timer != l.timer {
			return l, nil, false
		}
		return l, l.load(), false
	case cancelledMsg:
		if msg.id != l.id {
			return l, nil, false
		}
		l.note = "Cancelled " + msg.order.ID + "."
		if msg.err != nil {
			l.note = "Not cancelled: " + msg.err.Error()
		}
		return l, l.load(), false
	case tea.KeyPressMsg:
		return l.key(msg)
	}
	return l, nil, false
}

// selected is the id of the order the cursor is on ("" when there is none).
func (l List) selected() string {
	if l.cursor < len(l.orders) {
		return l.orders[l.cursor].ID
	}
	return ""
}

func (l List) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	wasConfirming := l.confirm
	l.confirm = ""
	switch {
	case key.Matches(k, closeL):
		return l, nil, true
	case key.Matches(k, up):
		l.cursor = max(0, l.cursor-1)
	case key.Matches(k, down):
		l.cursor = min(max(0, len(l.orders)-1), l.cursor+1)
	case key.Matches(k, reload):
		l.note = ""
		return l, l.load(), false
	case key.Matches(k, cancel) && l.cursor < len(l.orders):
		o := l.orders[l.cursor]
		if o.State != model.OrderOpen {
			l.note = fmt.Sprintf("%s is %s: only an open order can be cancelled.", o.ID, o.State)
			return l, nil, false
		}
		if wasConfirming != o.ID {
			l.confirm, l.note = o.ID, "x again cancels "+o.ID+"; any other key keeps it."
			return l, nil, false
		}
		book, _ := l.book()
		id, ctx := l.id, l.env.CallCtx()
		l.note = "Cancelling " + o.ID + "…"
		return l, func() tea.Msg {
			c, err := book.CancelOrder(ctx, o.ID)
			return cancelledMsg{id: id, order: c, err: err}
		}, false
	}
	if wasConfirming != "" {
		l.note = ""
	}
	return l, nil, false
}

// Row is one order in a line of the list: its id, state, what it wants, its ceiling, the
// countdown to its expiry (on the backend's clock), and its best offering seen.
func Row(o model.Order, now time.Time) string {
	expires := "expired " + o.Expires.UTC().Format(model.LayoutShortUTC)
	switch {
	case o.State.Live() && o.Expires.After(now):
		expires = "expires in " + model.ShortSpan(o.Expires.Sub(now))
	case o.State == model.OrderFilled, o.State == model.OrderCancelled, o.State == model.OrderRefused:
		expires = "closed"
	}
	best := "not searched yet"
	if o.Best != nil {
		mark := "above the ceiling"
		if o.Best.Within {
			mark = "within"
		}
		best = fmt.Sprintf("best %s/acc-h %s", o.Best.Rate.Rate(), mark)
	} else if !o.LastSearch.IsZero() {
		best = "nothing offered"
	}
	return fmt.Sprintf("%s  %-9s %s × %d %s  ≤ %s  %s  %s", o.ID, o.State, strings.Join(o.Query.InstanceTypes, "|"), o.Query.Count, o.Query.Durations, o.Ceiling, expires, best)
}

func (l List) View(width, height int) string {
	th := l.env.Theme
	cw := max(1, min(width, dialog.MaxWidth)-2)
	var lines []string
	add := func(render func(...string) string, s string) {
		for _, x := range text.Wrap(s, cw) {
			lines = append(lines, render(x))
		}
	}
	switch {
	case !l.loaded:
		add(th.Muted.Render, "Reading the orders…")
	case l.err != nil:
		add(th.Error.Render, "The orders cannot be read: "+l.err.Error())
	case len(l.orders) == 0:
		add(th.Muted.Render, "No orders. On the search screen, o places one from the form.")
	}
	for i, o := range l.orders {
		row := ansi.Truncate(Row(o, l.now), cw, "…")
		if i == l.cursor {
			lines = append(lines, th.Selected.Render(row))
			add(th.Muted.Render, "  "+model.OrderNote(o))
			continue
		}
		lines = append(lines, row)
	}
	if l.note != "" {
		add(th.Accent.Render, l.note)
	}
	r := dialog.BoxRect(width, height, len(lines))
	return screen.Box(th, "Orders", strings.Join(lines, "\n"), r, true)
}

// Footer names the list's keys.
func (l List) Footer() string { return "j/k move • x cancel the order • r read again • esc back" }

var _ dialog.Footer = List{}
