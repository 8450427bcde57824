// Package spend is the one state machine of the dialogs that spend money or start
// instances (a purchase, an extension, a launch): the dry run asked first (or the plain fact
// that the source has none), a refusal above the spending cap before anything is sent, the
// typed word and its refusals, the call in flight that cannot be called back, and its
// outcome. A dialog is this machine plus its Action (its word and nouns) and its own facts
// and form; it sends the calls itself and feeds the answers back here.
package spend

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/textfield"
)

// Action is what parameterises the machine: the word typed to confirm and how the dialog's
// sentences name what it does.
type Action struct {
	Word string // typed to confirm: "buy", "extend", "launch"
	Noun string // the call in a sentence: "purchase", "extension", "launch"
	Done string // its past participle: "bought", "extended", "launched"
	// Ask is the dry run's question while it is out: "buy", "extend".
	Ask string
}

// Phase is where the machine is.
type Phase int

const (
	Checking Phase = iota // the dry run is out
	Ready                 // allowed (or no dry run exists): the word can be typed
	Refused               // the dry run refused or failed, or the fee is above the cap
	Sending               // the call is in flight; it cannot be called back
	Done                  // the call answered: Failure is nil when it went through
)

// Machine is one spend dialog's state.
type Machine struct {
	Action
	phase   Phase
	check   int64 // the dry run whose answer counts
	Perm    source.Permission
	PermErr error
	// OverCap: the fee is above the spending cap, so nothing is asked or sent.
	OverCap bool
	// NoDryRun: the source has none (SageMaker); nothing is checked before the call.
	NoDryRun bool
	// Field is where the word is typed.
	Field textfield.Model
	// Note is why the last key did nothing, said under the confirmation.
	Note      string
	quitAsked bool
	Failure   *source.ActionError

	// Clock is the wall clock the keys are timed by (nil: time.Now). Never the backend's:
	// the emulator's runs fast or is moved, and a person's reading time does not.
	Clock func() time.Time
	// shown is when the facts were drawn whole for the first time: the dry run allowed, or
	// the source's sentence that it has none was shown. Zero while nothing can be typed.
	shown time.Time
	// early is how many keys were discarded since the last one that counted.
	early int
}

// New is a machine waiting for its first dry run.
func New(a Action) Machine {
	f := textfield.New("")
	f.CharLimit = 16
	return Machine{Action: a, Field: f}
}

// Fresh is a new machine for the same action and clock (another choice, from the start).
func (m Machine) Fresh() Machine {
	n := New(m.Action)
	n.Clock = m.Clock
	return n
}

func (m Machine) now() time.Time {
	if m.Clock == nil {
		return time.Now()
	}
	return m.Clock()
}

// Readable reports whether a key pressed now counts: the facts are drawn and the dwell has
// passed since.
func (m Machine) Readable() bool {
	return m.phase == Ready && !m.shown.IsZero() && m.now().Sub(m.shown) >= model.ConfirmDwell
}

// discard throws a key away, saying so under the field.
func (m *Machine) discard() {
	m.early++
	keys := fmt.Sprintf("%d keys typed before the confirmation was readable were", m.early)
	if m.early == 1 {
		keys = "1 key typed before the confirmation was readable was"
	}
	then := "type " + m.Word + " now."
	if m.phase == Checking {
		then = "type " + m.Word + " once the dry run has answered."
	}
	m.Note = keys + " discarded; " + then
}

// Paste is a paste (a bracketed one, which the terminal marks as such) while the dialog is
// open: it never types into the field and never confirms, since nobody reads what they
// paste in the moment it lands. A terminal without bracketed paste sends a paste as keys,
// a burst which the dwell discards when it comes early.
func (m *Machine) Paste() {
	if m.CanType() {
		m.Note = "A paste never confirms and is not typed in: type " + m.Word + " yourself, key by key."
	}
}

// Phase is where the machine is.
func (m Machine) Phase() Phase { return m.phase }

// Busy: the call is in flight, and its answer must be read.
func (m Machine) Busy() bool { return m.phase == Sending }

