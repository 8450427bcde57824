package model

import (
	"strings"
	"testing"
	"time"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestInstancesHeldCountsEachUTCDateOfTheWindow(t *testing.T) {
	blocks := []Block{
		// Two days from 11:30: held on the 14th, 15th and 16th.
		{Account: "111111111111", InstanceType: "p5.48xlarge", TotalCount: 64, State: StateScheduled, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-16T11:30:00Z")},
		{Account: "222222222222", InstanceType: "p5.48xlarge", TotalCount: 100, State: StateActive, Start: at("2026-12-13T11:30:00Z"), End: at("2026-12-15T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 8, State: StatePaymentPending, Start: at("2026-12-15T11:30:00Z"), End: at("2026-12-16T00:00:00Z")},
		// Ended, failed and a training plan hold nothing toward the cap.
		{InstanceType: "p5.48xlarge", TotalCount: 64, State: StateExpired, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-15T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 64, State: StatePaymentFailed, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-15T11:30:00Z")},
		{Source: SourceTrainingPlan, InstanceType: "ml.p5.48xlarge", TotalCount: 64, State: StateScheduled, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-15T11:30:00Z")},
	}
	h := InstancesHeld(blocks)
	want := map[string]int{"2026-12-13": 100, "2026-12-14": 164, "2026-12-15": 172, "2026-12-16": 64}
	if len(h) != len(want) {
		t.Fatalf("held %+v, want %v", h, want)
	}
	for d, n := range want {
		if got := h.On(day(d)); got != n {
			t.Errorf("%s: %d held, want %d", d, got, n)
		}
	}
	// The window ending at midnight does not touch the next date.
	if got := h.On(day("2026-12-17")); got != 0 {
		t.Errorf("2026-12-17: %d", got)
	}
	peak, ok := h.Peak(at("2026-12-01T08:00:00Z"))
	if !ok || !peak.Date.Equal(day("2026-12-15")) || peak.Instances != 172 {
		t.Errorf("peak %+v %v", peak, ok)
	}
	if got := h.Line(at("2026-12-01T08:00:00Z")); got != "organization: at most 172 of 256 Capacity Block instances on 2026-12-15" {
		t.Errorf("line %q", got)
	}
	// Dates before now are over.
	if peak, ok := h.Peak(at("2026-12-16T09:00:00Z")); !ok || peak.Instances != 64 {
		t.Errorf("peak from the 16th: %+v", peak)
	}
	if got := Held(nil).Line(at("2026-12-01T08:00:00Z")); !strings.Contains(got, "no Capacity Block instances") || !strings.Contains(got, "256") {
		t.Errorf("empty line %q", got)
	}
}

func TestInstancesHeldPendingExtensionHoldsToItsEnd(t *testing.T) {
	b := Block{InstanceType: "p5.48xlarge", TotalCount: 4, State: StateActive, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-15T11:30:00Z"),
		Extensions: []Extension{{Status: ExtensionPaymentPending, Start: at("2026-12-15T11:30:00Z"), End: at("2026-12-17T11:30:00Z")}}}
	if got := InstancesHeld([]Block{b}).On(day("2026-12-17")); got != 4 {
		t.Errorf("2026-12-17: %d, want the extension's 4", got)
	}
}

func TestUltraServersCountTheirInstances(t *testing.T) {
	o := Offering{InstanceType: "u-p6e-gb200x72", UltraServerType: "u-p6e-gb200x72", Count: 2, UltraServerCount: 2}
	if got := OfferingInstances(o); got != 36 {
		t.Errorf("2 × u-p6e-gb200x72: %d instances, want 36", got)
	}
	if got := OfferingInstances(Offering{InstanceType: "u-p6e-gb200x36", Count: 1}); got != 9 {
		t.Errorf("1 × u-p6e-gb200x36: %d, want 9", got)
	}
	// AWS lists an UltraServer block by its member type and instance count.
	if got := BlockInstances(Block{InstanceType: "p6e-gb200.36xlarge", TotalCount: 18}); got != 18 {
		t.Errorf("member-type block: %d", got)
	}
	if got := BlockInstances(Block{InstanceType: "u-p6e-gb200x72", TotalCount: 1}); got != 18 {
		t.Errorf("UltraServer-type block: %d", got)
	}
}

func TestWouldPass(t *testing.T) {
	held := InstancesHeld([]Block{
		{InstanceType: "p5.48xlarge", TotalCount: 64, State: StateScheduled, Start: at("2026-12-10T11:30:00Z"), End: at("2026-12-20T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 64, State: StateScheduled, Start: at("2026-12-10T11:30:00Z"), End: at("2026-12-20T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 64, State: StateScheduled, Start: at("2026-12-10T11:30:00Z"), End: at("2026-12-20T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 60, State: StateActive, Start: at("2026-12-13T11:30:00Z"), End: at("2026-12-15T11:30:00Z")},
	})
	o := Offering{InstanceType: "p5.48xlarge", Count: 8, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-16T11:30:00Z")}
	p, ok := WouldPass(held, o)
	if !ok || !p.Date.Equal(day("2026-12-14")) || p.Held != 252 || p.Adding != 8 || p.Dates != 2 || p.Cap != 256 {
		t.Fatalf("WouldPass = %+v, %v", p, ok)
	}
	w := p.Warning()
	for _, s := range []string{"2026-12-14", "252", "adds 8", "260", "256", "1 other date"} {
		if !strings.Contains(w, s) {
			t.Errorf("warning %q lacks %q", w, s)
		}
	}
	// Four fit on the 14th and 15th (252+4 = 256), and 192+4 on the 16th.
	o.Count = 4
	if p, ok := WouldPass(held, o); ok {
		t.Errorf("4 instances: %+v, want within the cap", p)
	}
	// Outside the busy dates.
	o.Count, o.Start, o.End = 64, at("2026-12-21T11:30:00Z"), at("2026-12-22T11:30:00Z")
	if p, ok := WouldPass(held, o); ok {
		t.Errorf("after the blocks: %+v", p)
	}
	// An UltraServer counts its instances: 5 × 18 = 90 on top of 192 on the 16th.
	u := Offering{InstanceType: "u-p6e-gb200x72", UltraServerType: "u-p6e-gb200x72", Count: 5, UltraServerCount: 5,
		Start: at("2026-12-16T11:30:00Z"), End: at("2026-12-17T11:30:00Z")}
	if p, ok := WouldPass(held, u); !ok || p.Adding != 90 || p.Held != 192 {
		t.Errorf("UltraServers: %+v, %v", p, ok)
	}
	// A training plan is not a Capacity Block.
	if _, ok := WouldPass(held, Offering{Source: SourceTrainingPlan, Count: 64, Start: o.Start, End: o.End}); ok {
		t.Error("a training plan passed the Capacity Block cap")
	}
}

func TestAccountLead(t *testing.T) {
	b := Block{Account: "222233334444"}
	if got := AccountLead(b, true); got != "account 222233334444: " {
		t.Errorf("several: %q", got)
	}
	if got := AccountLead(b, false); got != "" {
		t.Errorf("one account: %q", got)
	}
	if got := AccountLead(Block{}, true); got != "" {
		t.Errorf("unknown account: %q", got)
	}
}

func TestCapNote(t *testing.T) {
	held := InstancesHeld([]Block{{InstanceType: "p5.48xlarge", TotalCount: 200, State: StateScheduled, Start: at("2026-12-14T11:30:00Z"), End: at("2026-12-15T11:30:00Z")}})
	o := Offering{InstanceType: "p5.48xlarge", Count: 8, Start: at("2026-12-15T11:30:00Z"), End: at("2026-12-17T11:30:00Z")}
	note, passes := CapNote(held, o)
	if passes || note != "at most 200 of the organization's 256 Capacity Block instances are held on a date of its window (2026-12-15); this adds 8, 208 in all" {
		t.Errorf("within: %q %v", note, passes)
	}
	o.Count = 64
	if note, passes := CapNote(held, o); !passes || !strings.HasPrefix(note, "ORGANIZATION CAP: on 2026-12-15") {
		t.Errorf("past: %q %v", note, passes)
	}
	if note, _ := CapNote(held, Offering{Source: SourceTrainingPlan}); note != "" {
		t.Errorf("plan: %q", note)
	}
}

// What is held per date, consecutive dates of one count joined, a gap breaking a span.
func TestHeldSpans(t *testing.T) {
	h := InstancesHeld([]Block{
		{InstanceType: "p5.48xlarge", TotalCount: 4, State: StateScheduled, Start: at("2026-12-02T11:30:00Z"), End: at("2026-12-05T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 8, State: StateScheduled, Start: at("2026-12-05T11:30:00Z"), End: at("2026-12-06T11:30:00Z")},
		{InstanceType: "p5.48xlarge", TotalCount: 2, State: StateScheduled, Start: at("2026-12-09T11:30:00Z"), End: at("2026-12-10T00:00:00Z")},
	})
	got := strings.Join(h.SpanLines(at("2026-12-03T08:00:00Z")), "\n")
	want := strings.Join([]string{
		"2026-12-03 to 2026-12-04    4 of 256", // the 2nd is over
		"2026-12-05                 12 of 256",
		"2026-12-06                  8 of 256",
		"2026-12-09                  2 of 256",
	}, "\n")
	if got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
}
