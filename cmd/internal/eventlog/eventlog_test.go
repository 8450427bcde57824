package eventlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestLineEvent(t *testing.T) {
	for _, c := range []struct {
		line                string
		kind                Kind
		level               slog.Level
		reservation, region string
		account             string
	}{
		{"gpublock blocks: WARNING: cr-0123456789abcdef0  us-east-1  p5.48xlarge × 2  ends 2026-12-07 11:30 UTC  in 1h", Warning, slog.LevelWarn, "cr-0123456789abcdef0", "us-east-1", ""},
		{"gpublock blocks: us-west-2: RequestLimitExceeded: slow down", Error, slog.LevelError, "", "us-west-2", ""},
		{"gpublock blocks: AUTO-EXTENDED cr-0123456789abcdef0: 1 day more (journal id x)", Extension, slog.LevelInfo, "cr-0123456789abcdef0", "", ""},
		{"gpublock blocks: AUTO-EXTEND FAILED cr-0123456789abcdef0: payment failed", Extension, slog.LevelError, "cr-0123456789abcdef0", "", ""},
		{"gpublock blocks: auto-extend cr-0123456789abcdef0: declined: over the cap", Extension, slog.LevelWarn, "cr-0123456789abcdef0", "", ""},
		{"gpublock blocks: launched 2 instances into cr-0123456789abcdef0 in eu-north-1 at its start", Launch, slog.LevelInfo, "cr-0123456789abcdef0", "eu-north-1", ""},
		{"gpublock blocks: launches attached to blocks: the file cannot be read", Launch, slog.LevelError, "", "", ""},
		{"SDK 2026/12/06 04:00:00 WARN Response has no supported checksum. Not validating response payload.", Error, slog.LevelWarn, "", "", ""},
		{"gpublock blocks: account 111122223333: every region failed", Error, slog.LevelError, "", "", "111122223333"},
		{"gpublock blocks: auto-extend arn:aws:sagemaker:us-east-1:111122223333:training-plan/plan-a: not decided, tried again on the next refresh", Extension, slog.LevelError, "arn:aws:sagemaker:us-east-1:111122223333:training-plan/plan-a", "us-east-1", "111122223333"},
	} {
		e := LineEvent(c.line)
		if e.Kind != c.kind || e.Level != c.level || e.Reservation != c.reservation || e.Region != c.region || e.Account != c.account {
			t.Errorf("%q:\n got %s %s %q %q %q\nwant %s %s %q %q %q", c.line, e.Kind, e.Level, e.Reservation, e.Region, e.Account, c.kind, c.level, c.reservation, c.region, c.account)
		}
		if strings.HasPrefix(e.Msg, "gpublock") {
			t.Errorf("%q: the command's name is left in the message %q", c.line, e.Msg)
		}
	}
}

// Every line written, whole or in pieces, is one JSON object; nothing else is written.
func TestLinesAreJSON(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(&buf, "json", "gpublock watch: ")
	if err != nil {
		t.Fatal(err)
	}
	w := l.Lines()
	fmt.Fprint(w, "gpublock blocks: us-east-1: Throttl")
	fmt.Fprint(w, "ing\n\ngpublock blocks: WARNING: cr-0123456789abcdef0 ends\n")
	l.Emit(Event{Kind: RoundEnded, Level: slog.LevelInfo, Msg: "round 1 ended: ok", Attrs: []slog.Attr{slog.Int("round", 1)}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), buf.String())
	}
	var got []map[string]any
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, m)
	}
	if got[0]["msg"] != "us-east-1: Throttling" || got[0]["region"] != "us-east-1" || got[0]["event"] != "error" {
		t.Errorf("a line written in two pieces: %v", got[0])
	}
	if got[1]["reservation"] != "cr-0123456789abcdef0" || got[1]["level"] != "WARN" {
		t.Errorf("warning: %v", got[1])
	}
	if _, ok := got[2]["reservation"]; ok || got[2]["round"] != float64(1) {
		t.Errorf("round event: %v (no reservation key when there is none)", got[2])
	}
}

func TestTextAndBadFormat(t *testing.T) {
	var buf bytes.Buffer
	l, _ := New(&buf, "text", "gpublock watch: ")
	fmt.Fprintln(l.Lines(), "gpublock blocks: us-east-1: down")
	if buf.String() != "gpublock watch: us-east-1: down\n" {
		t.Errorf("text line %q", buf.String())
	}
	if _, err := New(&buf, "xml", ""); err == nil || !strings.Contains(err.Error(), "text or json") {
		t.Errorf("bad format: %v", err)
	}
}
