package ec2sim

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/cloudwatchsim"
	"github.com/gpublock/gpublock/aws/pricelistsim"
	"github.com/gpublock/gpublock/aws/s3sim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/aws/stssim"
	"github.com/gpublock/gpublock/pricing"
)

// DemoAccount is the account every request acts as (STS GetCallerIdentity, ownerId)
// unless Options.Account names another.
const DemoAccount = simcore.DemoAccount

const (
	ec2Version = "2016-11-15"
	maxBody    = 1 << 20
)

// The emulator's shared parts, kept here under their old names for the packages that
// configure an emulator.
type (
	Faults       = simcore.Faults
	RateLimits   = simcore.RateLimits
	PaymentDelay = simcore.PaymentDelay
	PriceDrop    = simcore.PriceDrop
	// Protocol is another AWS protocol served on the emulator's port, sharing its core.
	Protocol = simcore.Protocol
)

// PaymentLead is how long before a block's start AWS must have taken its payment, and
// ExtensionPaymentLead how long before the end of the block an extension lengthens.
const (
	PaymentLead          = simcore.PaymentLead
	ExtensionPaymentLead = simcore.ExtensionPaymentLead
	PaymentDelayHelp     = simcore.PaymentDelayHelp
)

// ParseFault reads one NAME=VALUE fault into f (simcore.FaultHelp lists them).
func ParseFault(spec string, f *Faults) error { return simcore.ParseFault(spec, f) }

// ParsePaymentDelay reads a payment delay: a duration, a range MIN-MAX, or "aws".
func ParsePaymentDelay(s string) (PaymentDelay, error) { return simcore.ParsePaymentDelay(s) }

// AWSRateLimits are AWS's request buckets, with rates scaled by scale.
func AWSRateLimits(scale float64) *RateLimits { return simcore.AWSRateLimits(scale) }

// NewPriceListHandler serves the Price List API's GetProducts from the embedded catalog.
func NewPriceListHandler() http.Handler { return pricelistsim.New() }

// NewPriceListHandlerFrom serves GetProducts with the on-demand prices of cat.
func NewPriceListHandlerFrom(cat *pricing.Catalog) http.Handler { return pricelistsim.NewFrom(cat) }

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
	// Account is the 12-digit account the emulator stands for ("" = DemoAccount): STS's
	// identity, every ownerId and ARN.
	Account string
	// CapAcrossTypes answers a search of several types (InstanceTypePreferences) with at most
	// maxOfferings in all, as one type's search; false gives each type the maxOfferings a
	// search of it alone would. AWS documents neither reading.
	CapAcrossTypes bool
	// PriceDrop, when set, makes every market cheaper step by step from New on, or from
	// when asked (the demo's market, simcore.DemoPriceDrop); nil: off, as `gpublock sim`
	// runs by default.
	PriceDrop *PriceDrop
}

// Server is the emulator: the core (aws/simcore) with its handlers, EC2's among them.
// It is an http.Handler; use Listen or httptest to serve it.
type Server struct {
	opts    Options
	core    *simcore.Core
	hash    simcore.Hasher
	dice    *simcore.Dice
	regions *simcore.Regions[regionState] // EC2's state, guarded by the core's lock
}

// New makes an emulator, loading Options.StateFile if it exists. Its handlers, each a
// protocol registered here: the Price List, Options.Protocols (SageMaker), STS, and EC2,
// which answers what no other claims.
func New(opts Options) (*Server, error) {
	if opts.DefaultRegion == "" {
		opts.DefaultRegion = "us-east-1"
	}
	if _, ok := regions[opts.DefaultRegion]; !ok {
		return nil, fmt.Errorf("ec2sim: default region %q is not served; regions: %s", opts.DefaultRegion, strings.Join(regionNames(), ", "))
	}
	s := &Server{
		opts:    opts,
		hash:    simcore.Hasher{Seed: opts.Seed},
		regions: simcore.NewRegions((*regionState).fill),
	}
	// The protocols known by their X-Amz-Target first, then CloudWatch (known by its path,
	// target or signing scope), then STS, which reads the body to tell its requests from
	// EC2's, then EC2.
	protocols := append([]Protocol{pricelistsim.Protocol(opts.PriceList)}, opts.Protocols...)
	protocols = append(protocols, s3sim.Protocol(), cloudwatchsim.Protocol(cwSource{s}), stssim.Protocol(), s.protocol())
	core, err := simcore.New(simcore.Options{
		Seed: opts.Seed, Start: opts.Start, Speed: opts.Speed, StateFile: opts.StateFile,
		Faults: opts.Faults, PaymentDelay: opts.PaymentDelay, RateLimits: opts.RateLimits,
		Zones: availabilityZones, Account: opts.Account, PriceDrop: opts.PriceDrop,
	}, protocols...)
	if err != nil {
		return nil, err
	}
	s.core, s.dice = core, core.Dice()
	return s, nil
}

