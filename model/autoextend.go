package model

import (
	"fmt"
	"strings"
	"time"
)

// AutoExtendTag is the tag that asks for a block to be extended by the policy even when no
// instance runs in it (a workload that starts late, a block held for a job in a queue).
// The gpublock: prefix keeps it apart from the tags a person puts on a purchase; it is set
// with the AWS console or `aws ec2 create-tags`.
const AutoExtendTag = "gpublock:auto-extend=true"

// AutoExtendPolicy is what `blocks --watch --auto-extend` extends: a block that still has
// instances running, or carries the tag, is extended by Days once it reaches an EXTEND BY
// lead, at most once per block and lead.
type AutoExtendPolicy struct {
	Days             int // the length to add; 0: the policy is off
	TagKey, TagValue string
	Leads            []time.Duration // the EXTEND BY leads, as WarnRules has them
}

// ParseAutoExtendTag reads KEY=VALUE.
func ParseAutoExtendTag(s string) (key, value string, err error) {
	k, v, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok || strings.TrimSpace(k) == "" {
		return "", "", fmt.Errorf("%q: want KEY=VALUE, e.g. %s", s, AutoExtendTag)
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), nil
}

// NewAutoExtendPolicy is the policy of days over rules' leads; it refuses leads that never
// say EXTEND BY (all within AWS's cutoff), since the policy would then never act.
func NewAutoExtendPolicy(days int, tag string, rules WarnRules) (AutoExtendPolicy, error) {
	p := AutoExtendPolicy{Days: days}
	if tag == "" {
		tag = AutoExtendTag
	}
	var err error
	if p.TagKey, p.TagValue, err = ParseAutoExtendTag(tag); err != nil {
		return p, err
	}
	for _, l := range rules.Leads {
		if l > ExtendCutoff {
			p.Leads = append(p.Leads, l)
		}
	}
	if len(p.Leads) == 0 {
		return p, fmt.Errorf("the warning leads %s all fall within AWS's %d-minute extension cutoff: give one longer, e.g. --warn-leads 24h",
			FormatWarnLeads(rules.Leads), int(ExtendCutoff/time.Minute))
	}
	return p, nil
}

// Wants reports whether the policy covers b: instances still run in it, or it is tagged.
func (p AutoExtendPolicy) Wants(b Block) bool {
	if v, ok := b.Tags[p.TagKey]; ok && v == p.TagValue {
		return true
	}
	return b.RunningCount > 0
}

// AutoExtendVerdict is what the policy says of a block at a moment.
type AutoExtendVerdict int

const (
	AutoExtendNotYet  AutoExtendVerdict = iota // no lead reached, not covered, or already decided
	AutoExtendNow                              // extend it now (within the cap, through the spend path)
	AutoExtendDecline                          // a lead is reached but it cannot be extended: Reason says why
)

// AutoExtendDecision is the policy's verdict on one block, keyed once per block and lead.
type AutoExtendDecision struct {
	Verdict AutoExtendVerdict
	// Key names the decision once per block and lead (AutoExtendKey): the journal and the
	// notifier remember it, so that no restart decides it twice.
	Key    string
	Lead   time.Duration
	Reason string
}

// Decide is the one rule of auto-extension, for the command line and the terminal UI:
// decided holds the keys already decided (taken or declined). It decides at the shortest
// EXTEND BY lead reached, and a decision at a lead covers the longer ones it passed: a
// watch started late decides once, not once per lead, and a block is extended at most once
// per lead however its end moves.
func (p AutoExtendPolicy) Decide(b Block, now time.Time, decided map[string]bool) AutoExtendDecision {
	if p.Days <= 0 || (b.State != StateActive && b.State != StateScheduled) || !now.Before(b.End) || !p.Wants(b) {
		return AutoExtendDecision{}
	}
	var lead time.Duration
	for _, l := range p.Leads {
		if !now.Before(b.End.Add(-l)) && (lead == 0 || l < lead) {
			lead = l
		}
	}
	if lead == 0 {
		return AutoExtendDecision{}
	}
	for _, l := range p.Leads {
		if l <= lead && decided[AutoExtendKey(b, l)] {
			return AutoExtendDecision{}
		}
	}
	for _, e := range b.Extensions {
		if e.Status == ExtensionPaymentPending {
			// The end moves once AWS takes that payment; deciding before would extend twice.
			return AutoExtendDecision{}
		}
	}
	d := AutoExtendDecision{Key: AutoExtendKey(b, lead), Lead: lead}
	if r := ExtendBlockerAt(b, now); r != nil {
		d.Verdict, d.Reason = AutoExtendDecline, r.Reason
		return d
	}
	d.Verdict = AutoExtendNow
	return d
}

// AutoExtendKey names the decision on b at lead. Unlike a warning's key it leaves out the
// end: an extension moves the end, and must not make the same lead decide again.
func AutoExtendKey(b Block, lead time.Duration) string {
	k := "auto-extend/" + b.ReservationID + "/" + lead.String()
	if b.Source == SourceTrainingPlan {
		// A plan's name is unique only within its account and region.
		k = "training-plan/" + b.Region + "/" + k
	}
	return k
}
