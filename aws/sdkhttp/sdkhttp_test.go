package sdkhttp

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

type recordingClient struct{ body io.ReadCloser }

func (r *recordingClient) Do(req *http.Request) (*http.Response, error) {
	r.body = req.Body
	return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
}

// The body net/http sees must not offer WriteTo: a closed SDK body answers io.EOF there,
// which net/http takes for a failed write (see PlainBodies).
func TestPlainBodiesHideWriteTo(t *testing.T) {
	rec := &recordingClient{}
	hc := PlainBodies(rec)
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/", io.NopCloser(bytes.NewReader([]byte("Action=X"))))
	if _, ok := req.Body.(io.WriterTo); !ok {
		t.Fatal("test setup: the body should offer WriteTo before wrapping")
	}
	if _, err := hc.Do(req); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.body.(io.WriterTo); ok {
		t.Error("the wrapped body still offers WriteTo")
	}
	b, _ := io.ReadAll(rec.body)
	if string(b) != "Action=X" {
		t.Errorf("body %q", b)
	}
	get, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/", nil)
	if _, err := hc.Do(get); err != nil || rec.body != nil {
		t.Errorf("a request without a body got one: %v %v", rec.body, err)
	}
	if PlainBodies(nil) != nil {
		t.Error("PlainBodies(nil) is not nil")
	}
}
