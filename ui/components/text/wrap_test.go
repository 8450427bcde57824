package text

import (
	"reflect"
	"testing"
)

// Wrap makes one paragraph of the text; WrapParagraphs keeps its lines apart.
func TestWrap(t *testing.T) {
	type wrapCase struct {
		s     string
		width int
		want  []string
	}
	for _, fn := range []struct {
		name  string
		wrap  func(string, int) []string
		cases []wrapCase
	}{
		{"Wrap", Wrap, []wrapCase{
			{"", 20, []string{""}},
			{"one two three", 20, []string{"one two three"}},
			{"one two three", 8, []string{"one two", "three"}},
			{"one  two\nthree", 20, []string{"one two three"}},                // any white space is one space
			{"a b c d e f g h i j", 3, []string{"a b c d", "e f g h", "i j"}}, // width at least 8
			{"tiny averyveryverylongword end", 10, []string{"tiny", "averyveryverylongword", "end"}},
			{"×××× ×××× ××", 9, []string{"×××× ××××", "××"}}, // cells, not bytes
		}},
		{"WrapParagraphs", WrapParagraphs, []wrapCase{
			{"", 20, []string{""}},
			{"one two\nthree", 20, []string{"one two", "three"}},
			{"first line here\n\nsecond", 10, []string{"first line", "here", "", "second"}},
			{"one two\n", 20, []string{"one two", ""}},
		}},
	} {
		for _, tc := range fn.cases {
			if got := fn.wrap(tc.s, tc.width); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s(%q, %d) = %q, want %q", fn.name, tc.s, tc.width, got, tc.want)
			}
		}
	}
}
