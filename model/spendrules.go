package model

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules of spending that both front ends and the spend service state in one set of
// words: the spending cap, a permission refused, read-only mode, and the tags a person may
// put on what is bought.

// DefaultCapRule names where a spending cap comes from when the caller cannot say.
const DefaultCapRule = "--max-spend, or max_spend in the config file"

// CapRefusal is the refusal of a fee above the spending cap max (rule names where the cap
// came from), or "" when there is no cap or the fee is within it: the one comparison of a
// fee with the cap.
func CapRefusal(fee Money, max *Money, rule string) string {
	if max == nil || fee.Cmp(*max) <= 0 {
		return ""
	}
	if rule == "" {
		rule = DefaultCapRule
	}
	return fmt.Sprintf("REFUSED: the fee %s is above the spending cap of %s (%s). Nothing was sent to AWS; raise the cap if this is intended.",
		fee.Dollars(), max.Dollars(), rule)
}

// ReadOnlyRefusal is the refusal of anything that spends in read-only mode; rule names
// what made it read-only, done is the action's past participle ("bought").
func ReadOnlyRefusal(rule, done string) string {
	if rule == "" {
		rule = "gpublock runs read-only"
	}
	return "refused: " + rule + ", so nothing can be " + done + "; nothing was sent to AWS."
}

// NotAllowed is the refusal of a dry run that denied action.
func NotAllowed(action, done string) string {
	return "NOT ALLOWED: this identity lacks " + action + ". Nothing can be " + done + "."
}

// Tag limits: AWS's (keys 1–128 characters, values 0–256, 50 tags a resource), less
// the room gpublock keeps for its own tags.
const (
	MaxTagKey   = 128
	MaxTagValue = 256
	MaxUserTags = 40
)

// CheckTag is the rule of one tag a person gives: a key of 1–128 characters outside the
// reserved aws: and gpublock: prefixes, a value of at most 256.
func CheckTag(k, v string) error {
	if why := tagProblem(k, v); why != "" {
		return fmt.Errorf("tag key %q: %s", k, why)
	}
	return nil
}

func tagProblem(k, v string) string {
	lower := strings.ToLower(k)
	switch {
	case k == "" || utf8.RuneCountInString(k) > MaxTagKey:
		return fmt.Sprintf("a key must be 1–%d characters", MaxTagKey)
	case strings.HasPrefix(lower, "aws:"):
		return "the aws: prefix is reserved by AWS"
	case strings.HasPrefix(lower, "gpublock:"):
		return "the gpublock: prefix is reserved for the tags set by gpublock itself"
	case utf8.RuneCountInString(v) > MaxTagValue:
		return fmt.Sprintf("the value is longer than %d characters", MaxTagValue)
	}
	return ""
}

// CheckTags is CheckTag for every tag, and at most MaxUserTags of them.
func CheckTags(tags map[string]string) error {
	if len(tags) > MaxUserTags {
		return fmt.Errorf("%d tags; at most %d (AWS allows 50 and gpublock adds its own)", len(tags), MaxUserTags)
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return err
		}
	}
	return nil
}

// AddTags adds the tags written in s, KEY=VALUE pairs separated by commas, spaces or both
// ("team=ml,project=llm", "team=research project=demo"), each under AddTag: the one parser
// of the command line's --tag and of the purchase dialog's tags field. A space starts a new
// tag only before a word holding "=", so a value may hold spaces ("Name=run 1") but never a
// comma; text before the first "=" of a piece must be one key.
func AddTags(tags map[string]string, s string) error {
	for _, piece := range strings.Split(s, ",") {
		for _, kv := range splitTagPiece(piece) {
			if err := AddTag(tags, kv); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitTagPiece splits one comma-free piece before each word that holds "=".
func splitTagPiece(piece string) []string {
	var out []string
	start := -1
	for _, w := range wordSpans(piece) {
		if start < 0 || strings.Contains(piece[w[0]:w[1]], "=") {
			if start >= 0 {
				out = append(out, strings.TrimSpace(piece[start:w[0]]))
			}
			start = w[0]
		}
	}
	if start >= 0 {
		out = append(out, strings.TrimSpace(piece[start:]))
	}
	return out
}

// wordSpans are the [start, end) byte spans of s's space-separated words.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// AddTag adds the one tag written kv ("key=value") to tags under the rules of CheckTags, and
// refuses a key given twice.
func AddTag(tags map[string]string, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" {
		return fmt.Errorf("%q: want KEY=VALUE pairs separated by commas or spaces, e.g. team=ml,project=llm", kv)
	}
	if _, dup := tags[k]; dup {
		return fmt.Errorf("tag %s given twice", k)
	}
	if why := tagProblem(k, v); why != "" {
		return fmt.Errorf("tag %q: %s", kv, why)
	}
	if len(tags) >= MaxUserTags {
		return fmt.Errorf("more than %d tags (AWS allows 50 and gpublock adds its own)", MaxUserTags)
	}
	tags[k] = v
	return nil
}
