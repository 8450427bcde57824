// Package order is the terminal UI's orders: the dialog that places an order from the
// search form (the ceiling typed, the rule and the worst case shown, then the purchase's
// typed word), and the list of the account's orders with their state and countdown to
// expiry. Both talk to the backend's source.OrderBook; watchers fill the orders.
package order

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
)

// Place is the dialog that places an order for the search form's query.
type Place struct {
	env     dialog.Env
	q       model.Query
	ceiling textfield.Model // $ per accelerator-hour of the usable hours
	expires textfield.Model // a date or +7d
	field   int             // 0 ceiling, 1 expires, 2 the word
	order   model.Order     // once the form reads
	formErr string
	m       spend.Machine
	placed  *model.Order
	id      int64
}

// action is the order's confirmation: the purchase's word, since what it places may buy.
var action = spend.Action{Word: "buy", Noun: "order", Done: "ordered", Ask: "place"}

// NewPlace is the dialog for q (the form's query, its window fixed now).
func NewPlace(env dialog.Env, q model.Query) Place {
	m := spend.New(action)
	m.Clock = env.Wall
	return Place{env: env, q: q, ceiling: textfield.New(""), expires: textfield.New("+7d"), m: m, id: dialog.NextSeq()}
}

type placedMsg struct {
	id    int64
	order model.Order
	err   error
}

var (
	nextField = key.NewBinding(key.WithKeys("tab", "enter"))
	prevField = key.NewBinding(key.WithKeys("shift+tab"))
	back      = key.NewBinding(key.WithKeys("esc"))
	enter     = key.NewBinding(key.WithKeys("enter"))
)

func (d Place) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case placedMsg:
		if msg.id != d.id {
			return d, nil, false
		}
		d.m.Settle(msg.err)
		if msg.err == nil {
			d.placed = &msg.order
			return d, func() tea.Msg {
				return dialog.RootMsg{Flash: "Placed order " + msg.order.ID + ": this TUI, or any watcher (blocks --watch, gpublock watch), fills it."}
			}, false
		}
		return d, nil, false
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil, false
}

func (d Place) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	if d.m.Phase() == spend.Sending {
		return d, d.m.InFlight(k), false
	}
	if key.Matches(k, back) || d.m.Phase() == spend.Done {
		return d, nil, key.Matches(k, back) || key.Matches(k, enter)
	}
	if d.field == 2 {
		switch {
		case key.Matches(k, prevField):
			d.field = 1
			return d, nil, false
		case key.Matches(k, enter):
			if d.m.Confirm("") != spend.Go {
				return d, nil, false
			}
			return d, d.send(), false
		}
		d.m.Type(k)
		return d, nil, false
	}
	switch {
	case key.Matches(k, prevField):
		d.field = max(0, d.field-1)
		return d, nil, false
	case key.Matches(k, nextField):
		if d.field == 0 {
			d.field = 1
			return d, nil, false
		}
		if err := d.read(); err != nil {
			d.formErr = err.Error()
			return d, nil, false
		}
		// The facts are drawn now, whole: the dwell before the word counts starts here.
		d.formErr, d.field = "", 2
		d.m = d.m.Fresh()
		d.m.SkipDryRun("place an order")
		return d, nil, false
	}
	f := &d.ceiling
	if d.field == 1 {
		f = &d.expires
	}
	*f, _ = f.Update(k)
	return d, nil, false
}

// read makes the order of the form's fields, or says what is wrong.
func (d *Place) read() error {
	amount, err := model.ParseMoney(strings.TrimPrefix(strings.TrimSpace(d.ceiling.Value()), "$"))
	if err != nil || amount.Cmp(model.Money{}) <= 0 {
		return fmt.Errorf("the ceiling %q: want dollars per accelerator-hour above zero, such as 4.50", d.ceiling.Value())
	}
	now := d.env.Now()
	exp, err := model.ParseDate(strings.TrimSpace(d.expires.Value()), now)
	if err != nil {
		return fmt.Errorf("expires: %v", err)
	}
	o := model.Order{Query: d.q, Ceiling: model.Ceiling{Kind: model.PerAcceleratorHour, Amount: amount}, Expires: exp, MaxSpend: d.env.MaxSpend, Tags: d.env.Tags}
	if o.Ceiling.Check() != nil || !exp.After(now) {
		return fmt.Errorf("the order would expire at %s, before now", exp.UTC().Format(model.LayoutMinuteZone))
	}
	d.order = o
	return nil
}

func (d Place) send() tea.Cmd {
	book, ok := d.env.Backend.(source.OrderBook)
	id, o, ctx := d.id, d.order, d.env.CallCtx()
	return func() tea.Msg {
		if !ok {
			return placedMsg{id: id, err: fmt.Errorf("this backend keeps no orders (several accounts at once): use gpublock order")}
		}
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		placed, err := book.PlaceOrder(ctx, o)
		return placedMsg{id: id, order: placed, err: err}
	}
}

func (d Place) View(width, height int) string {
	th := d.env.Theme
	cw := max(1, min(width, dialog.MaxWidth)-2)
	var lines []string
	add := func(render func(...string) string, s string) {
		for _, l := range text.Wrap(s, cw) {
			lines = append(lines, render(l))
		}
	}
	add(th.Muted.Render, fmt.Sprintf("Order %s × %d, %s, in %s: a watcher buys it once, when it is offered within the ceiling.",
		strings.Join(d.q.InstanceTypes, " or "), d.q.Count, d.q.Durations, strings.Join(d.q.Regions, ", ")))
	field := func(i int, label string, f textfield.Model) {
		st := th.Label
		if d.field == i {
			st = th.Focused
		}
		lines = append(lines, st.Render(label)+" "+f.View(max(8, cw-len(label)-1), d.field == i, th.Value, th.Cursor, th.Muted))
	}
	field(0, "Ceiling $/accelerator-hour:", d.ceiling)
	field(1, "Expires (date or +7d):     ", d.expires)
	if d.formErr != "" {
		add(th.Error.Render, d.formErr)
	}
	if d.field == 2 {
		lines = append(lines, "")
		account := d.env.Account()
		facts := model.OrderFacts(d.order, account, d.env.Now(), d.env.Location)
		for _, f := range facts.Lines {
			add(th.Value.Render, f.Label+": "+f.Value)
		}
		add(th.Warning.Render, facts.Final)
		switch d.m.Phase() {
		case spend.Done:
			if d.placed != nil {
				add(th.OK.Render, "Placed "+d.placed.ID+". This TUI, or any watcher (blocks --watch, gpublock watch), fills it; enter or esc closes.")
			} else if d.m.Failure != nil {
				add(th.Error.Render, "Not placed: "+d.m.Failure.Error())
			}
		case spend.Sending:
			add(th.Muted.Render, "Placing…")
		default:
			lines = append(lines, th.Focused.Render("Type "+d.m.Word+" to place it: ")+d.m.Field.View(16, true, th.Value, th.Cursor, th.Muted))
			if d.m.Note != "" {
				add(th.Accent.Render, d.m.Note)
			}
		}
	}
	r := dialog.BoxRect(width, height, len(lines))
	return dialog.ModeFrame(th, d.env.Simulated, "Place an order", strings.Join(lines, "\n"), r)
}

// Footer names the dialog's keys.
func (d Place) Footer() string {
	if d.field == 2 {
		return "type buy, enter places • shift+tab back • esc cancels"
	}
	return "tab/enter next field • shift+tab back • esc cancels"
}

var _ dialog.Footer = Place{}