// CheckID is the dry run whose answer counts.
func (m Machine) CheckID() int64 { return m.check }

// Check starts a dry run and returns its id, which its answer must carry. A word typed
// before was typed for another answer, and is cleared.
func (m *Machine) Check() int64 {
	m.check++
	m.Field.SetValue("")
	m.phase, m.Perm, m.PermErr, m.NoDryRun = Checking, source.Permission{}, nil, false
	m.shown, m.early = time.Time{}, 0
	return m.check
}

// Answer takes the dry run's answer; a stale one (another check, or none out) is ignored.
func (m *Machine) Answer(check int64, p source.Permission, err error) bool {
	if check != m.check || m.phase != Checking {
		return false
	}
	m.Perm, m.PermErr = p, err
	m.phase = Ready
	if err != nil || !p.Allowed {
		m.phase = Refused
	}
	// The answer is drawn in the frame after this update: the dwell starts from it.
	m.shown = m.now()
	return true
}

// Restate is for a fact that arrived under the word field after the others (a warning):
// the dwell starts again from it, and a word begun before it was drawn is cleared.
func (m *Machine) Restate() {
	m.Field.SetValue("")
	if !m.shown.IsZero() {
		m.shown = m.now()
	}
}

// SkipDryRun is for a source that has none: the permission is learnt only by the call.
func (m *Machine) SkipDryRun(action string) {
	m.NoDryRun, m.phase, m.Perm, m.PermErr = true, Ready, source.Permission{Allowed: true, Action: action}, nil
	m.shown = m.now()
}

// Cap refuses a fee above the spending cap: nothing is asked or sent.
func (m *Machine) Cap() { m.OverCap, m.phase = true, Refused }

// Uncap undoes Cap for another choice (a length whose fee is under the cap).
func (m *Machine) Uncap() { m.OverCap = false }

// Allowed: the dry run allowed the call (or there is none).
func (m Machine) Allowed() bool { return m.phase == Ready }

// CanType reports whether the word field is offered: while the dry run is out (a key
// pressed then is discarded) and once it allowed.
func (m Machine) CanType() bool { return m.phase == Checking || m.phase == Ready }

// Type feeds a key to the word field, when it is offered. A key pressed before the facts
// were readable (Readable) is discarded, and the note says how many were.
func (m *Machine) Type(k tea.KeyPressMsg) {
	switch {
	case !m.CanType():
	case !m.Readable():
		m.discard()
	default:
		// The note said why an earlier key did nothing; this one counts.
		m.early, m.Note = 0, ""
		m.Field, _ = m.Field.Update(k)
	}
}

// Typed is the word as typed, trimmed.
func (m Machine) Typed() string { return strings.TrimSpace(m.Field.Value()) }

// Verdict is what an enter on the word means.
type Verdict int

// Every verdict but Go leaves a Note saying what to do, and none of them closes the dialog
// by itself: a dialog closes on esc (or q), and on Useless when it chooses to.
const (
	Go      Verdict = iota // send the call: the machine is Sending
	Empty                  // nothing typed: the note asks for the word
	Wrong                  // another word: cleared, and the note names the word
	NotYet                 // the call cannot go ahead yet: the word was cleared (Note says why)
	Useless                // nothing could go ahead (refused, over the cap, sent)
)

// Confirm is an enter on the word: Confirmed, and on Go the call is marked sent.
func (m *Machine) Confirm(why string) Verdict {
	v := m.Confirmed(why)
	if v == Go {
		m.Send()
	}
	return v
}

