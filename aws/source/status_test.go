package source

import (
	"errors"
	"testing"

	"github.com/gpublock/gpublock/model"
)

func TestExplainedStatus(t *testing.T) {
	raw := errors.New("raw SDK error")
	in := &model.RegionStatus{Region: "us-east-1", State: model.RegionError, Err: raw}
	out := explainedStatus(in, func(error) Explanation { return Explanation{Summary: "explained"} })
	if out.Err == nil || out.Err.Error() != "explained" || out.Message != "explained" || out.Region != "us-east-1" || out.State != model.RegionError {
		t.Fatalf("explainedStatus = %+v", out)
	}
	if in.Err != raw || in.Message != "" {
		t.Errorf("the source's status was changed: %+v", in)
	}
	kept := explainedStatus(&model.RegionStatus{State: model.RegionError, Err: raw, Message: "its own words"}, func(error) Explanation { return Explanation{Summary: "explained"} })
	if kept.Message != "its own words" {
		t.Errorf("a source's message was replaced: %q", kept.Message)
	}
	if explainedStatus(nil, nil) != nil {
		t.Error("no status became one")
	}
}
