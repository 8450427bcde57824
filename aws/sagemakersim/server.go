package sagemakersim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

// TargetPrefix is the X-Amz-Target prefix of SageMaker's awsJson1_1 protocol.
const TargetPrefix = "SageMaker."

const maxBody = 1 << 20

// op is one operation: it decodes into its own input and answers a JSON value.
type op struct {
	// mutates marks the operations that spend (the lost-reply fault applies to them).
	mutates bool
	run     func(h *handler, c *call) (any, *apiError)
}

var ops = map[string]op{
	"SearchTrainingPlanOfferings":          {run: (*handler).searchOfferings},
	"CreateTrainingPlan":                   {mutates: true, run: (*handler).createPlan},
	"DescribeTrainingPlan":                 {run: (*handler).describePlan},
	"ListTrainingPlans":                    {run: (*handler).listPlans},
	"ExtendTrainingPlan":                   {mutates: true, run: (*handler).extendPlan},
	"DescribeTrainingPlanExtensionHistory": {run: (*handler).extensionHistory},
	"DescribeReservedCapacity":             {run: (*handler).describeReservedCapacity},
	"ListUltraServersByReservedCapacity":   {run: (*handler).listUltraServers},
	"ListTags":                             {run: (*handler).listTags},
	"AddTags":                              {run: (*handler).addTags},
	"DeleteTags":                           {run: (*handler).deleteTags},
}

// Operations lists the operations served, for the deny fault and documentation.
func Operations() []string {
	return []string{"SearchTrainingPlanOfferings", "CreateTrainingPlan", "DescribeTrainingPlan", "ListTrainingPlans",
		"ExtendTrainingPlan", "DescribeTrainingPlanExtensionHistory", "DescribeReservedCapacity", "ListUltraServersByReservedCapacity", "ListTags",
		"AddTags", "DeleteTags"}
}

func init() {
	simcore.RegisterActions(simcore.ActionSet{Service: "sagemaker", Label: "SageMaker operations", Names: Operations})
}

// Protocol is the registration that makes the emulator answer SageMaker too.
func Protocol() simcore.Protocol {
	return simcore.Protocol{
		Name:         "sagemaker",
		TargetPrefix: TargetPrefix,
		SigningName:  "sagemaker",
		Mount:        func(c *simcore.Core) simcore.Handler { return newHandler(c) },
	}
}

// handler is the SageMaker side of one emulator. Its state is guarded by the core's lock:
// every use is inside Core.Update, and the core saves and loads it with the lock held.
type handler struct {
	core    *simcore.Core
	regions *simcore.Regions[regionState]
}

func newHandler(c *simcore.Core) *handler {
	return &handler{core: c, regions: simcore.NewRegions((*regionState).fill)}
}

// call is one decoded request.
type call struct {
	op     string
	region string
	body   []byte
	now    time.Time
	rs     *regionState
	// changed is set by an operation that modified the state, so that it is saved.
	changed bool
}

// decode reads the body into v strictly: unknown members are refused, as the safer
// reading (whether AWS ignores them is UNCONFIRMED), so that a misspelt member in a
// client does not pass here and fail against AWS. Its errors speak of members and JSON
// types, never of the emulator's Go types; a timestamp out of range is a
// ValidationException (checkTimestamps).
func (c *call) decode(v any) *apiError {
	body := bytes.TrimSpace(c.body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return errf(http.StatusBadRequest, "SerializationException", "The %s input must be a JSON object, not a JSON %s.", c.op, jsonKind(te.Value))
		case errors.As(err, &te):
			return errf(http.StatusBadRequest, "SerializationException", "Member %s must be %s, not a JSON %s.", te.Field, wireKind(te.Type), jsonKind(te.Value))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return errf(http.StatusBadRequest, "SerializationException", "Unknown member %s in %s input.", strings.TrimPrefix(err.Error(), "json: unknown field "), c.op)
		case errors.As(err, &se):
			return errf(http.StatusBadRequest, "SerializationException", "The request body is not valid JSON (at byte %d).", se.Offset)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errf(http.StatusBadRequest, "SerializationException", "The request body is not valid JSON (it ends too soon).")
		}
		return errf(http.StatusBadRequest, "SerializationException", "Cannot read the %s input: %s", c.op, strings.TrimPrefix(err.Error(), "json: "))
	}
	if d.More() {
		return errf(http.StatusBadRequest, "SerializationException", "The request body holds more than one JSON value.")
	}
	return checkTimestamps(v)
}

// wireKind names what a member of Go type t is on the wire, in the model's words.
func wireKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeFor[epoch]():
		return "a timestamp (epoch seconds as a JSON number)"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "a boolean"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return "a whole number"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "a list"
	}
	return "a structure (a JSON object)"
}

