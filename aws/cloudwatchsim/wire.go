package cloudwatchsim

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/smithy-go/encoding/cbor"
	"github.com/gpublock/gpublock/aws/simcore"
)

// CloudWatch's three wire formats read into one shape, params, and written from one,
// cwObj: the operations never see which protocol a request came in.

// params is a structure of a request: members by name, whose values are what the wire
// gave (strings in the query protocol; numbers, booleans and timestamps in JSON and CBOR;
// map[string]any for a structure, []any for a list). path names it in the query protocol's
// words (MetricDataQueries.member.1.), which CloudWatch's messages use.
type params struct {
	m    map[string]any
	path string
	wire cwWire
}

func (p params) name(member string) string { return p.path + member }

func (p params) has(member string) bool {
	v, ok := p.m[member]
	return ok && v != nil
}

// only refuses a member it does not name. Whether CloudWatch ignores one is not
// documented; refusing it is the safer reading, so that a misspelt member in a client
// does not pass here and fail against AWS.
func (p params) only(members ...string) *cwError {
	var extra []string
	for k := range p.m {
		if !slices.Contains(members, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return p.typeErr(p.name(extra[0]), "a parameter of this operation (this emulator refuses parameters it does not know)")
}

// typeErr says a member is not what it must be, in the protocol's code: a query
// request's parameter is a value CloudWatch rejects, a JSON or CBOR one a body it cannot
// read.
func (p params) typeErr(name, want string) *cwError {
	if p.wire == wireQuery {
		return cwErrf(http.StatusBadRequest, "InvalidParameterValue", "The parameter %s must be %s.", name, want)
	}
	return cwErrf(http.StatusBadRequest, "SerializationException", "Member %s must be %s.", name, want)
}

func (p params) str(member string) (string, *cwError) {
	v, ok := p.m[member]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", p.typeErr(p.name(member), "a string")
	}
	return s, nil
}

func (p params) int(member string) (int64, bool, *cwError) {
	v, ok := p.m[member]
	if !ok || v == nil {
		return 0, false, nil
	}
	switch v := v.(type) {
	case int64:
		return v, true, nil
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
			return n, true, nil
		}
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n, true, nil
		}
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true, nil
		}
	}
	return 0, false, p.typeErr(p.name(member), "a whole number")
}

func (p params) boolean(member string) (bool, bool, *cwError) {
	v, ok := p.m[member]
	if !ok || v == nil {
		return false, false, nil
	}
	switch v := v.(type) {
	case bool:
		return v, true, nil
	case string:
		if b, err := strconv.ParseBool(v); err == nil {
			return b, true, nil
		}
	}
	return false, false, p.typeErr(p.name(member), "true or false")
}

// time reads a timestamp: ISO 8601 in the query protocol, epoch seconds in JSON, a tag-1
// epoch in CBOR.
func (p params) time(member string) (time.Time, bool, *cwError) {
	v, ok := p.m[member]
	if !ok || v == nil {
		return time.Time{}, false, nil
	}
	switch v := v.(type) {
	case time.Time:
		return v.UTC(), true, nil
	case string:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t.UTC(), true, nil
			}
		}
		return time.Time{}, false, p.typeErr(p.name(member), "a timestamp in ISO 8601 UTC format (for example, 2016-10-03T23:00:00Z)")
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return epochTime(f), true, nil
		}
	case float64:
		return epochTime(v), true, nil
	case int64:
		return time.Unix(v, 0).UTC(), true, nil
	}
	return time.Time{}, false, p.typeErr(p.name(member), "a timestamp")
}

func epochTime(f float64) time.Time {
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e3))*int64(time.Millisecond)).UTC()
}

// obj reads a structure member.
func (p params) obj(member string) (params, bool, *cwError) {
	v, ok := p.m[member]
	if !ok || v == nil {
		return params{}, false, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return params{}, false, p.typeErr(p.name(member), "a structure")
	}
	return params{m: m, path: p.name(member) + ".", wire: p.wire}, true, nil
}

// list reads a list member: its elements, and the name of each element.
func (p params) list(member string) ([]any, func(i int) string, *cwError) {
	at := func(i int) string { return fmt.Sprintf("%s.member.%d", p.name(member), i+1) }
	v, ok := p.m[member]
	if !ok || v == nil {
		return nil, at, nil
	}
	switch v := v.(type) {
	case []any:
		return v, at, nil
	case string:
		if v == "" && p.wire == wireQuery { // the query protocol's empty list
			return nil, at, nil
		}
	}
	return nil, at, p.typeErr(p.name(member), "a list")
}

