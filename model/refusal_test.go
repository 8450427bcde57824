package model

import (
	"strings"
	"testing"
	"time"
)

func TestLaunchBlocker(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	block := func(state BlockState, free, total int) Block {
		return Block{State: state, AvailableCount: free, TotalCount: total, Start: start, End: start.Add(48 * time.Hour)}
	}
	for _, tc := range []struct {
		name    string
		b       Block
		count   int
		problem LaunchProblem // 0: allowed
		says    []string
		never   string
	}{
		{"active with room", block(StateActive, 2, 2), 2, 0, nil, ""},
		{"scheduled", block(StateScheduled, 0, 2), 1, LaunchNotYet, []string{"not active yet (scheduled)", "2026-12-03 11:30 UTC", "from the start time"}, ""},
		{"payment pending", block(StatePaymentPending, 0, 2), 2, LaunchNotYet, []string{"not active yet (payment-pending)"}, ""},
		{"scheduled, more than it will ever hold", block(StateScheduled, 0, 2), 3, LaunchTooMany, []string{"holds 2 instances; 3 asked", "2 or fewer"}, "not active"},
		{"expired", block(StateExpired, 0, 2), 1, LaunchNotActive, []string{"is expired; only an active block"}, ""},
		{"none asked", block(StateActive, 2, 2), 0, LaunchTooFew, []string{"at least one"}, ""},
		{"full", block(StateActive, 0, 2), 1, LaunchTooMany, []string{"0 free of 2 instances; 1 asked", "wait for one to end, or terminate one"}, "fewer"},
		{"above what it holds", block(StateActive, 2, 2), 3, LaunchTooMany, []string{"2 free of 2 instances; 3 asked", "holds 2 at most: launch 2 or fewer"}, "wait"},
		{"above what is free", block(StateActive, 1, 2), 2, LaunchTooMany, []string{"1 free of 2", "Launch 1 or fewer, or wait"}, ""},
	} {
		r := LaunchBlocker(tc.b, tc.count)
		if tc.problem == 0 {
			if r != nil {
				t.Errorf("%s: refused: %s", tc.name, r)
			}
			continue
		}
		if r == nil || r.Problem != tc.problem {
			t.Errorf("%s: %+v, want problem %d", tc.name, r, tc.problem)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(r.String(), s) {
				t.Errorf("%s: %q lacks %q", tc.name, r, s)
			}
		}
		if tc.never != "" && strings.Contains(r.String(), tc.never) {
			t.Errorf("%s: %q says %q", tc.name, r, tc.never)
		}
		if sum := r.Summary(); (!strings.HasPrefix(sum, "The block") && !strings.HasPrefix(sum, "Count")) || !strings.HasSuffix(sum, ".") {
			t.Errorf("%s: summary %q", tc.name, sum)
		}
		if r.Sentence() != r.Summary()+" "+r.Hint && r.Hint != "" {
			t.Errorf("%s: sentence %q", tc.name, r.Sentence())
		}
	}
	var none *LaunchRefusal
	if none.String() != "" || none.Sentence() != "" {
		t.Error("no refusal writes nothing")
	}
	if empty := (&LaunchRefusal{Hint: "a hint"}); empty.Summary() != "" {
		t.Errorf("a refusal without a reason has the summary %q", empty.Summary())
	}
}

func TestExtendBlocker(t *testing.T) {
	for _, tc := range []struct {
		state   BlockState
		problem ExtendProblem // 0: allowed
		says    string
	}{
		{StateActive, 0, ""},
		{StateScheduled, 0, ""},
		{StatePaymentPending, ExtendNotPaid, "cr-1 is payment-pending: AWS has not taken its payment yet"},
		{StateExpired, ExtendOver, "cr-1 is expired; only active or scheduled blocks can be extended"},
		{StatePaymentFailed, ExtendOver, "only active or scheduled"},
	} {
		r := ExtendBlocker(Block{ReservationID: "cr-1", State: tc.state})
		switch {
		case tc.problem == 0 && r != nil:
			t.Errorf("%s: refused: %s", tc.state, r)
		case tc.problem != 0 && (r == nil || r.Problem != tc.problem || !strings.Contains(r.String(), tc.says)):
			t.Errorf("%s: %+v, want problem %d saying %q", tc.state, r, tc.problem, tc.says)
		case tc.problem == ExtendNotPaid && strings.Contains(r.Sentence(), "new block"):
			t.Errorf("%s: a block being paid for is not to be bought again: %s", tc.state, r.Sentence())
		}
	}
}

// A plan is refused in a plan's words: its noun and SageMaker's name of its state.
func TestExtendBlockerOfAPlan(t *testing.T) {
	for _, tc := range []struct {
		state BlockState
		says  []string
	}{
		{StatePaymentPending, []string{"raining plan gpb-1 is Pending: AWS has not taken its payment yet", "once it is Scheduled or Active"}},
		{StateExpired, []string{"raining plan gpb-1 is Expired; only active or scheduled plans can be extended", "Buy a new plan instead."}},
	} {
		r := ExtendBlocker(Block{Source: SourceTrainingPlan, ReservationID: "gpb-1", State: tc.state})
		if r == nil {
			t.Fatalf("%s: not refused", tc.state)
		}
		for _, want := range tc.says {
			if !strings.Contains(r.Sentence(), want) || strings.Contains(strings.ToLower(r.Sentence()), "block") {
				t.Errorf("%s: %q, want %q and no block", tc.state, r.Sentence(), want)
			}
		}
	}
}
