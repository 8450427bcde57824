package ec2sim

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// DemoAccount is the account every request acts as (STS GetCallerIdentity, ownerId).
const DemoAccount = "123456789012"

const (
	ec2Version = "2016-11-15"
	stsVersion = "2011-06-15"
	maxBody    = 1 << 20
)

// Options configure a Server.
type Options struct {
	Seed          int64
	Start         time.Time // the emulator clock's start; zero = time.Now()
	Speed         float64   // clock rate vs real time; 0 means 1
	StateFile     string    // "" = in memory only; else load at New and save after every mutation (atomic write)
	DefaultRegion string    // the region `gpublock sim` tells clients to sign for; "" = "us-east-1"
	Faults        Faults
	PaymentDelay  PaymentDelay // how long purchases stay payment-pending; zero = 1 to 5 minutes
	PriceList     http.Handler // optional; requests with header X-Amz-Target: AWSPriceListService.* go to it
	// RateLimits, when set, refuses requests beyond AWS's request token buckets; nil turns
	// them off (gpublock sim sets AWSRateLimits unless told not to).
	RateLimits *RateLimits
	Protocols  []Protocol // other protocols served on the same port, sharing this core
}

// Server is the emulator. It is an http.Handler; use Listen or httptest to serve it.
type Server struct {
	opts   Options
	hash   hasher
	clock  *clock
	dice   *dice
	fmu    sync.Mutex
	faults Faults

	mu      sync.Mutex // guards regions and the state file
	regions map[string]*regionState
	seen    fs.FileInfo // the state file as this emulator last read or wrote it

	protocols []mounted
	lock      *os.File // the state file's lock file, opened on first use
}

// New makes an emulator, loading Options.StateFile if it exists.
func New(opts Options) (*Server, error) {
	if opts.DefaultRegion == "" {
		opts.DefaultRegion = "us-east-1"
	}
	if _, ok := regions[opts.DefaultRegion]; !ok {
		return nil, fmt.Errorf("ec2sim: default region %q is not served; regions: %s", opts.DefaultRegion, strings.Join(regionNames(), ", "))
	}
	if err := opts.PaymentDelay.check(); err != nil {
		return nil, fmt.Errorf("ec2sim: %w", err)
	}
	if opts.Speed < 0 {
		return nil, fmt.Errorf("ec2sim: speed %v must be positive", opts.Speed)
	}
	s := &Server{
		opts:    opts,
		hash:    hasher{opts.Seed},
		dice:    newDice(opts.Seed),
		regions: map[string]*regionState{},
	}
	s.mountProtocols()
	start := opts.Start
	if opts.StateFile != "" {
		saved, err := s.load()
		if err != nil {
			return nil, err
		}
		// A demo run faster than real time left its clock ahead of the wall clock; resume
		// from there so that its blocks do not go back in time.
		if start.IsZero() && saved.After(time.Now()) {
			start = saved
		}
	}
	s.clock = newClock(start, opts.Speed)
	opts.RateLimits.init()
	s.SetFaults(opts.Faults)
	return s, nil
}

// Now is the emulator's current time.
func (s *Server) Now() time.Time { return s.clock.Now() }

// SetTime moves the emulator's clock to t; it keeps running from there.
func (s *Server) SetTime(t time.Time) { s.clock.Set(t); s.saveQuietly() }

// Advance moves the emulator's clock forward (or back, if d < 0) by d.
func (s *Server) Advance(d time.Duration) { s.clock.Advance(d); s.saveQuietly() }

// SetFaults replaces the faults in force.
func (s *Server) SetFaults(f Faults) {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.faults = f
	s.faults.Down = append([]string(nil), f.Down...)
	s.faults.Deny = append([]string(nil), f.Deny...)
}

func (s *Server) currentFaults() Faults {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	return s.faults
}

// Listen serves s on addr (e.g. "127.0.0.1:0") until ctx is done and returns the base URL.
func Listen(ctx context.Context, addr string, s *Server) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	return "http://" + ln.Addr().String(), nil
}

// region returns the state of a region, creating it on first use. Call with s.mu held.
func (s *Server) region(name string) *regionState {
	rs, ok := s.regions[name]
	if !ok {
		rs = newRegionState()
		s.regions[name] = rs
	}
	return rs
}

// call is one decoded EC2 or STS request.
type call struct {
	action string
	form   form
	region string
	now    time.Time
	dryRun bool
	reqID  string
	faults Faults
}

type handler func(s *Server, c *call) (*xmlBody, *apiError)

