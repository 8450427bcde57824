package awsapi

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

type fanItem struct{ region, id string }

func newTestFanout(regions, callRegions []string) (*Fanout[fanItem], chan source.Step[fanItem]) {
	out := make(chan source.Step[fanItem], 64)
	f := NewFanout(out, regions, callRegions, func(o fanItem) string { return o.region + "/" + o.id },
		func(err error) string { return "explained: " + err.Error() })
	return f, out
}

func drain(out chan source.Step[fanItem]) []source.Step[fanItem] {
	close(out)
	var evs []source.Step[fanItem]
	for ev := range out {
		evs = append(evs, ev)
	}
	return evs
}

func lastStatus(evs []source.Step[fanItem], region string) *model.RegionStatus {
	var st *model.RegionStatus
	for _, ev := range evs {
		if ev.Status != nil && ev.Status.Region == region {
			st = ev.Status
		}
	}
	return st
}

func TestFanoutStatesEachRegionByTheSameRules(t *testing.T) {
	ctx := context.Background()
	regions := []string{"r-ok", "r-unsold", "r-err"}
	f, out := newTestFanout(regions, []string{"r-ok", "r-ok", "r-unsold", "r-err"})
	f.Unsold = "not offered here"
	if !f.Begin(ctx, regions, nil) {
		t.Fatal("Begin reported a cancelled context")
	}
	f.Deliver(ctx, "r-ok", []fanItem{{"r-ok", "a"}, {"r-ok", "b"}})
	f.Finish(ctx, "r-ok", nil)
	f.Deliver(ctx, "r-ok", []fanItem{{"r-ok", "b"}, {"r-ok", "c"}}) // b was delivered by the other call
	f.Finish(ctx, "r-ok", nil)
	f.FinishUnsold(ctx, "r-unsold")
	f.Throttled(ctx, "r-err")
	f.Finish(ctx, "r-err", errors.New("boom"))
	evs := drain(out)

	var ids []string
	for _, ev := range evs {
		for _, o := range ev.Offerings {
			ids = append(ids, o.id)
		}
	}
	if len(ids) != 3 || ids[0] != "a" || ids[1] != "b" || ids[2] != "c" {
		t.Errorf("offerings delivered %v, want [a b c] (b once)", ids)
	}
	if st := lastStatus(evs, "r-ok"); st == nil || st.State != model.RegionOK || st.Offerings != 3 {
		t.Errorf("r-ok ends %+v, want ok with 3", st)
	}
	if st := lastStatus(evs, "r-unsold"); st == nil || st.State != model.RegionEmpty || st.Message != "not offered here" {
		t.Errorf("r-unsold ends %+v, want empty with the unsold note", st)
	}
	if st := lastStatus(evs, "r-err"); st == nil || st.State != model.RegionError || st.Message != "explained: boom" || st.Err == nil {
		t.Errorf("r-err ends %+v, want error explained", st)
	}
	throttled := false
	for _, ev := range evs {
		if ev.Status != nil && ev.Status.Region == "r-err" && ev.Status.State == model.RegionThrottled {
			throttled = true
		}
	}
	if !throttled {
		t.Error("the throttled region was never reported throttled")
	}
	if last := evs[len(evs)-1]; last.CallsDone != 4 || last.CallsTotal != 4 {
		t.Errorf("last step counts %d/%d calls, want 4/4", last.CallsDone, last.CallsTotal)
	}
}

func TestFanoutReportsTheEndOfThrottlingWithoutNewOfferings(t *testing.T) {
	ctx := context.Background()
	f, out := newTestFanout([]string{"r"}, []string{"r", "r"})
	f.Begin(ctx, []string{"r"}, nil)
	f.Throttled(ctx, "r")
	f.Throttled(ctx, "r") // the same status again is not sent
	f.Deliver(ctx, "r", nil)
	evs := drain(out)
	var states []model.RegionState
	for _, ev := range evs {
		if ev.Status != nil {
			states = append(states, ev.Status.State)
		}
	}
	want := []model.RegionState{model.RegionSearching, model.RegionThrottled, model.RegionSearching}
	if !slices.Equal(states, want) {
		t.Fatalf("statuses %v, want %v", states, want)
	}
}

func TestFanoutRefusesABadQueryInEveryRegion(t *testing.T) {
	f, out := newTestFanout([]string{"a", "b"}, []string{"a", "b"})
	f.Refuse(context.Background(), []string{"a", "b"}, errors.New("no count"))
	evs := drain(out)
	if len(evs) != 2 {
		t.Fatalf("%d steps, want one per region", len(evs))
	}
	for _, ev := range evs {
		if ev.Status == nil || ev.Status.State != model.RegionError || ev.Status.Message != "bad query: no count" {
			t.Errorf("step %+v, want a bad-query error", ev)
		}
	}
}

func TestRunCallsKeepsToTheSlots(t *testing.T) {
	calls := []string{"a", "a", "a", "a", "a", "b", "b", "b"}
	var (
		mu                sync.Mutex
		active            = map[string]int{}
		most              = map[string]int{}
		all, mostAll, ran int
		paced             int
	)
	pace := func(ctx context.Context, region string) (context.Context, error) {
		mu.Lock()
		paced++
		mu.Unlock()
		return ctx, nil
	}
	RunCalls(context.Background(), calls, func(r string) string { return r }, 2, 3, pace, func(_ context.Context, r string) {
		mu.Lock()
		active[r]++
		all++
		most[r] = max(most[r], active[r])
		mostAll = max(mostAll, all)
		ran++
		mu.Unlock()
		for range 100 {
			runtime.Gosched()
		}
		mu.Lock()
		active[r]--
		all--
		mu.Unlock()
	})
	if ran != len(calls) || paced != len(calls) {
		t.Fatalf("%d calls ran and %d were paced, want %d", ran, paced, len(calls))
	}
	if most["a"] > 2 || most["b"] > 2 || mostAll > 3 {
		t.Errorf("at most %d in a, %d in b, %d in all at once; want ≤ 2 per region and ≤ 3 in all", most["a"], most["b"], mostAll)
	}
}

func TestRunCallsSkipsACallItsPaceRefuses(t *testing.T) {
	ran := 0
	var mu sync.Mutex
	RunCalls(context.Background(), []int{1, 2, 3}, func(int) string { return "r" }, 0, 0,
		func(ctx context.Context, _ string) (context.Context, error) { return nil, context.Canceled },
		func(context.Context, int) { mu.Lock(); ran++; mu.Unlock() })
	if ran != 0 {
		t.Errorf("%d calls ran though their pace refused them", ran)
	}
}
