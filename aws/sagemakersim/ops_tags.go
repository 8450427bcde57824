package sagemakersim

import (
	"fmt"
	"slices"
	"strings"
)

// tagInput is a tag as a request gives it: either field may be missing.
type tagInput struct {
	Key   *string `json:"Key"`
	Value *string `json:"Value"`
}

// readTags checks a request's tags: at most 50, each key 1–128 and value 0–256 characters of
// the tag pattern. The aws: prefix is AWS's own, in any case, as in every tagging API; a key
// given twice is refused rather than one of them kept (AWS's choice is UNCONFIRMED).
func readTags(in []*tagInput) ([]tag, *apiError) {
	if len(in) > maxTags {
		return nil, invalid("Tags", fmt.Sprintf("[%d tags]", len(in)), "Member must have length less than or equal to 50")
	}
	var tags []tag
	for _, t := range in {
		if t == nil {
			return nil, invalid("Tags", "null", "Member must not be null")
		}
		if e := firstErr(required("Tags.member.Key", t.Key != nil), required("Tags.member.Value", t.Value != nil),
			checkString("Tags.member.Key", t.Key, 1, 128, patTag), checkString("Tags.member.Value", t.Value, 0, 256, patTag)); e != nil {
			return nil, e
		}
		if strings.HasPrefix(strings.ToLower(*t.Key), "aws:") {
			return nil, rule("Tag key %s is not allowed: keys starting with aws: are reserved for AWS's use.", *t.Key)
		}
		if slices.ContainsFunc(tags, func(o tag) bool { return o.Key == *t.Key }) {
			return nil, rule("Tag key %s is given more than once; tag keys must be unique.", *t.Key)
		}
		tags = append(tags, tag{*t.Key, *t.Value})
	}
	return tags, nil
}

// maxTags is how many tags a SageMaker resource holds (AWS's quota), and how many one
// request may give.
const maxTags = 50

// --- ListTags

// listTags answers the tags a training plan was created with, and none for one of its
// reserved capacities. AWS does not say what ListTags answers for an ARN of nothing it
// holds (UNCONFIRMED): ResourceNotFound here, as DescribeTrainingPlan's, rather than an
// empty list that would claim the resource exists untagged.
func (h *handler) listTags(c *call) (any, *apiError) {
	var in struct {
		ResourceArn *string `json:"ResourceArn"`
		NextToken   *string `json:"NextToken"`
		MaxResults  *int    `json:"MaxResults"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ResourceArn", in.ResourceArn != nil), checkString("ResourceArn", in.ResourceArn, 0, 256, patResourceArn),
		checkRange("MaxResults", in.MaxResults, 50, 0)); e != nil {
		return nil, e
	}
	// A plan holds at most 50 tags and a page at least 50, so one page holds them all;
	// page still reads the token, and refuses one this emulator did not issue.
	size := 50
	if in.MaxResults != nil {
		size = min(*in.MaxResults, 100)
	}
	arn := *in.ResourceArn
	var tags []tag
	found := false
	if p := c.rs.planByARN(arn); p != nil {
		tags, found = p.Tags, true
	} else if strings.Contains(arn, ":reserved-capacity/") {
		_, _, _, found = c.rs.reservedCapacity(c.region, arn, c.now)
	}
	from, to, next, e := page(in.NextToken, &size, size, len(tags))
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if !found {
		return nil, notFound("Resource %s does not exist.", arn)
	}
	return struct {
		NextToken *string `json:"NextToken,omitempty"`
		Tags      []tag   `json:"Tags"`
	}{NextToken: next, Tags: append([]tag{}, tags[from:to]...)}, nil
}

// --- AddTags, DeleteTags

// taggedPlan is the plan whose ARN a tagging call names, once the deny fault let the call
// through. A reserved capacity's ARN is refused: the emulator keeps tags on plans only
// (ListTags answers none for a reserved capacity), and a call it cannot keep must not look
// kept. An ARN of nothing held is ResourceNotFound, as ListTags answers.
func (h *handler) taggedPlan(c *call, arn string) (*plan, *apiError) {
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if p := c.rs.planByARN(arn); p != nil {
		return p, nil
	}
	if strings.Contains(arn, ":reserved-capacity/") {
		if _, _, _, found := c.rs.reservedCapacity(c.region, arn, c.now); found {
			return nil, rule("The emulator keeps tags on training plans only, not on reserved capacity %s.", arn)
		}
	}
	return nil, notFound("Resource %s does not exist.", arn)
}

// addTags adds tags to a plan, a key it holds taking the new value. More than 50 in all is
// ValidationException (AWS's quota is 50 tags a resource; the code it answers past it is
// UNCONFIRMED, and the call is refused either way).
func (h *handler) addTags(c *call) (any, *apiError) {
	var in struct {
		ResourceArn *string     `json:"ResourceArn"`
		Tags        []*tagInput `json:"Tags"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ResourceArn", in.ResourceArn != nil), required("Tags", in.Tags != nil),
		checkString("ResourceArn", in.ResourceArn, 0, 256, patResourceArn)); e != nil {
		return nil, e
	}
	tags, e := readTags(in.Tags)
	if e != nil {
		return nil, e
	}
	p, e := h.taggedPlan(c, *in.ResourceArn)
	if e != nil {
		return nil, e
	}
	merged := slices.Clone(p.Tags)
	for _, t := range tags {
		if i := slices.IndexFunc(merged, func(o tag) bool { return o.Key == t.Key }); i >= 0 {
			merged[i].Value = t.Value
		} else {
			merged = append(merged, t)
		}
	}
	if len(merged) > maxTags {
		return nil, rule("Resource %s would have %d tags; a resource has at most %d.", p.ARN, len(merged), maxTags)
	}
	p.Tags, c.changed = merged, true
	return struct {
		Tags []tag `json:"Tags"`
	}{Tags: append([]tag{}, tags...)}, nil
}

// deleteTags removes the keys from a plan; a key it does not hold is no error.
func (h *handler) deleteTags(c *call) (any, *apiError) {
	var in struct {
		ResourceArn *string   `json:"ResourceArn"`
		TagKeys     []*string `json:"TagKeys"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ResourceArn", in.ResourceArn != nil), required("TagKeys", in.TagKeys != nil),
		checkString("ResourceArn", in.ResourceArn, 0, 256, patResourceArn)); e != nil {
		return nil, e
	}
	if len(in.TagKeys) < 1 || len(in.TagKeys) > maxTags {
		return nil, invalid("TagKeys", fmt.Sprintf("[%d keys]", len(in.TagKeys)), "Member must have length between 1 and 50")
	}
	for _, k := range in.TagKeys {
		if k == nil {
			return nil, invalid("TagKeys", "null", "Member must not be null")
		}
		if e := checkString("TagKeys.member", k, 1, 128, patTag); e != nil {
			return nil, e
		}
	}
	p, e := h.taggedPlan(c, *in.ResourceArn)
	if e != nil {
		return nil, e
	}
	p.Tags = slices.DeleteFunc(slices.Clone(p.Tags), func(t tag) bool {
		return slices.ContainsFunc(in.TagKeys, func(k *string) bool { return *k == t.Key })
	})
	c.changed = true
	return struct{}{}, nil
}
