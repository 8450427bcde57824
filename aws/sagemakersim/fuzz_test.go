package sagemakersim_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
)

// Any body sent to any operation is answered with JSON: a result, or a 4xx error with a
// __type; never a server error or a crash.
func FuzzRequests(f *testing.F) {
	ops := sagemakersim.Operations()
	for i, seed := range []string{
		`{}`, `{"InstanceType":"ml.p5.48xlarge","InstanceCount":2,"DurationHours":48,"TargetResources":["training-job"]}`,
		`{"TrainingPlanName":"a","TrainingPlanOfferingId":"tpo-1","Tags":[{"Key":"k","Value":"v"}]}`,
		`{"MaxResults":1,"NextToken":"tok-1","Filters":[{"Name":"Status","Value":"Active"}],"StartTimeAfter":1.5}`,
		`{"TrainingPlanArn":"arn:aws:sagemaker:us-east-1:123456789012:training-plan/a","DurationHours":24}`,
		`[`, `null`, `{"Tags":[null]}`, `{"Filters":[null]}`, `{"StartTimeAfter":1e400}`,
		`{"ResourceArn":"arn:aws:sagemaker:us-east-1:123456789012:training-plan/a","TagKeys":["k",null],"Tags":[{"Key":"aws:k"}]}`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	s := simtest.NewSim(f, ec2sim.Options{Seed: 1, Start: testStart, Speed: 1e-9, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
		req.Header.Set("X-Amz-Target", "SageMaker."+ops[int(op)%len(ops)])
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		var m map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatalf("%d: not a JSON object: %q", w.Code, w.Body.String())
		}
		switch {
		case w.Code == http.StatusOK:
		case w.Code >= 400 && w.Code < 500:
			if m["__type"] == nil || m["Message"] == nil {
				t.Fatalf("error without __type or Message: %s", w.Body.String())
			}
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.String())
		}
	})
}