// elem is element i of a list of structures.
func (p params) elem(v any, name string) (params, *cwError) {
	m, ok := v.(map[string]any)
	if !ok {
		return params{}, p.typeErr(name, "a structure")
	}
	return params{m: m, path: name + ".", wire: p.wire}, nil
}

// strings reads a list of strings.
func (p params) strings(member string) ([]string, *cwError) {
	vs, at, e := p.list(member)
	if e != nil {
		return nil, e
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		s, ok := v.(string)
		if !ok {
			return nil, p.typeErr(at(i), "a string")
		}
		out[i] = s
	}
	return out, nil
}

// cborParams reads a CBOR body: a map, or nothing for an operation without input.
func cborParams(body []byte) (params, *cwError) {
	p := params{m: map[string]any{}, wire: wireCBOR}
	if len(body) == 0 {
		return p, nil
	}
	v, err := cbor.Decode(body)
	if err != nil {
		return p, cwErrf(http.StatusBadRequest, "SerializationException", "The request body is not valid CBOR: %v", err)
	}
	g, err := fromCBOR(v)
	if err != nil {
		return p, cwErrf(http.StatusBadRequest, "SerializationException", "The request body cannot be read: %v", err)
	}
	m, ok := g.(map[string]any)
	if !ok {
		return p, cwErrf(http.StatusBadRequest, "SerializationException", "The request body must be a CBOR map.")
	}
	p.m = m
	return p, nil
}

func fromCBOR(v cbor.Value) (any, error) {
	switch v := v.(type) {
	case cbor.Map:
		m := make(map[string]any, len(v))
		for k, e := range v {
			g, err := fromCBOR(e)
			if err != nil {
				return nil, err
			}
			m[k] = g
		}
		return m, nil
	case cbor.List:
		l := make([]any, len(v))
		for i, e := range v {
			g, err := fromCBOR(e)
			if err != nil {
				return nil, err
			}
			l[i] = g
		}
		return l, nil
	case cbor.String:
		return string(v), nil
	case cbor.Uint:
		if v > math.MaxInt64 {
			return nil, fmt.Errorf("integer %d out of range", uint64(v))
		}
		return int64(v), nil
	case cbor.NegInt:
		return cbor.AsInt64(v)
	case cbor.Float32, cbor.Float64:
		return cbor.AsFloat64(v)
	case cbor.Bool:
		return bool(v), nil
	case *cbor.Nil, *cbor.Undefined:
		return nil, nil
	case *cbor.Tag:
		t, err := cbor.AsTime(v)
		if err != nil {
			return nil, err
		}
		return t.UTC(), nil
	}
	return nil, fmt.Errorf("unexpected CBOR value %T", v)
}

// jsonParams reads an awsJson1_0 body.
func jsonParams(body []byte) (params, *cwError) {
	p := params{m: map[string]any{}, wire: wireJSON}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return p, nil
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || d.More() {
		return p, cwErrf(http.StatusBadRequest, "SerializationException", "The request body is not a JSON object.")
	}
	if m != nil {
		p.m = m
	}
	return p, nil
}

// queryList is a list of the query protocol while its members are read: member.N → value.
type queryList map[int]any

// queryParams reads a query request's parameters into structures: a.b.c is member c of
// member b of a, and X.member.N the Nth element of list X.
func queryParams(form url.Values) (params, *cwError) {
	root := map[string]any{}
	for k, vs := range form {
		if k == "Action" || k == "Version" {
			continue
		}
		if len(vs) > 1 {
			return params{}, cwErrf(http.StatusBadRequest, "InvalidParameterValue", "The parameter %s is given %d times; give it once.", k, len(vs))
		}
		if err := queryInsert(root, strings.Split(k, "."), vs[0], k); err != nil {
			return params{}, err
		}
	}
	v, err := queryFinish(root, "")
	if err != nil {
		return params{}, err
	}
	return params{m: v.(map[string]any), wire: wireQuery}, nil
}

