// Package cloudwatchsim emulates CloudWatch's metrics of the emulator's Capacity
// Reservations (namespace AWS/EC2CapacityReservations), read from the EC2 state they
// describe: GetMetricData, GetMetricStatistics and ListMetrics, in the three protocols
// CloudWatch's clients speak.
// Smithy RPC v2 CBOR (POST /service/GraniteServiceVersion20100801/operation/OP) is what
// the Go SDK and botocore use now; awsJson1_0 (X-Amz-Target:
// GraniteServiceVersion20100801.OP) and the query protocol (Action=OP&Version=2010-08-01,
// answered in XML) are what older clients use. CloudWatch is awsQueryCompatible: its CBOR
// and JSON errors carry the query protocol's code in x-amzn-query-error, which the SDKs
// report as the error's code.
//
// Not modelled: CloudWatch's request quotas (no rate limit applies), metric math and
// Metrics Insights queries (refused), percentile statistics (refused), PutMetricData and
// every other namespace (an unknown namespace answers no data, as CloudWatch does), and
// the dimension sets other than CapacityReservationId that AWS also aggregates by.
//
// The metrics are read from EC2's state through a Source, which aws/ec2sim implements
// with its reservations and the instances that used them; this package knows no more of
// EC2 than that.
package cloudwatchsim

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

const (
	cwTargetPrefix = "GraniteServiceVersion20100801."
	cwCBORPrefix   = "/service/GraniteServiceVersion20100801/operation/"
	cwVersion      = "2010-08-01"
	cwXMLNamespace = "http://monitoring.amazonaws.com/doc/2010-08-01/"
	// cwSigningName is CloudWatch's SigV4 service name (its endpoint prefix).
	cwSigningName = "monitoring"
	// maxBody is the largest request body read, as EC2's.
	maxBody = 1 << 20
)

// cwOps are the operations served.
var cwOps = map[string]func(c *cwCall) (cwObj, *cwError){
	"GetMetricData":       getMetricData,
	"GetMetricStatistics": getMetricStatistics,
	"ListMetrics":         listMetrics,
}

func cwOperations() []string { return []string{"GetMetricData", "GetMetricStatistics", "ListMetrics"} }

func init() {
	simcore.RegisterActions(simcore.ActionSet{Service: "cloudwatch", Label: "CloudWatch operations", Names: cwOperations, Denied: "AccessDenied"})
}

// Protocol registers CloudWatch on the emulator's port, its metrics read from src. Its
// requests are told by the CBOR path, the JSON target, or, in the query protocol, a
// signature scoped to monitoring: an unsigned query request cannot be told from EC2's and
// goes there.
func Protocol(src Source) simcore.Protocol {
	return simcore.Protocol{
		Name: "cloudwatch",
		Match: func(r *http.Request) bool {
			return strings.HasPrefix(r.URL.Path, cwCBORPrefix) ||
				strings.HasPrefix(r.Header.Get("X-Amz-Target"), cwTargetPrefix) ||
				simcore.SigningService(r) == cwSigningName
		},
		Mount: func(core *simcore.Core) simcore.Handler { return cwHandler{core: core, src: src} },
	}
}

// cwHandler keeps nothing of its own: the metrics are made from EC2's state.
type cwHandler struct {
	simcore.Stateless
	core *simcore.Core
	src  Source
}

// cwWire is the protocol a request came in, which its answer and errors are written in.
type cwWire int

const (
	wireCBOR cwWire = iota
	wireJSON
	wireQuery
)

// cwCall is one decoded CloudWatch request.
type cwCall struct {
	op     string
	wire   cwWire
	region string
	in     params
	core   *simcore.Core
	rs     Region
	now    time.Time
}