// Account is the AWS account the emulator stands for.
func (s *Server) Account() string { return s.core.Account() }

// ID is the emulator's identity (simcore.Core.ID), which STS GetCallerIdentity
// answers in the simcore.IDHeader header.
func (s *Server) ID() string { return s.core.ID() }

// id makes an AWS-style id from what names the resource. The account goes into every id
// but the demo account's (whose ids tests and demos already know), so that two emulators
// that differ only in their account hand out different ids, as AWS's ids are unique.
func (s *Server) id(prefix string, parts ...any) string {
	if a := s.Account(); a != DemoAccount {
		parts = append([]any{"account", a}, parts...)
	}
	return s.hash.ID(prefix, parts...)
}

// Now is the emulator's current time.
func (s *Server) Now() time.Time { return s.core.Now() }

// SetTime moves the emulator's clock to t; it keeps running from there.
func (s *Server) SetTime(t time.Time) { s.core.SetTime(t) }

// Advance moves the emulator's clock forward (or back, if d < 0) by d.
func (s *Server) Advance(d time.Duration) { s.core.Advance(d) }

// SetFaults replaces the faults in force.
func (s *Server) SetFaults(f Faults) { s.core.SetFaults(f) }

func (s *Server) currentFaults() Faults { return s.core.Faults() }

// ServeHTTP answers every protocol's requests and the /_sim/ control API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.core.ServeHTTP(w, r) }

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

// region returns the EC2 state of a region, creating it on first use. Call inside the
// core's lock.
func (s *Server) region(name string) *regionState { return s.regions.Get(name) }

// call is one decoded EC2 request.
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

// serveEC2 answers EC2's Query protocol.
func (s *Server) serveEC2(w http.ResponseWriter, r *http.Request) {
	reqID := simcore.NewRequestID()
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
	region, _, aerr := s.core.SignedRegion(r)
	if aerr == simcore.ErrUnservedRegion {
		aerr = errf(http.StatusBadRequest, "UnsupportedOperation", "%s", simcore.UnservedRegionMessage(region))
	}
	if aerr != nil {
		writeEC2Error(w, reqID, aerr)
		return
	}
	c := &call{action: f.str("Action"), form: f, region: region, reqID: reqID, faults: s.currentFaults()}
	if aerr := s.core.InjectError(r.Context(), "ec2", region); aerr != nil {
		writeEC2Error(w, reqID, aerr)
		return
	}
	if aerr := admit(s.opts.RateLimits, c); aerr != nil {
		writeEC2Error(w, reqID, aerr)
		return
	}
	out, aerr := s.dispatchEC2(c)
	if aerr != nil {
		writeEC2Error(w, reqID, aerr)
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
	now, unlock, aerr := s.core.Lock()
	if aerr != nil {
		return nil, aerr
	}
	defer unlock()
	c.now = now
	return h(s, c)
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
	x.str("Code", e.Code())
	x.str("Message", e.Message())
	x.close("Error")
	x.close("Errors")
	x.str("RequestID", reqID)
	x.close("Response")
	x.sendEC2(w, e.Status(), reqID)
}

func (x *xmlBody) sendEC2(w http.ResponseWriter, status int, reqID string) {
	w.Header().Set("Server", "AmazonEC2")
	x.send(w, status, reqID, "text/xml;charset=UTF-8")
}
