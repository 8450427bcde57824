// Package simtest is what the aws packages' tests share to serve and watch the emulator: a
// recorder in front of it that keeps every request, EC2's and SageMaker's, with the error it
// was answered with, and can answer some itself; EC2's error body. Only tests import it.
package simtest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/simcore"
)

// Start is the emulator clock of the tests: a fixed moment, so the seeded market is the same
// in every run.
var Start = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

// Recorded is one request the emulator received.
type Recorded struct {
	// Action is the operation: the query's Action (EC2, STS, CloudWatch), or the name after
	// X-Amz-Target's dot (SageMaker's JSON).
	Action, Region string
	DryRun         bool
	Form           url.Values
	UserAgent      string
	// Code is the error code the request was answered with; empty for a success, and while the
	// answer is being written.
	Code string
}

// Recorder sits in front of the emulator: it records every request and can answer some
// itself (Intercept returns true), to produce failures the emulator has no fault for.
type Recorder struct {
	Next      http.Handler
	Mu        sync.Mutex
	Calls     []Recorded
	Intercept func(w http.ResponseWriter, r Recorded, req *http.Request) bool
}

func (rc *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_sim/") { // the emulator's control, not an API call
		rc.Next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := Recorded{UserAgent: r.Header.Get("User-Agent")}
	if target := r.Header.Get("X-Amz-Target"); target != "" {
		rec.Action = target[strings.LastIndex(target, ".")+1:]
	} else {
		rec.Form, _ = url.ParseQuery(string(body))
		rec.Action, rec.DryRun = rec.Form.Get("Action"), rec.Form.Get("DryRun") == "true"
	}
	if auth := r.Header.Get("Authorization"); auth != "" {
		if i := strings.Index(auth, "Credential="); i >= 0 {
			parts := strings.Split(strings.SplitN(auth[i+len("Credential="):], ",", 2)[0], "/")
			if len(parts) == 5 {
				rec.Region = parts[2]
			}
		}
	}
	rc.Mu.Lock()
	rc.Calls = append(rc.Calls, rec)
	at := len(rc.Calls) - 1
	icp := rc.Intercept
	rc.Mu.Unlock()
	if icp != nil && icp(w, rec, r) {
		return
	}
	aw := &answerWriter{ResponseWriter: w}
	rc.Next.ServeHTTP(aw, r)
	if code := aw.code(); code != "" {
		rc.Mu.Lock()
		rc.Calls[at].Code = code
		rc.Mu.Unlock()
	}
}

// answerWriter keeps an error answer's body, to read its code from.
type answerWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *answerWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *answerWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 400 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// errorCode finds the code in an error body: EC2's and the other query APIs' <Code>, or the
// JSON protocols' __type (whose namespace, before '#', is dropped).
var errorCode = regexp.MustCompile(`<Code>([^<]+)</Code>|"__type"\s*:\s*"(?:[^"#]*#)?([^"]+)"`)

func (w *answerWriter) code() string {
	if w.status < 400 {
		return ""
	}
	m := errorCode.FindSubmatch(w.body.Bytes())
	if m == nil {
		return http.StatusText(w.status)
	}
	return string(m[1]) + string(m[2])
}

// Count returns how many Recorded requests match.
func (rc *Recorder) Count(match func(Recorded) bool) int {
	rc.Mu.Lock()
	defer rc.Mu.Unlock()
	n := 0
	for _, c := range rc.Calls {
		if match(c) {
			n++
		}
	}
	return n
}

func (rc *Recorder) Total() int { return rc.Count(func(Recorded) bool { return true }) }

// Of counts the calls of action, dry runs among them.
func (rc *Recorder) Of(action string) int {
	return rc.Count(func(r Recorded) bool { return r.Action == action })
}

// Answered counts the calls answered with the error code.
func (rc *Recorder) Answered(code string) int {
	return rc.Count(func(r Recorded) bool { return r.Code == code })
}

// Sent counts the calls of action that were not dry runs: those that could change something.
func (rc *Recorder) Sent(action string) int {
	return rc.Count(func(r Recorded) bool { return r.Action == action && !r.DryRun })
}

func (rc *Recorder) SetIntercept(f func(w http.ResponseWriter, r Recorded, req *http.Request) bool) {
	rc.Mu.Lock()
	rc.Intercept = f
	rc.Mu.Unlock()
}

// NewRecordedSim is Serve's emulator behind a Recorder.
func NewRecordedSim(t testing.TB, seed int64, f ec2sim.Faults) (*ec2sim.Server, *Recorder, string) {
	t.Helper()
	sim := NewSim(t, ec2sim.Options{Seed: seed, Start: Start, Speed: 1e-9, Faults: f})
	rc := &Recorder{Next: sim}
	return sim, rc, ServeHandler(t, rc)
}

// WriteEC2Error answers like EC2 does when it refuses a call.
func WriteEC2Error(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>%s</Code><Message>%s</Message></Error></Errors><RequestID>00000000-0000-4000-8000-000000000000</RequestID></Response>`, code, msg)
}

// AsAWS serves the emulator as AWS would answer: without the emulator's identity
// (simcore.IDHeader) on STS's answers, so that a client keys what it does as AWS's (its
// journal read as AWS's journal).
func AsAWS(sim http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sim.ServeHTTP(withoutSimID{w}, r) })
}

type withoutSimID struct{ http.ResponseWriter }

func (w withoutSimID) WriteHeader(code int) {
	w.Header().Del(simcore.IDHeader)
	w.ResponseWriter.WriteHeader(code)
}

func (w withoutSimID) Write(b []byte) (int, error) {
	w.Header().Del(simcore.IDHeader)
	return w.ResponseWriter.Write(b)
}
