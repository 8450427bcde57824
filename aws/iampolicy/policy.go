package iampolicy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Role is who a policy is for.
type Role string

const (
	// Reader looks and never spends: lists, searches, prices, usage.
	Reader Role = "reader"
	// OnCall keeps running blocks alive: a reader who also extends blocks and launches into them.
	OnCall Role = "on-call"
	// Buyer books capacity: an on-call engineer who also buys blocks and plans.
	Buyer Role = "buyer"
	// Watcher is `gpublock watch` (blocks --watch) unattended: it lists, fires the launches
	// attached to a block's start and extends by the --auto-extend policy; it never searches
	// the market, buys a block or a plan, or reads prices or usage.
	Watcher Role = "watcher"
)

// Roles are the roles in the order help lists them.
var Roles = []Role{Reader, OnCall, Buyer, Watcher}

// Uses are the uses of gpublock a role needs.
func (r Role) Uses() []Use {
	switch r {
	case Reader:
		return []Use{List, Search, Prices, Usage}
	case OnCall:
		return []Use{List, Search, Prices, Usage, Extend, Launch}
	case Buyer:
		return []Use{List, Search, Prices, Usage, Extend, Launch, Purchase}
	case Watcher:
		return []Use{List, Extend, Launch}
	}
	return nil
}

// ParseRole reads --for.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Roles, r) {
		return r, nil
	}
	names := make([]string, len(Roles))
	for i, r := range Roles {
		names[i] = string(r)
	}
	return "", fmt.Errorf("%q is no role: want %s", s, strings.Join(names, ", "))
}

// Store is a team's state in S3: its bucket and key prefix ("" for the whole bucket).
type Store struct{ Bucket, Prefix string }

// ParseStore reads s3://BUCKET/PREFIX.
func ParseStore(s string) (Store, error) {
	rest, ok := strings.CutPrefix(s, "s3://")
	if !ok {
		return Store{}, fmt.Errorf("%q: want s3://BUCKET/PREFIX", s)
	}
	bucket, prefix, _ := strings.Cut(rest, "/")
	prefix = strings.Trim(prefix, "/")
	if !validBucket(bucket) {
		return Store{}, fmt.Errorf("%q: %q is not an S3 bucket name (3-63 lowercase letters, digits, dots and hyphens)", s, bucket)
	}
	if strings.ContainsAny(prefix, "*?\"\\") || strings.Contains(prefix, "//") {
		return Store{}, fmt.Errorf("%q: the prefix %q may not hold *, ?, \", \\ or //", s, prefix)
	}
	return Store{Bucket: bucket, Prefix: prefix}, nil
}

func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i, r := range b {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || (r == '.' || r == '-') && i > 0 && i < len(b)-1
		if !ok {
			return false
		}
	}
	return true
}

// Document is an IAM policy document.
type Document struct {
	Version   string      `json:"Version"`
	Statement []Statement `json:"Statement"`
}

// Statement is one statement of a policy.
type Statement struct {
	Sid       string                    `json:"Sid"`
	Effect    string                    `json:"Effect"`
	Action    []string                  `json:"Action"`
	Resource  any                       `json:"Resource"`
	Condition map[string]map[string]any `json:"Condition,omitempty"`
}

// Policy is the least-privilege policy of role: the actions of every call its uses make,
// the tagging of what those calls create allowed only on creation, and, when store is not
// nil, the objects under the store's prefix.
//
// Resources are "*" where the calls are not scoped: the Describe and List actions support no
// resource-level permission, and a purchase or a launch creates resources whose ids are not
// known before. ARNs are of the commercial partition (arn:aws).
func Policy(role Role, store *Store) Document {
	uses := role.Uses()
	needs := func(c Call) bool {
		return slices.ContainsFunc(c.Uses, func(u Use) bool { return slices.Contains(uses, u) })
	}
	var actions []string
	for _, c := range Calls {
		if needs(c) {
			actions = append(actions, c.IAMAction())
		}
	}
	slices.Sort(actions)
	actions = slices.Compact(actions)
	doc := Document{Version: "2012-10-17", Statement: []Statement{{Sid: "GpublockCalls", Effect: "Allow", Action: actions, Resource: "*"}}}

	var ec2Creates []any
	tagPlans := false
	for _, action := range actions {
		use, ok := TagsOnCreate[action]
		if !ok || !slices.Contains(uses, use) {
			continue
		}
		service, op, _ := strings.Cut(action, ":")
		switch service {
		case "ec2":
			ec2Creates = append(ec2Creates, op)
		case "sagemaker":
			tagPlans = true
		}
	}
	if len(ec2Creates) > 0 {
		// Tags given to RunInstances or PurchaseCapacityBlock are authorized as
		// ec2:CreateTags; the condition allows them only as part of those calls, never
		// on a resource that exists.
		doc.Statement = append(doc.Statement, Statement{Sid: "GpublockTagOnCreate", Effect: "Allow", Action: []string{"ec2:CreateTags"},
			Resource: "*", Condition: map[string]map[string]any{"StringEquals": {"ec2:CreateAction": ec2Creates}}})
	}
	if tagPlans {
		// SageMaker authorizes the tags of CreateTrainingPlan as sagemaker:AddTags on the
		// new plan. AWS documents no condition key that limits it to creation, so it is
		// limited to training plans: the safer reading of what AWS asks.
		doc.Statement = append(doc.Statement, Statement{Sid: "GpublockTagTrainingPlans", Effect: "Allow", Action: []string{"sagemaker:AddTags"},
			Resource: "arn:aws:sagemaker:*:*:training-plan/*"})
	}
	if store != nil {
		doc.Statement = append(doc.Statement, storeStatements(*store)...)
	}
	return doc
}

// storeStatements allow the team state's calls on its prefix only: its objects, and the
// listing of its keys.
func storeStatements(s Store) []Statement {
	var object, list []string
	for _, c := range StoreCalls {
		if c.IAMAction() == "s3:ListBucket" {
			list = append(list, c.IAMAction())
		} else {
			object = append(object, c.IAMAction())
		}
	}
	slices.Sort(object)
	object = slices.Compact(object)
	objects := "arn:aws:s3:::" + s.Bucket + "/*"
	listing := Statement{Sid: "GpublockTeamStateList", Effect: "Allow", Action: slices.Compact(list), Resource: "arn:aws:s3:::" + s.Bucket}
	if s.Prefix != "" {
		objects = "arn:aws:s3:::" + s.Bucket + "/" + s.Prefix + "/*"
		listing.Condition = map[string]map[string]any{"StringLike": {"s3:prefix": []string{s.Prefix, s.Prefix + "/*"}}}
	}
	return []Statement{
		{Sid: "GpublockTeamStateObjects", Effect: "Allow", Action: object, Resource: objects},
		listing,
	}
}

// JSON is the document as IAM takes it, indented.
func (d Document) JSON() []byte {
	out, _ := json.MarshalIndent(d, "", "  ")
	return append(out, '\n')
}