// Confirmed is what an enter on the word means, the call not yet marked sent. why is the dialog's own reason the call cannot
// go ahead now ("" if none: the account unknown, a form or tags to fix, a confirmation
// that does not fit the terminal); the machine's own (the cap, the dry run) come first. An
// enter before the facts were readable is a key like the others: discarded.
func (m *Machine) Confirmed(why string) Verdict {
	w := m.Typed()
	switch {
	case !m.CanType():
		m.Note = m.Blocker(why)
		if m.phase == Refused {
			m.Note += " esc closes."
		}
		return Useless
	case !m.Readable():
		m.discard()
		m.Field.SetValue("")
		return NotYet
	case w == "":
		m.Note = "Type " + m.Word + ", then enter; esc cancels."
		return Empty
	case w != m.Word:
		// A wrong word does not cancel: it is cleared, and the word is named.
		m.Note = fmt.Sprintf("%q is not %s: type %s, or esc to cancel.", w, m.Word, m.Word)
		m.Field.SetValue("")
		return Wrong
	}
	if r := m.Blocker(why); r != "" {
		// A refused confirmation is spent: the next enter must never go ahead on a word
		// typed before the dialog could be read whole or the dry run answered.
		m.Note = m.Cleared(r)
		m.Field.SetValue("")
		return NotYet
	}
	return Go
}

// Cleared is the note of a refused confirmation whose word was cleared, for why.
func (m Machine) Cleared(why string) string {
	return why + " The word was cleared: type " + m.Word + " again once it can go ahead."
}

// Send marks the call sent, for a dialog whose own form confirmed it (a launch, or its
// attachment to a block's start).
func (m *Machine) Send() { m.phase, m.Note = Sending, "" }

// Blocker is why the call cannot go ahead now, or "": the cap, the dry run, then why.
func (m Machine) Blocker(why string) string {
	switch m.phase {
	case Refused:
		if m.OverCap {
			return "The fee is above the spending cap: nothing can be " + m.Done + "."
		}
		return "The dry run did not allow the " + m.Noun + "."
	case Checking:
		return "Wait for the dry run to answer."
	case Sending, Done:
		return "The " + m.Noun + " has been sent."
	}
	return why
}

// InFlight is a key while the call is in flight: it cannot be called back, so only a
// second ctrl+c quits (its outcome is then unread; the journal keeps its request id).
func (m *Machine) InFlight(k tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(k, quitKey) {
		m.Note = "The " + m.Noun + " has been sent and cannot be stopped; its answer is on its way."
		return nil
	}
	if m.quitAsked {
		return tea.Quit
	}
	m.quitAsked = true
	m.Note = "A " + m.Noun + " is in flight: quitting now would leave its outcome unread. Wait for its answer; ctrl+c again quits anyway (the journal keeps the request id)."
	return nil
}

// QuitAsked: a first ctrl+c came while the call was in flight.
func (m Machine) QuitAsked() bool { return m.quitAsked }

// Settle takes the call's answer: Done, with the failure if it failed.
func (m *Machine) Settle(err error) {
	m.phase, m.Failure = Done, nil
	if err != nil {
		m.Failure = AsActionError(err)
	}
}

// AsActionError is err as the dialogs read an outcome; a plain error did nothing.
func AsActionError(err error) *source.ActionError {
	if ae, ok := err.(*source.ActionError); ok {
		return ae
	}
	return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: err.Error()}, Err: err}
}

// Outcome is how a settled call reads.
type Outcome int

const (
	Succeeded Outcome = iota
	Unknown           // the answer was lost and the outcome could not be found out
	Already           // an interrupted run already did it; nothing more was done
	Sold              // the offering went to someone else meanwhile
	Failed            // refused or failed: nothing was done
)

// Outcome is how the settled call reads.
func (m Machine) Outcome() Outcome {
	f := m.Failure
	switch {
	case f == nil:
		return Succeeded
	case f.Outcome == source.Unknown:
		return Unknown
	case f.AlreadyBought():
		return Already
	case f.Sold():
		return Sold
	}
	return Failed
}

