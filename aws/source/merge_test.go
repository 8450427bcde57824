package source

import (
	"context"
	"errors"
	"testing"

	"github.com/gpublock/gpublock/model"
)

// fake is a source that answers one region with one status, and lists with one failure.
type fake struct {
	Source // the methods not used here
	caps   Caps
	status model.RegionStatus
	listed error
}

func (f fake) Caps() Caps                    { return f.caps }
func (f fake) Explain(err error) Explanation { return Explanation{Summary: err.Error() + "."} }
func (f fake) Search(context.Context, model.Query) <-chan SearchEvent {
	ch := make(chan SearchEvent, 1)
	st := f.status
	ch <- SearchEvent{Region: st.Region, Status: &st}
	close(ch)
	return ch
}
func (f fake) List(context.Context, []string) (Listing, error) {
	return Listing{Listed: []string{"us-east-1", "us-west-2"}}, &RegionFailure{Region: "us-west-2", Err: f.listed}
}

// Each step of the one stream names its source and carries that source's own status beside
// the region's status over every source, so that the command line can name each failure.
func TestSearchStepsNameTheirSource(t *testing.T) {
	blocks := fake{caps: Caps{Source: model.SourceCapacityBlock},
		status: model.RegionStatus{Region: "us-east-1", State: model.RegionError, Err: errors.New("denied")}}
	plans := fake{caps: Caps{Source: model.SourceTrainingPlan},
		status: model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 2}}
	q := model.Query{Sources: []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan}, InstanceTypes: []string{"p5.48xlarge"},
		Count: 1, Durations: model.DurationRange{MinDays: 1, MaxDays: 1}, Regions: []string{"us-east-1"}}
	ch, _, err := Search(context.Background(), []Source{blocks, plans}, q)
	if err != nil {
		t.Fatal(err)
	}
	own := map[model.Source]model.RegionStatus{}
	for ev := range ch {
		if ev.SourceStatus != nil {
			own[ev.Source] = *ev.SourceStatus
		}
	}
	if b := own[model.SourceCapacityBlock]; b.State != model.RegionError || b.Message != "denied." {
		t.Errorf("the blocks' own status: %+v", b)
	}
	if p := own[model.SourceTrainingPlan]; p.State != model.RegionOK || p.Offerings != 2 {
		t.Errorf("the plans' own status: %+v", p)
	}
}

// A listing names the source of every problem but the program's first source's, even
// when that source is listed alone; a further source's problems leave the list partial.
func TestListNamesTheSourceOfAProblem(t *testing.T) {
	blocks := fake{caps: Caps{Source: model.SourceCapacityBlock, Noun: "Capacity Block"}, listed: errors.New("down")}
	plans := fake{caps: Caps{Source: model.SourceTrainingPlan, Noun: "training plan"}, listed: errors.New("down")}
	list, err := List(context.Background(), []Source{blocks, plans}, nil)
	if err != nil || len(list.Problems) != 2 || list.Problems[0].Message != "down." || list.Problems[0].Partial ||
		list.Problems[1].Message != "training plans: down." || !list.Problems[1].Partial {
		t.Errorf("both: %+v, %v", list.Problems, err)
	}
	if lf := list.Failures(); !lf.Failed["us-west-2"] || !lf.Partial["us-west-2"] || lf.Other {
		t.Errorf("failures: %+v", lf)
	}
	list, _ = List(context.Background(), []Source{plans}, nil)
	if len(list.Problems) != 1 || list.Problems[0].Message != "training plans: down." || list.Problems[0].Partial {
		t.Errorf("the plans alone: %+v", list.Problems)
	}
}
