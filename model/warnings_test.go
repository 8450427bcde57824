package model

import (
	"strings"
	"testing"
	"time"
)

var wEnd = time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)

func activeBlock() Block {
	return Block{ReservationID: "cr-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, RunningCount: 2, State: StateActive, Start: wEnd.Add(-72 * time.Hour), End: wEnd}
}

func kinds(ws []Warning) []WarningKind {
	var out []WarningKind
	for _, w := range ws {
		out = append(out, w.Kind)
	}
	return out
}

// Walking a block's last day minute by minute, every warning starts at its lead, exactly,
// and each key appears once as new: the notifier's rule of "once per block and lead".
func TestWarningsAtTheirLeads(t *testing.T) {
	leads, err := ParseWarnLeads("24h, 2h,40m")
	if err != nil {
		t.Fatal(err)
	}
	r := NewWarnRules(leads)
	b := activeBlock()
	first := map[string]time.Time{}
	for now := wEnd.Add(-25 * time.Hour); now.Before(wEnd); now = now.Add(time.Minute) {
		for _, w := range r.Warnings(b, now) {
			if _, ok := first[w.Key(b)]; !ok {
				first[w.Key(b)] = now
			}
		}
	}
	end := wEnd.Format(time.RFC3339)
	want := map[string]time.Duration{
		"cr-1/extend-by/24h0m0s/" + end: 24 * time.Hour,
		"cr-1/extend-by/2h0m0s/" + end:  2 * time.Hour,
		"cr-1/cant-extend/" + end:       time.Hour,
		"cr-1/expiring/" + end:          40 * time.Minute,
		"cr-1/terminating/" + end:       30 * time.Minute,
	}
	if len(first) != len(want) {
		t.Errorf("keys: %v, want %d of them", first, len(want))
	}
	for k, lead := range want {
		at, ok := first[k]
		if !ok {
			t.Errorf("never warned: %s", k)
			continue
		}
		if got := wEnd.Sub(at); got != lead {
			t.Errorf("%s first at %s before the end, want %s", k, got, lead)
		}
	}
	// The top warning at each stage, and EXTEND BY's deadline in its cell.
	for before, want := range map[time.Duration]WarningKind{25 * time.Hour: NoWarning, 5 * time.Hour: WarnExtendBy,
		50 * time.Minute: WarnCantExtend, 35 * time.Minute: WarnExpiring, 10 * time.Minute: WarnTerminating} {
		if got := r.Top(b, wEnd.Add(-before)).Kind; got != want {
			t.Errorf("%s before the end: %s, want %s", before, got.Word(), want.Word())
		}
	}
	if c := r.Top(b, wEnd.Add(-5*time.Hour)).Cell(b, wEnd.Add(-5*time.Hour)); c != "▲ EXTEND BY 10:30 · 4h 00m" {
		t.Errorf("cell %q", c)
	}
}

// Extended, the block is warned again before its new end; with an extension being paid
// for, EXTEND BY is not said (AWS takes no second one meanwhile).
func TestExtendByFollowsTheEnd(t *testing.T) {
	r := DefaultWarnRules()
	b := activeBlock()
	now := wEnd.Add(-3 * time.Hour)
	k1 := r.Top(b, now).Key(b)
	b.Extensions = []Extension{{Status: ExtensionPaymentPending, Start: wEnd, End: wEnd.Add(24 * time.Hour)}}
	if got := r.Top(b, now).Kind; got != NoWarning {
		t.Errorf("with an extension pending: %s", got.Word())
	}
	b.Extensions[0].Status = ExtensionPaymentSucceeded
	b.End = wEnd.Add(24 * time.Hour)
	w := r.Top(b, b.End.Add(-3*time.Hour))
	if w.Kind != WarnExtendBy || w.Key(b) == k1 {
		t.Errorf("after the extension: %s, key %s (before %s)", w.Kind.Word(), w.Key(b), k1)
	}
}

// What DescribeCapacityBlockStatus reports, and a payment pending past an hour.
func TestCapacityAndPaymentWarnings(t *testing.T) {
	r := DefaultWarnRules()
	b := activeBlock()
	now := wEnd.Add(-48 * time.Hour)
	b.UnavailableCount, b.Interconnect = 1, "impaired"
	if got := kinds(r.Warnings(b, now)); len(got) != 2 || got[0] != WarnCapacityUnavailable || got[1] != WarnInterconnectImpaired {
		t.Errorf("capacity problems: %v", got)
	}
	if s := WarnCapacityUnavailable.Sentence(b, now); !strings.Contains(s, "1 of its 2") {
		t.Errorf("sentence %q", s)
	}
	p := Block{ReservationID: "cr-2", State: StatePaymentPending, Created: now.Add(-59 * time.Minute), Start: now.Add(time.Hour), End: now.Add(25 * time.Hour)}
	if got := r.Top(p, now).Kind; got != WarnPaymentPending {
		t.Errorf("pending 59 minutes: %s", got.Word())
	}
	if got := r.Top(p, now.Add(time.Minute)).Kind; got != WarnPaymentSlow {
		t.Errorf("pending an hour: %s", got.Word())
	}
}

func TestParseWarnLeads(t *testing.T) {
	got, err := ParseWarnLeads("2d,90m")
	if err != nil || len(got) != 2 || got[0] != 48*time.Hour || got[1] != 90*time.Minute {
		t.Errorf("2d,90m: %v %v", got, err)
	}
	if s := FormatWarnLeads(NewWarnRules([]time.Duration{40 * time.Minute, 24 * time.Hour, 150 * time.Minute, 40 * time.Minute}).Leads); s != "24h,2h30m,40m" {
		t.Errorf("formatted %q", s)
	}
	for _, bad := range []string{"", "24h,,2h", "-1h", "0", "soon", "57d"} {
		if _, err := ParseWarnLeads(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The summary names the most severe kind: red before amber, then the more urgent; a count
// alone never stands for them.
func TestWarningSummarySeverity(t *testing.T) {
	for _, tc := range []struct {
		kinds []WarningKind
		want  string
		red   bool
	}{
		{nil, "", false},
		{[]WarningKind{NoWarning, NoWarning}, "", false},
		{[]WarningKind{WarnTerminating}, "✖ TERMINATING (1 warning)", true},
		{[]WarningKind{WarnExpiring, WarnTerminating, WarnIdle}, "✖ TERMINATING (3 warnings)", true},
		// a red payment failure outranks the later, amber, can't-extend
		{[]WarningKind{WarnCantExtend, WarnPaymentFailed}, "✖ PAY FAILED (2 warnings)", true},
		{[]WarningKind{WarnIdle, NoWarning, WarnExpiring}, "▲ EXPIRING (2 warnings)", false},
	} {
		got, worst := WarningSummary(tc.kinds)
		if got != tc.want || worst.Red() != tc.red {
			t.Errorf("%v: %q (red %v), want %q (red %v)", tc.kinds, got, worst.Red(), tc.want, tc.red)
		}
	}
}
