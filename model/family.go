package model

import (
	"slices"
	"strings"
)

// Family is the instance family of a Capacity Block type, as AWS's per-family quotas
// name it: trn2 for trn2.48xlarge, p5en for p5en.48xlarge, and the member family for an
// UltraServer (p6e-gb200 for u-p6e-gb200x72). "" for a type the catalog does not have.
func Family(instanceType string) string {
	t, ok := LookupType(instanceType)
	if !ok {
		return ""
	}
	name := t.Name
	if t.UltraServer {
		name = t.MemberType
	}
	f, _, _ := strings.Cut(name, ".")
	return f
}

// Families are the instance families of the catalog, in its order, each once.
func Families() []string {
	var out []string
	for _, t := range catalog {
		if f := Family(t.Name); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
