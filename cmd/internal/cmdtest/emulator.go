package cmdtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// CountPurchases serves sim and counts the PurchaseCapacityBlock calls, dry runs included.
func CountPurchases(t *testing.T, sim *ec2sim.Server) (string, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "Action=PurchaseCapacityBlock&") {
			n.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// Failing answers the requests fails picks with EC2's InternalError, and passes
// the others on to next.
func Failing(next http.Handler, requestID string, fails func(body string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if fails(string(body)) {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InternalError</Code><Message>An internal error has occurred</Message></Error></Errors><RequestID>`+requestID+`</RequestID></Response>`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
