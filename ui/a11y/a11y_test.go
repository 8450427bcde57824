package a11y

import (
	"strings"
	"testing"
)

func TestPlainDropsDrawing(t *testing.T) {
	in := "╭─ Offerings ─╮\n│\x1b[1m47%\x1b[0m ████░░ ⠋ ▲ ✓│\n╰──────────────╯"
	out := Plain(in)
	if strings.ContainsFunc(out, IsGraphic) {
		t.Errorf("drawing characters left: %q", out)
	}
	for _, keep := range []string{"Offerings", "\x1b[1m47%\x1b[0m", "▲ ✓"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q lost %q", out, keep)
		}
	}
	if len([]rune(out)) != len([]rune(in)) {
		t.Errorf("the columns moved: %d runes, was %d", len([]rune(out)), len([]rune(in)))
	}
}

func TestRowSentence(t *testing.T) {
	got := RowSentence("row", 3, 9, []Field{{"instance type", "p5.48xlarge"}, {"zone", "us-east-1c"}, {"rate", ""},
		{"upfront fee", "  $2,036.20"}, {"break-even", "78% █████░░"}})
	want := "row 3 of 9: instance type p5.48xlarge, zone us-east-1c, upfront fee $2,036.20, break-even 78%"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestFromEnv(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "yes": true} {
		if FromEnv(v) != want {
			t.Errorf("ACCESSIBLE=%q: %v, want %v", v, !want, want)
		}
	}
}

func TestProgress(t *testing.T) {
	if got := Progress(3, 8, "calls"); got != "3 of 8 calls done, 37%" {
		t.Errorf("got %q", got)
	}
}
