// Package stssim is the emulator's STS: GetCallerIdentity in STS's awsquery protocol
// (a form-encoded POST to /, answered in XML), which tells a client the (demo) account it
// acts as. It shares the port, clock and faults of the emulator's core (aws/simcore) and
// keeps no state. Its requests are told apart from EC2's, which speak the same protocol,
// by their signing scope (sts) or, unsigned, by STS's Version or the GetCallerIdentity
// action. STS's own request quotas are not modelled, and GetCallerIdentity needs no
// permission in AWS, so the deny fault never applies to it.
package stssim

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gpublock/gpublock/aws/simcore"
)

const (
	version   = "2011-06-15"
	namespace = "https://sts.amazonaws.com/doc/2011-06-15/"
	maxBody   = 1 << 20
)

// Protocol is the registration that makes the emulator answer STS.
func Protocol() simcore.Protocol {
	return simcore.Protocol{
		Name:  "sts",
		Match: isSTS,
		Mount: func(c *simcore.Core) simcore.Handler { return &handler{core: c} },
	}
}

// isSTS reports whether an awsquery request is STS's rather than EC2's. The body is read
// ahead and put back for the handler that answers. Register STS after the protocols known
// by their X-Amz-Target, so that their bodies are not read twice.
func isSTS(r *http.Request) bool {
	if simcore.SigningService(r) == "sts" {
		return true
	}
	v, ok := peekQuery(r)
	return ok && (v.Get("Version") == version || v.Get("Action") == "GetCallerIdentity")
}

// peekQuery reads the request's awsquery parameters without taking them from the next
// reader; false when there are none to read (another method, a body too large or not a
// form).
func peekQuery(r *http.Request) (url.Values, bool) {
	var raw string
	switch r.Method {
	case http.MethodGet:
		raw = r.URL.RawQuery
	case http.MethodPost:
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		r.Body = readCloser{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
		if err != nil || len(b) > maxBody {
			return nil, false
		}
		raw = string(b)
	default:
		return nil, false
	}
	v, err := url.ParseQuery(raw)
	return v, err == nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

type handler struct {
	simcore.Stateless
	core *simcore.Core
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := simcore.NewRequestID()
	raw := r.URL.RawQuery
	if r.Method == http.MethodPost {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			writeError(w, reqID, simcore.Errf(http.StatusRequestEntityTooLarge, "InvalidQueryParameter", "The request body is larger than %d bytes.", maxBody))
			return
		}
		raw = string(b)
	}
	form, err := url.ParseQuery(raw)
	if err != nil {
		writeError(w, reqID, simcore.Errf(http.StatusBadRequest, "MalformedQueryString", "The request body is not a valid form-encoded query string: %v", err))
		return
	}
	for k, vals := range form {
		if len(vals) > 1 {
			writeError(w, reqID, simcore.Errf(http.StatusBadRequest, "InvalidParameterValue", "The parameter %s is given %d times; give it once.", k, len(vals)))
			return
		}
	}
	region, _, aerr := h.core.SignedRegion(r)
	if aerr == simcore.ErrUnservedRegion {
		// STS answers in every region (its regional endpoints are always active): a home
		// region where Capacity Blocks are not sold still has an identity.
		aerr = nil
	}
	if aerr == simcore.ErrUnsigned {
		// STS's own words for it (as captured from sts.amazonaws.com in public fixtures).
		aerr = simcore.Errf(http.StatusForbidden, "MissingAuthenticationToken", "Request is missing Authentication Token")
	}
	if aerr != nil {
		writeError(w, reqID, aerr)
		return
	}
	if aerr := h.core.InjectError(r.Context(), "sts", region); aerr != nil {
		writeError(w, reqID, aerr)
		return
	}
	switch action := form.Get("Action"); {
	case action == "":
		writeError(w, reqID, simcore.Errf(http.StatusBadRequest, "MissingParameter", "The request must contain the parameter Action"))
		return
	case action != "GetCallerIdentity":
		writeError(w, reqID, simcore.Errf(http.StatusBadRequest, "InvalidAction", "Could not find operation %s for version %s; this emulator serves GetCallerIdentity only.", action, version))
		return
	}
	if v := form.Get("Version"); v != version {
		writeError(w, reqID, simcore.Errf(http.StatusBadRequest, "InvalidAction", "Could not find operation GetCallerIdentity for version %q; expected %s.", v, version))
		return
	}
	var x body
	x.WriteString(`<GetCallerIdentityResponse xmlns="` + namespace + `">`)
	x.open("GetCallerIdentityResult")
	x.str("Arn", "arn:aws:iam::"+h.core.Account()+":user/gpublock-demo")
	x.str("UserId", "AIDAGPUBLOCKDEMO00001")
	x.str("Account", h.core.Account())
	x.close("GetCallerIdentityResult")
	x.open("ResponseMetadata")
	x.str("RequestId", reqID)
	x.close("ResponseMetadata")
	x.close("GetCallerIdentityResponse")
	// Which emulator answered, beside whose account it is: a client keys its records by
	// both, so that a proxy in front of this emulator reaches the same records.
	w.Header().Set(simcore.IDHeader, h.core.ID())
	x.send(w, http.StatusOK, reqID)
}

// writeError answers in awsquery's <ErrorResponse> shape, which the STS client parses.
func writeError(w http.ResponseWriter, reqID string, e *simcore.APIError) {
	var x body
	x.WriteString(`<ErrorResponse xmlns="` + namespace + `">`)
	x.open("Error")
	if e.Status() >= 500 {
		x.str("Type", "Receiver")
	} else {
		x.str("Type", "Sender")
	}
	x.str("Code", e.Code())
	x.str("Message", e.Message())
	x.close("Error")
	x.str("RequestId", reqID)
	x.close("ErrorResponse")
	x.send(w, e.Status(), reqID)
}

type body struct{ bytes.Buffer }

func (x *body) open(name string)  { x.WriteString("<" + name + ">") }
func (x *body) close(name string) { x.WriteString("</" + name + ">") }

func (x *body) str(name, v string) {
	x.open(name)
	_ = xml.EscapeText(x, []byte(v))
	x.close(name)
}

// send writes the body with the headers the SDK reads, its length given as AWS does.
func (x *body) send(w http.ResponseWriter, status int, reqID string) {
	h := w.Header()
	h.Set("Content-Type", "text/xml")
	h.Set("X-Amzn-Requestid", reqID)
	h.Set("Content-Length", strconv.Itoa(x.Len()))
	w.WriteHeader(status)
	w.Write(x.Bytes())
}
