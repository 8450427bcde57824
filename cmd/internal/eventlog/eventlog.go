// Package eventlog is a watcher's log as a service keeps it: one line per event, as text for
// a person at a terminal or as one JSON object per line (time, level, msg, event, account,
// region, reservation) for a log collector (journald, CloudWatch Logs, Loki).
package eventlog

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
)

// Kind is what an event is about.
type Kind string

const (
	// Started is the first event: the watcher runs (and where its health is served).
	Started      Kind = "started"
	RoundStarted Kind = "round-started"
	RoundEnded   Kind = "round-ended"
	Warning      Kind = "warning"
	Launch       Kind = "launch"
	Extension    Kind = "extension"
	Error        Kind = "error"
	// Stopped is the last event: the watcher stopped between rounds, as asked.
	Stopped Kind = "stopped"
)

// Formats are the values of --log-format.
var Formats = []string{"text", "json"}

// Event is one line of the log. Account, Region and Reservation are "" when unknown, and
// then left out of the JSON.
type Event struct {
	Kind                         Kind
	Level                        slog.Level
	Msg                          string
	Account, Region, Reservation string
	// Attrs are the event's other facts (a round's number, outcome, blocks).
	Attrs []slog.Attr
}

// Log writes events to one writer, whole lines at a time, from any goroutine.
type Log struct {
	mu     sync.Mutex
	w      io.Writer
	json   *slog.Logger // nil: text
	prefix string       // of a text line, e.g. "gpublock watch: "
}

// New is a log over w in format ("text" or "json"); a text line starts with prefix.
func New(w io.Writer, format, prefix string) (*Log, error) {
	l := &Log{w: w, prefix: prefix}
	switch format {
	case "text", "":
	case "json":
		l.json = slog.New(slog.NewJSONHandler(w, nil))
	default:
		return nil, fmt.Errorf("--log-format %q: allowed %s", format, strings.Join(Formats, " or "))
	}
	return l, nil
}

// JSON reports whether the log is JSON lines.
func (l *Log) JSON() bool { return l.json != nil }

// Emit writes e.
func (l *Log) Emit(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.json == nil {
		fmt.Fprintln(l.w, l.prefix+e.Msg)
		return
	}
	attrs := []slog.Attr{slog.String("event", string(e.Kind))}
	for _, a := range []struct{ k, v string }{{"account", e.Account}, {"region", e.Region}, {"reservation", e.Reservation}} {
		if a.v != "" {
			attrs = append(attrs, slog.String(a.k, a.v))
		}
	}
	attrs = append(attrs, e.Attrs...)
	l.json.LogAttrs(context.Background(), e.Level, e.Msg, attrs...)
}

// Lines is a writer whose every line becomes an event of the log: the lines the listing,
// the launches at a block's start and the auto-extension write for a person (prefixed
// "gpublock blocks: "), so that a JSON log holds nothing else. An event's kind, level,
// account, region and reservation are read from its line (see LineEvent).
func (l *Log) Lines() io.Writer { return &lineWriter{log: l} }

type lineWriter struct {
	log     *Log
	mu      sync.Mutex
	pending []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, p...)
	for {
		i := bytes.IndexByte(w.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.pending[:i])
		w.pending = w.pending[i+1:]
		if strings.TrimSpace(line) != "" {
			w.log.Emit(LineEvent(line))
		}
	}
}

var (
	commandPrefix = regexp.MustCompile(`^gpublock(?: [a-z-]+)?: `)
	reservationRE = regexp.MustCompile(`\bcr-[0-9a-f]{8,17}\b|arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:training-plan/[A-Za-z0-9-]+`)
	regionRE      = regexp.MustCompile(`\b(?:us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d\b`)
	accountRE     = regexp.MustCompile(`\b\d{12}\b`)
)

// LineEvent is the event a line written for a person stands for. Its kind is what the
// line is about (a WARNING, an auto-extension, a launch; any other line the watcher writes
// says what went wrong: an error); its level is an error's when the line says something
// failed or was not done; the first reservation id (or plan ARN), region and account
// number in it are its fields.
func LineEvent(line string) Event {
	msg := commandPrefix.ReplaceAllString(strings.TrimRight(line, "\r"), "")
	lower := strings.ToLower(msg)
	e := Event{Msg: msg, Kind: Error, Level: slog.LevelError}
	failed := containsAny(lower, "fail", "not ", "cannot", "could not", "refused", "error")
	switch {
	case strings.HasPrefix(msg, "WARNING"):
		e.Kind, e.Level = Warning, slog.LevelWarn
	case strings.Contains(lower, "auto-extend"):
		e.Kind = Extension
	case strings.Contains(lower, "launch"):
		e.Kind = Launch
	}
	switch {
	case e.Kind == Warning:
	case e.Kind != Error && strings.Contains(lower, "declined"):
		e.Level = slog.LevelWarn
	case e.Kind != Error && !failed, strings.HasPrefix(lower, "settled"):
		e.Level = slog.LevelInfo
	case strings.Contains(msg, " WARN "):
		e.Level = slog.LevelWarn // the SDK's own warnings ("SDK 2026/12/06 04:00:00 WARN ...")
	}
	e.Reservation = reservationRE.FindString(msg)
	e.Region = regionRE.FindString(msg)
	if a := accountRE.FindString(msg); a != "" {
		e.Account = a
	}
	return e
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
