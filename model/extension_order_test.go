package model

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The lengths are asked most likely first: those chosen before, most often first, then 1,
// 2, 7 and 14 days, then the rest shortest first; every length once, no other.
func TestExtensionAskOrder(t *testing.T) {
	lengths := []int{1, 2, 3, 7, 14, 21, 28}
	for _, tc := range []struct {
		chosen, want []int
	}{
		{nil, []int{1, 2, 7, 14, 3, 21, 28}},
		{[]int{3, 21, 3, 99}, []int{3, 21, 1, 2, 7, 14, 28}},
		{[]int{28, 2}, []int{2, 28, 1, 7, 14, 3, 21}},
	} {
		if got := ExtensionAskOrder(lengths, tc.chosen); !slices.Equal(got, tc.want) {
			t.Errorf("chosen %v: %v, want %v", tc.chosen, got, tc.want)
		}
	}
	if got := ExtensionAskOrder([]int{21, 28}, nil); !slices.Equal(got, []int{21, 28}) {
		t.Errorf("a block near the longest: %v", got)
	}
}

// What marks a block CAN'T EXTEND refuses its extension before any call: past the cutoff,
// a payment pending, no length left.
func TestExtendBlockerAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	b := Block{ReservationID: "cr-1", State: StateActive, Start: now.Add(-24 * time.Hour), End: now.Add(2 * time.Hour)}
	if r := ExtendBlockerAt(b, now); r != nil {
		t.Fatalf("2 hours before the end: %v", r)
	}
	if r := ExtendBlockerAt(b, now.Add(61*time.Minute)); r == nil || r.Problem != ExtendClosed || !containsAll(r.Sentence(), "can no longer be extended", "60 minutes") {
		t.Errorf("past the cutoff: %v", r)
	}
	p := b
	p.Extensions = []Extension{{Status: ExtensionPaymentPending}}
	if r := ExtendBlockerAt(p, now); r == nil || r.Problem != ExtendClosed {
		t.Errorf("a payment pending: %v", r)
	}
	l := b
	l.Start = l.End.Add(-182 * 24 * time.Hour)
	if r := ExtendBlockerAt(l, now); r == nil || r.Problem != ExtendClosed || len(ExtensionLengths(l)) != 0 {
		t.Errorf("182 days long: %v", r)
	}
	o := b
	o.State = StateExpired
	if r := ExtendBlockerAt(o, now); r == nil || r.Problem != ExtendOver {
		t.Errorf("expired: %v", r)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
