package ec2sim

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// form is a decoded EC2 Query request body. Lists arrive flattened as Name.N (1-based),
// structures as A.B; the accessors below rebuild them and turn every malformed value into
// the API error AWS would answer, so that handlers never see raw strings.
type form struct{ v url.Values }

// maxListIndex bounds the N of Name.N so that a hostile body cannot make us sort or
// allocate for absurd indices; AWS's own limits (filters, IDs per call) are far below it.
const maxListIndex = 1000

// decodeForm parses a request body. Each key may appear once.
func decodeForm(body []byte) (form, *apiError) {
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return form{}, errf(http.StatusBadRequest, "MalformedQueryString",
			"The request body is not a valid form-encoded query string: %v", err)
	}
	for k, vals := range v {
		if len(vals) > 1 {
			return form{}, badParam("The parameter %s is given %d times; give it once.", k, len(vals))
		}
	}
	return form{v}, nil
}

func (f form) has(name string) bool { _, ok := f.v[name]; return ok }

func (f form) str(name string) string { return f.v.Get(name) }

func (f form) required(name string) (string, *apiError) {
	s := f.v.Get(name)
	if s == "" {
		return "", missingParam(name)
	}
	return s, nil
}

// optInt reads an optional integer in [lo, hi]; set reports whether it was given.
func (f form) optInt(name string, lo, hi int) (n int, set bool, e *apiError) {
	if !f.has(name) {
		return 0, false, nil
	}
	s := f.v.Get(name)
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, true, badParam("Value (%s) for parameter %s is invalid. Expected a whole number from %d to %d.", s, name, lo, hi)
	}
	if n < lo || n > hi {
		return 0, true, badParam("Value (%d) for parameter %s is invalid. It must be from %d to %d.", n, name, lo, hi)
	}
	return n, true, nil
}

func (f form) requiredInt(name string, lo, hi int) (int, *apiError) {
	if !f.has(name) || f.v.Get(name) == "" {
		return 0, missingParam(name)
	}
	n, _, err := f.optInt(name, lo, hi)
	return n, err
}

// optBool accepts exactly what the SDK sends: true or false.
func (f form) optBool(name string) (bool, *apiError) {
	if !f.has(name) {
		return false, nil
	}
	switch s := f.v.Get(name); s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return false, badParam("Value (%s) for parameter %s is invalid. Expected true or false.", s, name)
	}
}

// optTime reads an RFC 3339 timestamp, the form the SDK sends (2025-06-01T11:30:00Z).
func (f form) optTime(name string) (t time.Time, set bool, e *apiError) {
	if !f.has(name) {
		return time.Time{}, false, nil
	}
	s := f.v.Get(name)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true, nil
		}
	}
	return time.Time{}, true, badParam("Value (%s) for parameter %s is invalid. Expected an ISO 8601 timestamp such as 2025-06-01T11:30:00Z.", s, name)
}

// timeLayouts are the ISO 8601 forms clients send: the Go SDK's (RFC 3339, Z), and the
// zone-less and date-only forms other tools allow, read as UTC as EC2 does.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"}

// indices returns, sorted, every N such that a key prefix.N or prefix.N.* exists.
func (f form) indices(prefix string) ([]int, *apiError) {
	seen := map[int]bool{}
	p := prefix + "."
	for k := range f.v {
		if !strings.HasPrefix(k, p) {
			continue
		}
		rest := k[len(p):]
		num, _, _ := strings.Cut(rest, ".")
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 || n > maxListIndex || strconv.Itoa(n) != num {
			return nil, badParam("The parameter %s has an invalid list index %q; indices run from 1 to %d.", k, num, maxListIndex)
		}
		seen[n] = true
	}
	out := make([]int, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Ints(out)
	return out, nil
}

// list reads a flattened list of strings: prefix.1, prefix.2, …
func (f form) list(prefix string) ([]string, *apiError) {
	idx, err := f.indices(prefix)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(idx))
	for _, n := range idx {
		key := prefix + "." + strconv.Itoa(n)
		if !f.has(key) {
			return nil, badParam("The list %s has an element %d with sub-fields; expected plain values.", prefix, n)
		}
		out = append(out, f.v.Get(key))
	}
	return out, nil
}

type filter struct {
	name   string
	values []string
}

// filters reads Filter.N.Name and Filter.N.Value.M.
func (f form) filters() ([]filter, *apiError) {
	idx, err := f.indices("Filter")
	if err != nil {
		return nil, err
	}
	var out []filter
	for _, n := range idx {
		base := "Filter." + strconv.Itoa(n)
		name := f.v.Get(base + ".Name")
		if name == "" {
			return nil, missingParam(base + ".Name")
		}
		vals, err := f.list(base + ".Value")
		if err != nil {
			return nil, err
		}
		out = append(out, filter{name: name, values: vals})
	}
	return out, nil
}

// knownFilters reads the filters and rejects names the action does not know (see checkFilters).
func (f form) knownFilters(allowed ...string) ([]filter, *apiError) {
	fs, e := f.filters()
	if e != nil {
		return nil, e
	}
	if e := checkFilters(fs, allowed...); e != nil {
		return nil, e
	}
	return fs, nil
}

type tagSpec struct {
	resourceType string
	tags         []tag
}

type tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// tagSpecs reads TagSpecification.N.ResourceType and TagSpecification.N.Tag.M.Key/Value.
func (f form) tagSpecs() ([]tagSpec, *apiError) {
	idx, err := f.indices("TagSpecification")
	if err != nil {
		return nil, err
	}
	var out []tagSpec
	for _, n := range idx {
		base := "TagSpecification." + strconv.Itoa(n)
		ts := tagSpec{resourceType: f.v.Get(base + ".ResourceType")}
		tidx, err := f.indices(base + ".Tag")
		if err != nil {
			return nil, err
		}
		for _, m := range tidx {
			tb := base + ".Tag." + strconv.Itoa(m)
			k := f.v.Get(tb + ".Key")
			if k == "" {
				return nil, missingParam(tb + ".Key")
			}
			ts.tags = append(ts.tags, tag{Key: k, Value: f.v.Get(tb + ".Value")})
		}
		out = append(out, ts)
	}
	return out, nil
}
