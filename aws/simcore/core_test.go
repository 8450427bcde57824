package simcore

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// counterProtocol is a protocol made for the tests: it answers its name and keeps a
// count per region, bumped by every POST it answers, in the state file.
type counterProtocol struct {
	name    string
	regions *Regions[int]
	core    *Core
}

func (p *counterProtocol) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	region := r.URL.Query().Get("region")
	err := p.core.Update(func(time.Time) bool {
		n := p.regions.Get(region)
		*n++
		return true
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	io.WriteString(w, p.name)
}

func (p *counterProtocol) SaveState() (json.RawMessage, error) {
	return json.Marshal(p.regions.Saved())
}

func (p *counterProtocol) LoadState(b json.RawMessage) error {
	var saved map[string]*int
	if len(b) > 0 {
		if err := json.Unmarshal(b, &saved); err != nil {
			return err
		}
	}
	p.regions.Replace(saved)
	return nil
}

type stateless struct{ Stateless }

func (stateless) ServeHTTP(http.ResponseWriter, *http.Request) {}

func newCounter(name string) (*counterProtocol, func(*Core) Handler) {
	p := &counterProtocol{name: name, regions: NewRegions(func(*int) {})}
	return p, func(c *Core) Handler { p.core = c; return p }
}

func get(t *testing.T, h http.Handler, method, path string, header ...string) (int, string) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(""))
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// One registration routes a service's requests to its handler: by X-Amz-Target prefix,
// by Match, or, for the protocol with neither, whatever no other claims; /_sim/ is the
// core's own.
func TestRoutingByProtocol(t *testing.T) {
	_, mountJSON := newCounter("json")
	_, mountMatch := newCounter("match")
	_, mountRest := newCounter("rest")
	c, err := New(Options{Start: testStart},
		Protocol{Name: "json", TargetPrefix: "Svc.", Mount: mountJSON},
		Protocol{Name: "match", Match: func(r *http.Request) bool { return r.Header.Get("X-Mine") != "" }, Mount: mountMatch},
		Protocol{Name: "rest", Mount: mountRest})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		header []string
		want   string
	}{
		{[]string{"X-Amz-Target", "Svc.Op"}, "json"},
		{[]string{"X-Amz-Target", "Other.Op"}, "rest"},
		{[]string{"X-Mine", "1"}, "match"},
		{nil, "rest"},
	} {
		if code, body := get(t, c, http.MethodPost, "/?region=us-east-1", tc.header...); code != 200 || body != tc.want {
			t.Errorf("%v: %d %q, want %s", tc.header, code, body, tc.want)
		}
	}
	if code, body := get(t, c, http.MethodGet, "/_sim/clock", "X-Amz-Target", "Svc.Op"); code != 200 || !strings.HasPrefix(body, "2026-12-01T12:00") {
		t.Errorf("/_sim/clock: %d %q", code, body)
	}
}

// Each protocol's state is saved in the one state file under its name (EC2's at the top
// level, where older files hold it) and handed back to it by the next emulator on the file.
func TestStateFileKeepsEveryProtocolsPart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	open := func() (*Core, *counterProtocol, *counterProtocol) {
		ec2, mountEC2 := newCounter("ec2")
		sm, mountSM := newCounter("sagemaker")
		c, err := New(Options{Start: testStart, StateFile: file},
			Protocol{Name: "none", TargetPrefix: "None.", Mount: func(*Core) Handler { return stateless{} }},
			Protocol{Name: "sagemaker", TargetPrefix: "SageMaker.", Mount: mountSM},
			Protocol{Name: "ec2", Mount: mountEC2})
		if err != nil {
			t.Fatal(err)
		}
		return c, ec2, sm
	}
	c, _, _ := open()
	get(t, c, http.MethodPost, "/?region=us-east-2")
	get(t, c, http.MethodPost, "/?region=us-east-2")
	get(t, c, http.MethodPost, "/?region=us-west-2", "X-Amz-Target", "SageMaker.X")
	var sf struct {
		Regions  map[string]int
		Services map[string]map[string]int
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sf); err != nil {
		t.Fatal(err)
	}
	if sf.Regions["us-east-2"] != 2 || sf.Services["sagemaker"]["us-west-2"] != 1 || len(sf.Services) != 1 { // none for a handler without state
		t.Errorf("state file %s", b)
	}
	_, ec2, sm := open()
	if n, ok := ec2.regions.Peek("us-east-2"); !ok || *n != 2 {
		t.Errorf("EC2's part not loaded back: %v", ec2.regions.Saved())
	}
	if n, ok := sm.regions.Peek("us-west-2"); !ok || *n != 1 {
		t.Errorf("SageMaker's part not loaded back: %v", sm.regions.Saved())
	}
}

func TestRegionsReplaceDropsWhatIsNotServed(t *testing.T) {
	r := NewRegions(func(v *[]string) { *v = append(*v, "filled") })
	*r.Get("us-east-1") = []string{"kept?"}
	one, two := []string{"a"}, []string{"b"}
	old := r.Replace(map[string]*[]string{"us-east-2": &one, "us-west-1": &two, "eu-north-1": nil})
	if got := (*old["us-east-1"]); len(got) != 1 || got[0] != "kept?" {
		t.Errorf("the replaced state is not returned: %v", old)
	}
	if len(r.Saved()) != 1 {
		t.Fatalf("kept %v; us-west-1 is not served and eu-north-1 is null", r.Saved())
	}
	if v, ok := r.Peek("us-east-2"); !ok || strings.Join(*v, ",") != "a,filled" {
		t.Errorf("us-east-2 %v", v)
	}
	if v := r.Get("ap-south-1"); v == nil || strings.Join(*v, ",") != "filled" {
		t.Errorf("a new region is not made fresh: %v", v)
	}
}