// jsonKind names a JSON value as encoding/json reports it ("number 1.5", "bool").
func jsonKind(v string) string {
	v, _, _ = strings.Cut(v, " ")
	switch v {
	case "bool":
		return "boolean"
	case "array":
		return "array"
	case "":
		return "value"
	}
	return v
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := simcore.NewRequestID()
	target := r.Header.Get("X-Amz-Target")
	name := strings.TrimPrefix(target, TargetPrefix)
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		writeError(w, reqID, errf(http.StatusBadRequest, "UnknownOperationException", "SageMaker is served by POST / (the request was %s %s).", r.Method, r.URL.Path))
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-amz-json-1.1") {
		writeError(w, reqID, errf(http.StatusBadRequest, "UnknownOperationException", "Content-Type %q is not application/x-amz-json-1.1.", ct))
		return
	}
	o, ok := ops[name]
	if target == "" {
		writeError(w, reqID, errf(http.StatusBadRequest, "UnknownOperationException", "The request has no X-Amz-Target header: SageMaker's JSON protocol names the operation there (SageMaker.<Operation>)."))
		return
	}
	if !ok {
		writeError(w, reqID, errf(http.StatusBadRequest, "UnknownOperationException", "The operation %s is not supported in the called region.", target))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, reqID, errf(http.StatusRequestEntityTooLarge, "SerializationException", "The request body is larger than %d bytes.", maxBody))
		return
	}
	region, service, serr := h.core.SignedRegion(r)
	if serr == simcore.ErrUnsigned {
		// The common error of every AWS query and JSON API (SageMaker's Common Errors page
		// lists it with HTTP 403).
		writeError(w, reqID, errf(http.StatusForbidden, "MissingAuthenticationToken", "The request must contain either a valid (registered) AWS access key ID or X.509 certificate."))
		return
	}
	if serr == simcore.ErrUnservedRegion {
		// The words of an AWS JSON service asked for an operation its region lacks.
		writeError(w, reqID, errf(http.StatusBadRequest, "UnknownOperationException", "The operation %s is not supported in the called region. %s", target, simcore.UnservedRegionMessage(region)))
		return
	}
	if serr != nil {
		writeError(w, reqID, errf(http.StatusForbidden, "UnrecognizedClientException", "%v", serr.Message()))
		return
	}
	if service != "" && service != "sagemaker" {
		writeError(w, reqID, errf(http.StatusForbidden, "InvalidSignatureException", "Credential should be scoped to correct service: 'sagemaker' (it was %q).", service))
		return
	}
	switch h.core.Inject(r.Context(), "sagemaker", region) {
	case simcore.FaultDown:
		writeError(w, reqID, errf(http.StatusServiceUnavailable, "ServiceUnavailable", "The service is unavailable in %s. Please try again shortly.", region))
		return
	case simcore.FaultThrottle:
		writeError(w, reqID, errThrottled)
		return
	case simcore.FaultError:
		writeError(w, reqID, errInternal)
		return
	}
	// AWS's request buckets, after the network as on the EC2 side: a request that fails
	// validation spends a token, a refused one none.
	if h.core.Throttled("sagemaker", region, name, h.core.RateLimits().SageMakerTable().For(name, false)) {
		writeError(w, reqID, errThrottled)
		return
	}
	c := &call{op: name, region: region, body: body}
	var out any
	var aerr *apiError
	lost := false
	saveErr := h.core.Update(func(now time.Time) bool {
		c.now, c.rs = now, h.regions.Get(region)
		c.changed = h.settle(c.rs, now)
		out, aerr = o.run(h, c)
		// A spending call that commits and then does not answer: the client must find
		// out from a describe whether it went through.
		if aerr == nil && o.mutates && h.core.Hit(h.core.Faults().LostReply) {
			lost = true
		}
		return c.changed
	})
	if saveErr != nil {
		writeError(w, reqID, errInternal)
		return
	}
	if aerr != nil {
		writeError(w, reqID, aerr)
		return
	}
	if lost {
		writeError(w, reqID, errInternal)
		return
	}
	b, err := json.Marshal(out)
	if err != nil {
		writeError(w, reqID, errInternal)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("x-amzn-RequestId", reqID)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// deny is the answer to an operation the deny fault names, given where it would have
// succeeded: validation comes first, as in AWS, and nothing is changed.
func (h *handler) deny(c *call) *apiError {
	if !h.core.Denied(c.op) {
		return nil
	}
	return errf(http.StatusBadRequest, "AccessDeniedException",
		"User: arn:aws:iam::%s:user/gpublock-demo is not authorized to perform: sagemaker:%s because no identity-based policy allows the sagemaker:%s action",
		h.core.Account(), c.op, c.op)
}

// SaveState is the SageMaker part of the state file.
func (h *handler) SaveState() (json.RawMessage, error) {
	return json.Marshal(savedState{Regions: h.regions.Saved()})
}

// LoadState replaces the state with a saved one (nil: a fresh one).
func (h *handler) LoadState(b json.RawMessage) error {
	var st savedState
	if len(b) > 0 {
		if err := json.Unmarshal(b, &st); err != nil {
			return fmt.Errorf("sagemaker state: %w", err)
		}
	}
	h.regions.Replace(st.Regions)
	return nil
}

type savedState struct {
	Regions map[string]*regionState `json:"regions"`
}

// apiError is the emulator's protocol error, written in awsJson1_1's shape by writeError.
type apiError = simcore.APIError

func errf(status int, code, format string, args ...any) *apiError {
	return simcore.Errf(status, code, format, args...)
}

var (
	// AWS JSON services answer throttling with HTTP 400 ThrottlingException (the code
	// for these operations is UNCONFIRMED); the SDK retries it by its code.
	errThrottled = errf(http.StatusBadRequest, "ThrottlingException", "Rate exceeded")
	errInternal  = errf(http.StatusInternalServerError, "InternalFailure", "The request processing has failed because of an unknown error, exception or failure.")
)

func notFound(format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, "ResourceNotFound", format, args...)
}

func writeError(w http.ResponseWriter, reqID string, e *apiError) {
	simcore.WriteJSONError(w, "", reqID, e)
}