func queryInsert(node map[string]any, segs []string, val, key string) *cwError {
	bad := cwErrf(http.StatusBadRequest, "MalformedQueryString", "The parameter %s conflicts with another parameter of the request.", key)
	seg := segs[0]
	if seg == "" {
		return cwErrf(http.StatusBadRequest, "MalformedQueryString", "The parameter name %q is malformed.", key)
	}
	if len(segs) == 1 {
		if _, ok := node[seg]; ok {
			return bad
		}
		node[seg] = val
		return nil
	}
	if segs[1] == "member" && len(segs) >= 3 {
		n, err := strconv.Atoi(segs[2])
		if err != nil || n < 1 {
			return cwErrf(http.StatusBadRequest, "MalformedQueryString", "The parameter name %q has no list index after member.", key)
		}
		l, ok := node[seg].(queryList)
		if !ok {
			if _, taken := node[seg]; taken {
				return bad
			}
			l = queryList{}
			node[seg] = l
		}
		if len(segs) == 3 {
			if _, ok := l[n]; ok {
				return bad
			}
			l[n] = val
			return nil
		}
		child, ok := l[n].(map[string]any)
		if !ok {
			if _, taken := l[n]; taken {
				return bad
			}
			child = map[string]any{}
			l[n] = child
		}
		return queryInsert(child, segs[3:], val, key)
	}
	child, ok := node[seg].(map[string]any)
	if !ok {
		if _, taken := node[seg]; taken {
			return bad
		}
		child = map[string]any{}
		node[seg] = child
	}
	return queryInsert(child, segs[1:], val, key)
}

// queryFinish turns every queryList into a list, whose members must be numbered from 1
// without a gap.
func queryFinish(v any, path string) (any, *cwError) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			f, err := queryFinish(e, path+k+".")
			if err != nil {
				return nil, err
			}
			v[k] = f
		}
		return v, nil
	case queryList:
		out := make([]any, len(v))
		for i := range out {
			e, ok := v[i+1]
			if !ok {
				return nil, cwErrf(http.StatusBadRequest, "InvalidParameterValue", "The list %smember has no member.%d, though it has %d members.", path, i+1, len(v))
			}
			f, err := queryFinish(e, fmt.Sprintf("%smember.%d.", path, i+1))
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	return v, nil
}

// cwObj is a structure of an answer, its members in the order the query protocol's XML
// lists them. Values are string, int64, float64, time.Time, bool, []any and cwObj.
type cwObj []cwKV

type cwKV struct {
	k string
	v any
}

func cborOf(v any) cbor.Value {
	switch v := v.(type) {
	case cwObj:
		m := cbor.Map{}
		for _, kv := range v {
			m[kv.k] = cborOf(kv.v)
		}
		return m
	case []any:
		l := make(cbor.List, len(v))
		for i, e := range v {
			l[i] = cborOf(e)
		}
		return l
	case string:
		return cbor.String(v)
	case int64:
		if v < 0 {
			return cbor.NegInt(uint64(-v))
		}
		return cbor.Uint(uint64(v))
	case float64:
		return cbor.Float64(v)
	case bool:
		return cbor.Bool(v)
	case time.Time:
		return &cbor.Tag{ID: 1, Value: cbor.Float64(epochSeconds(v))}
	}
	panic(fmt.Sprintf("ec2sim: no CBOR form for %T", v))
}

func epochSeconds(t time.Time) float64 { return float64(t.UnixMilli()) / 1e3 }

func writeJSONValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case cwObj:
		b.WriteByte('{')
		for i, kv := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(b, kv.k)
			b.WriteByte(':')
			writeJSONValue(b, kv.v)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(b, e)
		}
		b.WriteByte(']')
	case string:
		s, _ := json.Marshal(v)
		b.Write(s)
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case time.Time:
		b.WriteString(strconv.FormatFloat(epochSeconds(v), 'f', -1, 64))
	default:
		panic(fmt.Sprintf("ec2sim: no JSON form for %T", v))
	}
}

