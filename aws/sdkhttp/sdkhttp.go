// Package sdkhttp is the HTTP client every SDK client of gpublock is built with (EC2,
// SageMaker, STS, the Price List), with the workaround below.
package sdkhttp

import (
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// PlainBodies works around a race between the SDK and net/http that loses replies over a
// fast link (aws-sdk-go-v2#2737, seen on loopback against the emulator). The SDK closes
// a request's body as soon as the reply's headers arrive; net/http may not have finished
// with the body yet, and its last check ("nothing after Content-Length") goes through
// the body's WriteTo, which answers io.EOF once closed. net/http takes that for a failed
// write and closes the connection under the reply being read: "deserialization failed …
// use of closed network connection", fatal to a call that must not be retried, such as
// a purchase. Hiding WriteTo makes that check a Read, whose io.EOF means "no more".
func PlainBodies(hc aws.HTTPClient) aws.HTTPClient {
	if hc == nil {
		return nil
	}
	return plainBodyClient{hc}
}

type plainBodyClient struct{ next aws.HTTPClient }

func (c plainBodyClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = plainBody{req.Body}
	}
	return c.next.Do(req)
}

// plainBody is a request body with only Read and Close.
type plainBody struct{ io.ReadCloser }
