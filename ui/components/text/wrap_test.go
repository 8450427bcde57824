package text

import (
	"reflect"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"", 20, []string{""}},
		{"one two three", 20, []string{"one two three"}},
		{"one two three", 8, []string{"one two", "three"}},
		{"one  two\nthree", 20, []string{"one two three"}},                // any white space is one space
		{"a b c d e f g h i j", 3, []string{"a b c d", "e f g h", "i j"}}, // width at least 8
		{"tiny averyveryverylongword end", 10, []string{"tiny", "averyveryverylongword", "end"}},
		{"×××× ×××× ××", 9, []string{"×××× ××××", "××"}}, // cells, not bytes
	} {
		if got := Wrap(tc.s, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestWrapParagraphs(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"", 20, []string{""}},
		{"one two\nthree", 20, []string{"one two", "three"}},
		{"first line here\n\nsecond", 10, []string{"first line", "here", "", "second"}},
		{"one two\n", 20, []string{"one two", ""}},
	} {
		if got := WrapParagraphs(tc.s, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("WrapParagraphs(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
