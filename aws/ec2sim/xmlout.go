package ec2sim

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"strconv"
	"time"
)

const ec2Namespace = "http://ec2.amazonaws.com/doc/2016-11-15/"

// xmlBody builds a response body element by element. EC2's XML is regular enough that a
// writer is simpler and faster than struct tags, and it keeps element order under control.
type xmlBody struct{ b bytes.Buffer }

func (x *xmlBody) open(name string)  { x.b.WriteString("<" + name + ">") }
func (x *xmlBody) close(name string) { x.b.WriteString("</" + name + ">") }

func (x *xmlBody) str(name, v string) {
	x.b.WriteString("<" + name + ">")
	_ = xml.EscapeText(&x.b, []byte(v))
	x.b.WriteString("</" + name + ">")
}

// opt writes the element only when v is not empty.
func (x *xmlBody) opt(name, v string) {
	if v != "" {
		x.str(name, v)
	}
}

func (x *xmlBody) int(name string, v int) { x.str(name, strconv.Itoa(v)) }

func (x *xmlBody) bool(name string, v bool) { x.str(name, strconv.FormatBool(v)) }

func (x *xmlBody) time(name string, t time.Time) {
	if !t.IsZero() {
		x.str(name, formatTime(t))
	}
}

func (x *xmlBody) empty(name string) { x.b.WriteString("<" + name + "/>") }

func (x *xmlBody) tags(name string, tags []tag) {
	if len(tags) == 0 {
		x.empty(name)
		return
	}
	x.open(name)
	for _, t := range tags {
		x.open("item")
		x.str("key", t.Key)
		x.str("value", t.Value)
		x.close("item")
	}
	x.close(name)
}

// send writes the body with the headers the SDKs read.
func (x *xmlBody) send(w http.ResponseWriter, status int, reqID, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Amzn-Requestid", reqID)
	h.Set("Content-Length", strconv.Itoa(x.b.Len())) // as AWS sends it, never chunked
	w.WriteHeader(status)
	w.Write(x.b.Bytes())
}

func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
