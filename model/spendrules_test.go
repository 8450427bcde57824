package model

import (
	"strings"
	"testing"
)

// One parser reads tags as people write them: separated by commas, spaces, or both; what
// it cannot read is one error naming the piece and the form.
func TestAddTags(t *testing.T) {
	for _, s := range []string{"team=research project=demo", "team=research,project=demo", " team=research , project=demo ", "team=research,\tproject=demo"} {
		tags := map[string]string{}
		if err := AddTags(tags, s); err != nil || len(tags) != 2 || tags["team"] != "research" || tags["project"] != "demo" {
			t.Errorf("%q: %v %v", s, tags, err)
		}
	}
	for s, want := range map[string]string{
		"project team=research":   `"project": want KEY=VALUE`,
		"team=research demo=":     "", // an empty value is allowed
		"team=a team=b":           "tag team given twice",
		"=x":                      `"=x": want KEY=VALUE`,
		"aws:name=x":              "reserved",
		"team=research, , x=y":    "",
		"team=research project=a": "",
	} {
		err := AddTags(map[string]string{}, s)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", s, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", s, err, want)
		}
	}
	// The command line's --tag "Name=run 1": a value may hold a space.
	tags := map[string]string{}
	if err := AddTags(tags, "Name=run 1 team=ml"); err != nil || tags["Name"] != "run 1" || tags["team"] != "ml" {
		t.Errorf("a value with a space: %v %v", tags, err)
	}
}
