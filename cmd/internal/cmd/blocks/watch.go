package blocks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/eventlog"
	"github.com/gpublock/gpublock/cmd/internal/health"
)

const watchLong = "Runs the watcher of gpublock blocks --watch unattended, as a service (systemd, a container,\n" +
	"a Kubernetes pod): every --interval it fires the launches attached to a block's start, sends\n" +
	"each new warning once, extends blocks by the --auto-extend policy, and fills the open orders\n" +
	"(gpublock order), as blocks --watch does.\n" +
	"It prints no listing: its output is its events on stderr, one line each (round ended, warning,\n" +
	"launch, extension, error), as text or, with --log-format json, as one JSON object per line\n" +
	"with time, level, msg, event, and account, region and reservation when the event has them.\n\n" +
	"--health-file PATH is written (whole, never half) at the end of every round with the time the\n" +
	"round ended and its outcome; --health-addr HOST:PORT serves GET /healthz: 200 while the last\n" +
	"round ended within --stale-after (by default 3 intervals, at least 5 minutes), 503 after. A\n" +
	"round that could not reach AWS still ended: its outcome says so, and the watcher stays alive\n" +
	"(a restart would not make AWS reachable).\n\n" +
	"SIGTERM or Ctrl-C stops the watcher between rounds: a round under way runs to its end (its\n" +
	"launches, extensions and records are finished, not cut off), the health says \"stopped\", and\n" +
	"the exit status is 0. A second signal ends the round at once.\n\n" +
	"Exit status: 0 stopped as asked; 1 the health endpoint or file could not be set up, or the\n" +
	"backend could not be opened; 2 bad usage."

// service is what `gpublock watch` adds to the watch of `blocks --watch`: its events as a
// log, its health, and a stop between rounds.
type service struct {
	logFormat, healthFile, healthAddr string
	staleAfter                        time.Duration
	now                               func() time.Time
	wait                              func(ctx context.Context, d time.Duration) bool

	log    *eventlog.Log
	warned map[string]bool // the warnings logged, by their notification key
}

// NewCmdWatch is `gpublock watch`: the options and flags of `gpublock blocks` with the watch
// on, no listing printed, an interval of a minute, and the service's own flags.
func NewCmdWatch(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, a := newCmdBlocks(f, runF)
	s := &service{now: f.Now, wait: f.Wait, warned: map[string]bool{}}
	a.service = s
	cmd.Use = "watch"
	cmd.Short = "run the blocks watcher as a service: at-start launches, warnings, auto-extension; JSON logs, health, SIGTERM"
	cmd.Long = watchLong
	cmd.Example = "  gpublock watch --log-format json --health-addr 127.0.0.1:8080\n" +
		"  gpublock watch --interval 1m --warn-leads 24h,2h --notify-url https://hooks.slack.com/services/...\n" +
		"  gpublock watch --auto-extend 1d --max-spend 60000 --health-file /run/gpublock/health.json"
	fs := cmd.Flags()
	a.interval = time.Minute
	fs.Lookup("interval").DefValue = a.interval.String()
	fs.Lookup("interval").Usage = "time between rounds (at least 1s)"
	for _, name := range []string{"watch", "output"} {
		_ = fs.MarkHidden(name) // the watch is on; there is no listing
	}
	fs.StringVar(&s.logFormat, "log-format", "text", "events on stderr as `text` lines or as json lines (one object per event)")
	fs.StringVar(&s.healthFile, "health-file", "", "write the health (last round's end and outcome) to this `file` after every round")
	fs.StringVar(&s.healthAddr, "health-addr", "", "serve GET /healthz on this `address` (e.g. 127.0.0.1:8080): 200 while rounds end, 503 when stale")
	fs.DurationVar(&s.staleAfter, "stale-after", 0, "the health is stale when no round ended for this `duration` (default 3 intervals, at least 5m)")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if c.Flags().Changed("output") {
			return cmdutil.Usagef("gpublock watch prints no listing, only its events (--log-format json); for a listing use gpublock blocks --watch -o ...")
		}
		if s.staleAfter < 0 {
			return cmdutil.Usagef("--stale-after %s: want a positive duration such as 10m", s.staleAfter)
		}
		log, err := eventlog.New(a.IO.ErrOut, strings.ToLower(strings.TrimSpace(s.logFormat)), "gpublock watch: ")
		if err != nil {
			return cmdutil.UsageError{Msg: err.Error()}
		}
		s.log = log
		// Every line the watcher, the backend and the SDK write for a person becomes an
		// event: in a JSON log nothing else may appear.
		a.IO.ErrOut = log.Lines()
		f.AWS.SDKLog = log.Lines()
		a.watch = true
		return run(c, args)
	}
	return cmd
}