func TestPaymentReleasedOnceWhenFailed(t *testing.T) {
	at := testStart.Add(time.Minute)
	ok, bad := Payment{PaidAt: at}, Payment{PaidAt: at, PaymentFails: true}
	if !ok.Pending(testStart) || ok.Paid(testStart) || ok.Failed(testStart) || !ok.Paid(at) || ok.Failed(at) {
		t.Errorf("a good payment: %+v", ok)
	}
	if bad.Release(testStart) || bad.Released {
		t.Error("released before the payment failed")
	}
	if !bad.Failed(at) || bad.Paid(at) || !bad.Release(at) || bad.Release(at) || !bad.Released {
		t.Errorf("a failed payment is released exactly once: %+v", bad)
	}
	if ok.Release(at) {
		t.Error("a paid purchase's capacity released")
	}
}

func TestPaidAtWithinTheDelayAndByTheDeadline(t *testing.T) {
	c, err := New(Options{Seed: 1, Start: testStart, PaymentDelay: PaymentDelay{Min: 2 * time.Minute, Max: 4 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		got := c.PaidAt(testStart, testStart.Add(time.Hour), i)
		if got.Before(testStart.Add(2*time.Minute)) || got.After(testStart.Add(4*time.Minute)) {
			t.Errorf("paid at %s, outside the delay", got)
		}
	}
	if got := c.PaidAt(testStart, testStart.Add(time.Minute), 0); !got.Equal(testStart.Add(time.Minute)) {
		t.Errorf("paid at %s, after the deadline", got)
	}
	if _, err := New(Options{PaymentDelay: PaymentDelay{Min: 13 * time.Hour, Max: 13 * time.Hour}}); err == nil {
		t.Error("a payment delay beyond AWS's 12 hours accepted")
	}
}

func TestInjectDownBeforeAnythingElse(t *testing.T) {
	c, err := New(Options{Faults: Faults{Down: []string{"us-east-2"}, Error: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if hit := c.Inject(context.Background(), "ec2", "us-east-2"); hit != FaultDown {
		t.Errorf("down region: %v", hit)
	}
	if e := c.InjectError(context.Background(), "ec2", "us-east-1"); e != ErrInternal {
		t.Errorf("error=1: %v", e)
	}
}

// A state file whose part for one protocol cannot be read changes no protocol's state.
func TestDamagedPartLoadsNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	a, mountA := newCounter("a")
	b, mountB := newCounter("b")
	c, err := New(Options{Start: testStart, StateFile: file},
		Protocol{Name: "a", TargetPrefix: "A.", Mount: mountA}, Protocol{Name: "b", Mount: mountB})
	if err != nil {
		t.Fatal(err)
	}
	get(t, c, http.MethodPost, "/?region=us-east-1", "X-Amz-Target", "A.X")
	get(t, c, http.MethodPost, "/?region=us-east-1")
	old := SetLogf(func(string, ...any) {})
	defer SetLogf(old)
	damaged := `{"version":1,"clock":"2026-12-01T12:00:00Z","services":{"a":{"us-east-1":7},"b":"not a map"}}`
	if err := os.WriteFile(file, []byte(damaged), 0o644); err != nil {
		t.Fatal(err)
	}
	get(t, c, http.MethodPost, "/?region=us-east-2") // reloads, fails, keeps what it had
	if n, _ := a.regions.Peek("us-east-1"); n == nil || *n != 1 {
		t.Errorf("a took its part of a damaged file: %v", a.regions.Saved())
	}
	if n, _ := b.regions.Peek("us-east-1"); n == nil || *n != 1 {
		t.Errorf("b lost its state: %v", b.regions.Saved())
	}
}

// poisonProtocol keeps a count per region like counterProtocol, but a request with
// poison=1 stores a value its SaveState cannot save.
type poisonProtocol struct {
	counterProtocol
	poisoned bool
}

func (p *poisonProtocol) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	err := p.core.Update(func(time.Time) bool {
		*p.regions.Get("us-east-1")++
		p.poisoned = r.URL.Query().Get("poison") == "1"
		return true
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	io.WriteString(w, "ok")
}

func (p *poisonProtocol) SaveState() (json.RawMessage, error) {
	if p.poisoned {
		return nil, errors.New("a value the state file cannot hold")
	}
	return p.counterProtocol.SaveState()
}

// A change that cannot be saved is undone and answered 500; it leaves nothing behind
// that would fail the next save, and the next change is saved.
func TestUnsavableChangeIsUndoneAndTheNextIsSaved(t *testing.T) {
	old := SetLogf(func(string, ...any) {})
	defer SetLogf(old)
	file := filepath.Join(t.TempDir(), "state.json")
	p := &poisonProtocol{counterProtocol: counterProtocol{name: "p", regions: NewRegions(func(*int) {})}}
	c, err := New(Options{Start: testStart, StateFile: file},
		Protocol{Name: "ec2", Mount: func(c *Core) Handler { p.core = c; return p }})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		path string
		code int
	}{{"/", 200}, {"/?poison=1", 500}, {"/", 200}, {"/", 200}} {
		if code, body := get(t, c, http.MethodPost, tc.path); code != tc.code {
			t.Fatalf("request %d %s: %d %q, want %d", i, tc.path, code, body, tc.code)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var saved map[string]int
	if err := json.Unmarshal(b, &struct {
		Regions *map[string]int `json:"regions"`
	}{&saved}); err != nil || saved["us-east-1"] != 3 {
		t.Fatalf("state file %s: want the three saved changes (the poisoned one undone)", b)
	}
}
