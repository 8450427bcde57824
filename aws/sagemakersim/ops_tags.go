package sagemakersim

import "strings"

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