// staleAfterFor is --stale-after, or 3 intervals (at least 5 minutes: a first round over
// every region, paced by AWS's request buckets, takes a while).
func (s *service) staleAfterFor(interval time.Duration) time.Duration {
	if s.staleAfter > 0 {
		return s.staleAfter
	}
	return max(3*interval, 5*time.Minute)
}

// serve is the watch as a service: rounds every interval until ctx ends, each finished
// before the stop; the health after each; the events in the log. It returns the exit
// status: 0 once stopped as asked.
func (a *Options) serve(ctx context.Context, client *awsapi.Client, regions []string) int {
	s, stderr := a.service, a.IO.ErrOut
	h := health.New(s.now, s.staleAfterFor(a.interval), s.healthFile)
	if err := h.Write(); err != nil {
		s.log.Emit(eventlog.Event{Kind: eventlog.Error, Level: slog.LevelError, Msg: err.Error()})
		return 1
	}
	if s.healthAddr != "" {
		bound, stop, err := health.Serve(s.healthAddr, h)
		if err != nil {
			s.log.Emit(eventlog.Event{Kind: eventlog.Error, Level: slog.LevelError, Msg: err.Error()})
			return 1
		}
		defer stop()
		s.log.Emit(eventlog.Event{Kind: eventlog.Started, Level: slog.LevelInfo, Msg: "health on http://" + bound + "/healthz",
			Attrs: []slog.Attr{slog.String("health_addr", bound)}})
	}
	// A round runs to its end when a stop is asked during it; a second signal ends it at once.
	roundCtx, endRound := context.WithCancel(context.WithoutCancel(ctx))
	defer endRound()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		for n := 0; ; {
			select {
			case <-roundCtx.Done():
				return
			case <-signals:
				if n++; n >= 2 {
					endRound()
					return
				}
			}
		}
	}()
	for round := 1; ctx.Err() == nil; round++ {
		if s.log.JSON() {
			s.log.Emit(eventlog.Event{Kind: eventlog.RoundStarted, Level: slog.LevelInfo, Msg: fmt.Sprintf("round %d started", round), Attrs: []slog.Attr{slog.Int("round", round)}})
		}
		// The listing, as JSON, is only counted: the service's output is its events.
		var listing bytes.Buffer
		code, cancelled := a.refresh(roundCtx, client, regions, "json", &listing, stderr)
		a.printReports(stderr)
		if cancelled {
			break
		}
		err := h.RoundEnded(code)
		outcome := health.Outcome(code)
		attrs := []slog.Attr{slog.Int("round", round), slog.String("outcome", outcome), slog.Int("exit_code", code)}
		msg := fmt.Sprintf("round %d ended: %s", round, outcome)
		var listed []json.RawMessage
		if json.Unmarshal(listing.Bytes(), &listed) == nil && listing.Len() > 0 {
			attrs = append(attrs, slog.Int("blocks", len(listed)))
			msg += fmt.Sprintf(", %d listed", len(listed))
		}
		s.log.Emit(eventlog.Event{Kind: eventlog.RoundEnded, Level: slog.LevelInfo, Msg: msg, Attrs: attrs})
		if err != nil {
			s.log.Emit(eventlog.Event{Kind: eventlog.Error, Level: slog.LevelError, Msg: err.Error()})
		}
		if !s.wait(ctx, a.interval) {
			break
		}
	}
	code := 0
	if err := h.Stopped(); err != nil {
		s.log.Emit(eventlog.Event{Kind: eventlog.Error, Level: slog.LevelError, Msg: err.Error()})
		code = 1
	}
	s.log.Emit(eventlog.Event{Kind: eventlog.Stopped, Level: slog.LevelInfo, Msg: "stopped between rounds"})
	return code
}

// logWarning logs a warning the first time this watcher sees it (the notifier sends it once
// per block and lead across runs; the log says it once per run).
func (s *service) logWarning(e notify.Event) {
	if s == nil || s.warned[e.Key] {
		return
	}
	s.warned[e.Key] = true
	s.log.Emit(eventlog.Event{Kind: eventlog.Warning, Level: slog.LevelWarn, Msg: strings.TrimPrefix(e.Text, "gpublock: "),
		Account: e.Account, Region: e.Region, Reservation: e.ReservationID})
}