// DryRunAnswer is the dry run's answer as the dialog's "Dry run" field says it, and its tone.
func (m Machine) DryRunAnswer(noDryRun string) (Tone, string) {
	switch {
	case m.OverCap:
		return ToneRefused, ""
	case m.NoDryRun:
		return ToneWarning, noDryRun
	case m.phase == Checking:
		return TonePending, "⋯ asking AWS whether this identity may " + m.Ask + " (DryRun)…"
	case refusal(m.PermErr):
		// The spend service's refusal, in the words the command line prints too.
		return ToneRefused, "✗ " + m.PermErr.Error() + " esc closes."
	case m.PermErr != nil:
		return ToneRefused, "✗ failed: " + m.PermErr.Error() + " Nothing can be " + m.Done + "; esc closes."
	case !m.Perm.Allowed:
		return ToneRefused, "✗ " + model.NotAllowed(m.Perm.Action, m.Done) + " esc closes."
	}
	return ToneAllowed, "✓ allowed (" + m.Perm.Action + ")"
}

// refusal reports whether err is one of the spend service's refusals, which carry their
// own verdict ("REFUSED:", "NOT ALLOWED:", "Already bought:").
func refusal(err error) bool {
	ae, ok := err.(*source.ActionError)
	return ok && (ae.OverCap() || ae.ReadOnly() || ae.AlreadyBought() || ae.Code == "UnauthorizedOperation")
}

// Tone is how an answer is styled.
type Tone int

const (
	TonePending Tone = iota
	ToneAllowed
	ToneRefused
	ToneWarning
)

// quitKey is the only key that acts while a call is in flight (InFlight).
var quitKey = key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c twice", "quits anyway"))

// KeyMap is the keys of a spend dialog, which feed its footer and the help.
type KeyMap struct {
	Confirm key.Binding
	// Fields are the action's own (its form's fields), named between the word and esc.
	Fields []key.Binding
	Cancel key.Binding
	Close  key.Binding
	Quit   key.Binding
}

// Keys is the machine's keys in its phase, with the action's own fields: while the call is
// in flight only ctrl+c does anything; once it answered, or when nothing can be sent, the
// keys close.
func (m Machine) Keys(fields ...key.Binding) KeyMap {
	km := KeyMap{
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("type "+m.Word+" then enter", "to "+m.Word)),
		Fields:  fields,
		Cancel:  key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc or q", "cancels")),
		Close:   key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("esc, enter or q", "closes")),
		Quit:    quitKey,
	}
	ready := m.phase == Checking || m.phase == Ready
	km.Confirm.SetEnabled(ready)
	km.Cancel.SetEnabled(ready)
	for i := range km.Fields {
		km.Fields[i].SetEnabled(ready && km.Fields[i].Enabled())
	}
	km.Close.SetEnabled(m.phase == Done)
	km.Quit.SetEnabled(m.phase == Sending)
	if m.phase == Refused {
		// Any key that would have confirmed or cancelled closes: nothing can go ahead.
		km.Close = key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("esc", "closes: nothing can be "+m.Done+" here"))
	}
	return km
}

// ShortHelp is the keys the footer names, in its order.
func (k KeyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, b := range append(append([]key.Binding{k.Confirm}, k.Fields...), k.Cancel, k.Close, k.Quit) {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// FullHelp is ShortHelp in one column.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Footer is the dialog's key line: its keys, and while the call is in flight, that it waits.
func (m Machine) Footer(fields ...key.Binding) string {
	var parts []string
	if m.phase == Sending {
		parts = append(parts, "waiting for AWS's answer")
	}
	for _, b := range m.Keys(fields...).ShortHelp() {
		h := b.Help()
		parts = append(parts, strings.TrimSpace(h.Key+" "+h.Desc))
	}
	return strings.Join(parts, " • ")
}

// FakeClock is a wall clock for tests: it reads its time, and moves Step after every
// reading (a Step above model.ConfirmDwell is a person who reads before every key).
type FakeClock struct {
	mu   sync.Mutex
	at   time.Time
	Step time.Duration
}

// NewFakeClock is a clock at t moving step after every reading.
func NewFakeClock(t time.Time, step time.Duration) *FakeClock {
	return &FakeClock{at: t, Step: step}
}

// Now reads the clock, then moves it Step.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.at
	c.at = c.at.Add(c.Step)
	return t
}

// Advance moves the clock d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
}