var ec2Actions = map[string]handler{}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_sim/") || r.URL.Path == "/_sim" {
		s.serveControl(w, r)
		return
	}
	if strings.HasPrefix(r.Header.Get("X-Amz-Target"), "AWSPriceListService.") {
		if s.opts.PriceList != nil {
			s.opts.PriceList.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"__type":"UnknownOperationException","message":"this emulator has no Price List API"}`)
		return
	}
	if h := s.protocolFor(r); h != nil {
		h.ServeHTTP(w, r)
		return
	}
	reqID := newRequestID()
	var body []byte
	switch r.Method {
	case http.MethodPost:
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			writeEC2Error(w, reqID, errf(http.StatusRequestEntityTooLarge, "InvalidQueryParameter", "The request body is larger than %d bytes.", maxBody))
			return
		}
		body = b
	case http.MethodGet:
		body = []byte(r.URL.RawQuery)
	default:
		writeEC2Error(w, reqID, errf(http.StatusMethodNotAllowed, "UnsupportedOperation", "Use POST with a form-encoded body (method was %s).", r.Method))
		return
	}
	f, aerr := decodeForm(body)
	if aerr != nil {
		writeEC2Error(w, reqID, aerr)
		return
	}
	region, service, aerr := s.signedRegion(r)
	isSTS := service == "sts" || f.str("Version") == stsVersion || f.str("Action") == "GetCallerIdentity"
	fail := writeEC2Error
	if isSTS {
		fail = writeSTSError
	}
	if aerr == errMissingAuth && isSTS {
		// STS's own words for it (as captured from sts.amazonaws.com in public fixtures).
		aerr = errf(http.StatusForbidden, "MissingAuthenticationToken", "Request is missing Authentication Token")
	}
	if aerr != nil {
		fail(w, reqID, aerr)
		return
	}
	c := &call{action: f.str("Action"), form: f, region: region, reqID: reqID, faults: s.currentFaults()}
	if aerr := s.injectFaults(r.Context(), c); aerr != nil {
		fail(w, reqID, aerr)
		return
	}
	if aerr := s.opts.RateLimits.admit(isSTS, c); aerr != nil {
		fail(w, reqID, aerr)
		return
	}
	if isSTS {
		s.serveSTS(w, c)
		return
	}
	out, aerr := s.dispatchEC2(c)
	if aerr != nil {
		fail(w, reqID, aerr)
		return
	}
	writeEC2(w, c, out)
}

func (s *Server) dispatchEC2(c *call) (*xmlBody, *apiError) {
	if c.action == "" {
		return nil, missingParam("Action")
	}
	h, ok := ec2Actions[c.action]
	if !ok {
		return nil, errf(http.StatusBadRequest, "InvalidAction", "The action %s is not valid for this web service.", c.action)
	}
	if v := c.form.str("Version"); v == "" {
		return nil, missingParam("Version")
	} else if v != ec2Version {
		// EC2's error codes have none for an unknown version (other query services answer
		// NoSuchVersion); InvalidParameterValue names the parameter.
		return nil, badParam("Value (%s) for parameter Version is invalid. This emulator speaks EC2 API version %s.", v, ec2Version)
	}
	if aerr := checkParams(c.action, c.form); aerr != nil {
		return nil, aerr
	}
	dry, aerr := c.form.optBool("DryRun")
	if aerr != nil {
		return nil, aerr
	}
	c.dryRun = dry
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, aerr := s.lockState()
	if aerr != nil {
		return nil, aerr
	}
	defer unlock()
	c.now = s.clock.Now()
	return h(s, c)
}

// signedRegion reads the region (and service) from the SigV4 credential scope:
// Authorization: AWS4-HMAC-SHA256 Credential=AKID/20250601/us-east-2/ec2/aws4_request, …
func (s *Server) signedRegion(r *http.Request) (region, service string, e *apiError) {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return "", "", errMissingAuth
	}
	i := strings.Index(auth, "Credential=")
	if i < 0 {
		return "", "", errf(http.StatusUnauthorized, "AuthFailure", "The Authorization header has no SigV4 Credential scope.")
	}
	cred := auth[i+len("Credential="):]
	if j := strings.IndexAny(cred, ", "); j >= 0 {
		cred = cred[:j]
	}
	parts := strings.Split(cred, "/")
	if len(parts) != 5 || parts[4] != "aws4_request" {
		return "", "", errf(http.StatusUnauthorized, "AuthFailure", "The SigV4 credential scope %q is malformed; expected AKID/DATE/REGION/SERVICE/aws4_request.", cred)
	}
	region, service = parts[2], parts[3]
	if _, ok := regions[region]; !ok {
		return "", "", errf(http.StatusUnauthorized, "AuthFailure", "The region %q of the request's credential scope is not served by this emulator; regions: %s.", region, strings.Join(regionNames(), ", "))
	}
	return region, service, nil
}

func (s *Server) injectFaults(ctx context.Context, c *call) *apiError {
	f := c.faults
	for _, d := range f.Down {
		if d == c.region {
			return errf(http.StatusServiceUnavailable, "Unavailable", "The service is unavailable in %s. Please try again shortly.", c.region)
		}
	}
	if wait := f.Latency + s.dice.jitter(f.Jitter); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	if s.dice.hit(f.Throttle) {
		return errThrottled
	}
	if s.dice.hit(f.Error) {
		return errInternal
	}
	return nil
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func writeEC2(w http.ResponseWriter, c *call, out *xmlBody) {
	var x xmlBody
	x.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	x.b.WriteString("<" + c.action + `Response xmlns="` + ec2Namespace + `">`)
	x.str("requestId", c.reqID)
	if out != nil {
		x.b.Write(out.b.Bytes())
	}
	x.close(c.action + "Response")
	x.sendEC2(w, http.StatusOK, c.reqID)
}

func writeEC2Error(w http.ResponseWriter, reqID string, e *apiError) {
	var x xmlBody
	x.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	x.open("Response")
	x.open("Errors")
	x.open("Error")
	x.str("Code", e.code)
	x.str("Message", e.message)
	x.close("Error")
	x.close("Errors")
	x.str("RequestID", reqID)
	x.close("Response")
	x.sendEC2(w, e.status, reqID)
}

func (x *xmlBody) sendEC2(w http.ResponseWriter, status int, reqID string) {
	w.Header().Set("Server", "AmazonEC2")
	x.send(w, status, reqID, "text/xml;charset=UTF-8")
}
