package ec2sim

import (
	"net/http"
	"regexp"
	"strings"
)

// checkFilters rejects filter names the action does not know, as EC2 does. "tag:" in
// allowed admits every tag:KEY filter.
func checkFilters(fs []filter, allowed ...string) *apiError {
	for _, f := range fs {
		ok := false
		for _, a := range allowed {
			if f.name == a || (a == "tag:" && strings.HasPrefix(f.name, "tag:") && len(f.name) > 4) {
				ok = true
				break
			}
		}
		if !ok {
			return errf(http.StatusBadRequest, "InvalidParameterValue", "The filter '%s' is invalid; this action accepts %s.", f.name, strings.Join(allowed, ", "))
		}
		if len(f.values) == 0 {
			return badParam("The filter '%s' has no values; give at least one Filter.N.Value.M.", f.name)
		}
	}
	return nil
}

// matchFilters reports whether an item passes every filter: for each filter, one of the
// item's values for that name matches one of the filter's values (with * and ? wildcards).
func matchFilters(fs []filter, values func(name string) []string) bool {
	for _, f := range fs {
		if !matchAny(f.values, values(f.name)) {
			return false
		}
	}
	return true
}

// matching keeps the items that pass every filter; values answers a filter name for an item.
func matching[T any](items []T, fs []filter, values func(T, string) []string) []T {
	var out []T
	for _, it := range items {
		if matchFilters(fs, func(name string) []string { return values(it, name) }) {
			out = append(out, it)
		}
	}
	return out
}

func matchAny(patterns, vals []string) bool {
	for _, p := range patterns {
		for _, v := range vals {
			if glob(p, v) {
				return true
			}
		}
	}
	return false
}

func glob(pattern, s string) bool {
	if !strings.ContainsAny(pattern, "*?") {
		return pattern == s
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

// tagValues answers tag:KEY and tag-key filters from a tag list.
func tagValues(tags []tag, name string) ([]string, bool) {
	if name == "tag-key" {
		out := make([]string, len(tags))
		for i, t := range tags {
			out[i] = t.Key
		}
		return out, true
	}
	if key, ok := strings.CutPrefix(name, "tag:"); ok {
		for _, t := range tags {
			if t.Key == key {
				return []string{t.Value}, true
			}
		}
		return nil, true
	}
	return nil, false
}

// idPattern matches AWS IDs: prefix- and 17 (or the older 8) hex digits.
var idPattern = func() map[string]*regexp.Regexp {
	m := map[string]*regexp.Regexp{}
	for _, p := range []string{"cbr", "cbe", "cr", "cb", "i", "r", "subnet", "vpc", "ami"} {
		m[p] = regexp.MustCompile("^" + p + "-([0-9a-f]{8}|[0-9a-f]{17})$")
	}
	return m
}()

func wellFormed(prefix, id string) bool { return idPattern[prefix].MatchString(id) }
