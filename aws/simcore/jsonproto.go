package simcore

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// AWS's JSON protocols (awsJson1_0, awsJson1_1), as every JSON service here answers them.

// WriteJSONError writes e in the shape of AWS's JSON protocols (awsJson1_0 and 1_1):
// {"__type": code, "Message": text}, in the Content-Type of the request's protocol
// version (1.1 when none is given).
func WriteJSONError(w http.ResponseWriter, contentType, reqID string, e *APIError) {
	ct := "application/x-amz-json-1.1"
	if strings.HasPrefix(contentType, "application/x-amz-json-1.0") {
		ct = "application/x-amz-json-1.0"
	}
	b, _ := json.Marshal(map[string]string{"__type": e.Code(), "Message": e.Message()})
	w.Header().Set("Content-Type", ct)
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(e.Status())
	_, _ = w.Write(b)
}

// unknownJSONOperation answers a JSON-protocol request whose X-Amz-Target names no
// operation served here: UnknownOperationException, HTTP 400, as AWS's JSON services do.
type unknownJSONOperation struct{}

func (unknownJSONOperation) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	msg := "The request has no X-Amz-Target header: an AWS JSON protocol request names its operation there (e.g. SageMaker.SearchTrainingPlanOfferings)."
	if target != "" {
		msg = fmt.Sprintf("The operation %s is not served by this emulator.", target)
	}
	WriteJSONError(w, r.Header.Get("Content-Type"), NewRequestID(), Errf(http.StatusBadRequest, "UnknownOperationException", "%s", msg))
}