func (h cwHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := simcore.NewRequestID()
	wire, op := wireQuery, ""
	switch {
	case strings.HasPrefix(r.URL.Path, cwCBORPrefix):
		wire, op = wireCBOR, strings.TrimPrefix(r.URL.Path, cwCBORPrefix)
	case r.Header.Get("X-Amz-Target") != "":
		wire, op = wireJSON, strings.TrimPrefix(r.Header.Get("X-Amz-Target"), cwTargetPrefix)
	}
	fail := func(e *cwError) { writeCWError(w, wire, reqID, e) }
	if r.Method != http.MethodPost && !(wire == wireQuery && r.Method == http.MethodGet) {
		fail(cwErrf(http.StatusMethodNotAllowed, "UnsupportedOperation", "CloudWatch is served by POST (the request was %s).", r.Method))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		fail(cwErrf(http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "The request body is larger than %d bytes.", maxBody))
		return
	}
	var in params
	var perr *cwError
	switch wire {
	case wireCBOR:
		if ct := r.Header.Get("Content-Type"); len(body) > 0 && !strings.HasPrefix(ct, "application/cbor") {
			fail(cwErrf(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "Content-Type %q is not application/cbor.", ct))
			return
		}
		if p := r.Header.Get("Smithy-Protocol"); p != "rpc-v2-cbor" {
			fail(cwErrf(http.StatusBadRequest, "SerializationException", "The Smithy RPC v2 CBOR protocol needs the header smithy-protocol: rpc-v2-cbor (it was %q).", p))
			return
		}
		in, perr = cborParams(body)
	case wireJSON:
		in, perr = jsonParams(body)
	default:
		raw := string(body)
		if r.Method == http.MethodGet {
			raw = r.URL.RawQuery
		}
		form, err := url.ParseQuery(raw)
		if err != nil {
			fail(cwErrf(http.StatusBadRequest, "MalformedQueryString", "The request body is not a valid form-encoded query string: %v", err))
			return
		}
		op = form.Get("Action")
		in, perr = queryParams(form)
		if perr == nil {
			perr = checkQueryAction(op, form.Get("Version"))
		}
	}
	if perr != nil {
		fail(perr)
		return
	}
	run, ok := cwOps[op]
	if !ok {
		switch wire {
		case wireCBOR:
			fail(cwErrf(http.StatusNotFound, "UnknownOperationException", "The operation %s is not served by this emulator's CloudWatch (it serves %s).", op, strings.Join(cwOperations(), ", ")))
		case wireJSON:
			fail(cwErrf(http.StatusBadRequest, "UnknownOperationException", "The operation %s is not served by this emulator's CloudWatch (it serves %s).", r.Header.Get("X-Amz-Target"), strings.Join(cwOperations(), ", ")))
		}
		return
	}
	region, service, aerr := h.core.SignedRegion(r)
	switch {
	case aerr == simcore.ErrUnsigned:
		fail(cwErrf(http.StatusForbidden, "MissingAuthenticationToken", "Request is missing Authentication Token"))
		return
	case aerr == simcore.ErrUnservedRegion:
		fail(cwErrf(http.StatusBadRequest, "InvalidClientTokenId", "%s", simcore.UnservedRegionMessage(region)))
		return
	case aerr != nil:
		fail(cwErrf(http.StatusForbidden, "IncompleteSignature", "%s", aerr.Message()))
		return
	case service != cwSigningName:
		fail(cwErrf(http.StatusForbidden, "SignatureDoesNotMatch", "Credential should be scoped to correct service: '%s' (it was %q).", cwSigningName, service))
		return
	}
	switch h.core.Inject(r.Context(), cwSigningName, region) {
	case simcore.FaultDown:
		fail(cwErrf(http.StatusServiceUnavailable, "ServiceUnavailable", "The service is unavailable in %s. Please try again shortly.", region))
		return
	case simcore.FaultThrottle:
		fail(cwErrf(http.StatusBadRequest, "Throttling", "Rate exceeded"))
		return
	case simcore.FaultError:
		fail(cwInternal)
		return
	}
	now, unlock, lerr := h.core.Lock()
	if lerr != nil {
		fail(cwInternal)
		return
	}
	c := &cwCall{op: op, wire: wire, region: region, in: in, core: h.core, rs: h.src.Region(region), now: now}
	out, e := run(c)
	unlock()
	if e != nil {
		fail(e)
		return
	}
	writeCW(w, wire, op, reqID, out)
}

// checkQueryAction checks the query protocol's Action and Version.
func checkQueryAction(op, version string) *cwError {
	switch {
	case op == "":
		return cwErrf(http.StatusBadRequest, "MissingAction", "The request must contain the parameter Action.")
	case version == "":
		return cwErrf(http.StatusBadRequest, "MissingParameter", "The request must contain the parameter Version.")
	case version != cwVersion:
		return cwErrf(http.StatusBadRequest, "InvalidAction", "Could not find operation %s for version %s; this emulator's CloudWatch speaks %s.", op, version, cwVersion)
	}
	if _, ok := cwOps[op]; !ok {
		return cwErrf(http.StatusBadRequest, "InvalidAction", "Could not find operation %s for version %s.", op, cwVersion)
	}
	return nil
}

// cwDenied is the answer to an operation the deny fault names, given where it would have
// succeeded: validation comes first, as in AWS. CloudWatch's code for it is AccessDenied
// in the query protocol; the text is IAM's usual sentence.
func (c *cwCall) denied() *cwError {
	op := c.op
	if !c.core.Denied(op) {
		return nil
	}
	return cwErrf(http.StatusForbidden, "AccessDenied",
		"User: arn:aws:iam::%s:user/gpublock-demo is not authorized to perform: cloudwatch:%s because no identity-based policy allows the cloudwatch:%s action",
		c.core.Account(), op, op)
}