func writeXMLValue(b *bytes.Buffer, name string, v any) {
	if l, ok := v.([]any); ok && len(l) == 0 {
		b.WriteString("<" + name + "/>")
		return
	}
	b.WriteString("<" + name + ">")
	switch v := v.(type) {
	case cwObj:
		for _, kv := range v {
			writeXMLValue(b, kv.k, kv.v)
		}
	case []any:
		for _, e := range v {
			writeXMLValue(b, "member", e)
		}
	case string:
		_ = xml.EscapeText(b, []byte(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case time.Time:
		b.WriteString(v.UTC().Format("2006-01-02T15:04:05.999Z07:00"))
	default:
		panic(fmt.Sprintf("ec2sim: no XML form for %T", v))
	}
	b.WriteString("</" + name + ">")
}

// writeCW answers an operation in the protocol it was asked in.
func writeCW(w http.ResponseWriter, wire cwWire, op, reqID string, out cwObj) {
	var b bytes.Buffer
	h := w.Header()
	switch wire {
	case wireCBOR:
		b.Write(cbor.Encode(cborOf(out)))
		h.Set("Content-Type", "application/cbor")
		h.Set("Smithy-Protocol", "rpc-v2-cbor")
	case wireJSON:
		writeJSONValue(&b, out)
		h.Set("Content-Type", "application/x-amz-json-1.0")
	default:
		b.WriteString(`<` + op + `Response xmlns="` + cwXMLNamespace + `">`)
		writeXMLValue(&b, op+"Result", out)
		b.WriteString("<ResponseMetadata><RequestId>" + reqID + "</RequestId></ResponseMetadata>")
		b.WriteString(`</` + op + `Response>`)
		h.Set("Content-Type", "text/xml")
	}
	h.Set("X-Amzn-Requestid", reqID)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// cwError is CloudWatch's answer to a request it refuses, the emulator's one error: its
// code is the query protocol's (awsQueryError), which the JSON and CBOR answers carry in
// x-amzn-query-error beside the error's shape in __type.
type cwError = simcore.APIError

func cwErrf(status int, code, format string, args ...any) *cwError {
	return simcore.Errf(status, code, format, args...)
}

var cwInternal = cwErrf(http.StatusInternalServerError, "InternalServiceError", "Request processing has failed due to some unknown error, exception, or failure.")

// cwShapes are the modelled errors' shape names, by their query code; any other error
// (ValidationError, Throttling, AccessDenied…) is sent with its code as its __type, which
// is UNCONFIRMED for CBOR and JSON: the SDKs read the code from x-amzn-query-error first.
var cwShapes = map[string]string{
	"InvalidParameterValue":       "InvalidParameterValueException",
	"MissingParameter":            "MissingRequiredParameterException",
	"InvalidParameterCombination": "InvalidParameterCombinationException",
	"InternalServiceError":        "InternalServiceFault",
	"InvalidNextToken":            "InvalidNextToken",
}

// fault is who the query protocol blames: the server for a 5xx, else the caller.
func fault(e *cwError) string {
	if e.Status() >= 500 {
		return "Receiver"
	}
	return "Sender"
}

func writeCWError(w http.ResponseWriter, wire cwWire, reqID string, e *cwError) {
	var b bytes.Buffer
	h := w.Header()
	typ := e.Code()
	if s, ok := cwShapes[e.Code()]; ok {
		typ = "com.amazonaws.cloudwatch#" + s
	}
	switch wire {
	case wireCBOR, wireJSON:
		body := cwObj{{"__type", typ}, {"message", e.Message()}}
		if e.Code() == "InternalServiceError" {
			body = append(body, cwKV{"Message", e.Message()})
		}
		h.Set("X-Amzn-Query-Error", e.Code()+";"+fault(e))
		if wire == wireCBOR {
			b.Write(cbor.Encode(cborOf(body)))
			h.Set("Content-Type", "application/cbor")
			h.Set("Smithy-Protocol", "rpc-v2-cbor")
		} else {
			writeJSONValue(&b, body)
			h.Set("Content-Type", "application/x-amz-json-1.0")
		}
	default:
		b.WriteString(`<ErrorResponse xmlns="` + cwXMLNamespace + `">`)
		writeXMLValue(&b, "Error", cwObj{{"Type", fault(e)}, {"Code", e.Code()}, {"Message", e.Message()}})
		b.WriteString("<RequestId>" + reqID + "</RequestId></ErrorResponse>")
		h.Set("Content-Type", "text/xml")
	}
	h.Set("X-Amzn-Requestid", reqID)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(e.Status())
	_, _ = w.Write(b.Bytes())
}
