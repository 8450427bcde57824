package theme

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func rgb(c color.Color) [3]uint32 {
	r, g, b, _ := c.RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

// Auto starts dark and follows the terminal's background, in every copy of the theme.
func TestAutoFollowsTheBackground(t *testing.T) {
	th := NewMode(true, Auto)
	held := th // a component's copy, made before the terminal answers
	if !th.Dark() || rgb(held.Value.GetForeground()) != rgb(BodyText(Dark)) {
		t.Fatalf("before any answer: dark=%v, body text %v; want the dark palette", th.Dark(), rgb(held.Value.GetForeground()))
	}
	th.SetDarkBackground(false)
	if th.Dark() || rgb(held.Value.GetForeground()) != rgb(BodyText(Light)) || rgb(held.Header.GetForeground()) != rgb(BodyText(Light)) {
		t.Errorf("on a light background: dark=%v, body text %v; want %v", th.Dark(), rgb(held.Value.GetForeground()), rgb(BodyText(Light)))
	}
	if out := held.Value.Render("x"); !strings.Contains(out, "38;2;31;35;40") {
		t.Errorf("light body text renders as %q, want #1F2328", out)
	}
	th.SetDarkBackground(true)
	if out := held.Value.Render("x"); !th.Dark() || !strings.Contains(out, "38;2;230;237;243") {
		t.Errorf("back on a dark background the body text renders as %q, want #E6EDF3", out)
	}
}

// A mode the user chose stays, whatever the terminal says.
func TestChosenModeStays(t *testing.T) {
	for _, m := range []Mode{Light, Dark} {
		th := NewMode(true, m)
		for _, bgDark := range []bool{true, false} {
			th.SetDarkBackground(bgDark)
			if th.Dark() != (m == Dark) || rgb(th.Value.GetForeground()) != rgb(BodyText(m)) {
				t.Errorf("%s on a background dark=%v: dark=%v, body text %v", m, bgDark, th.Dark(), rgb(th.Value.GetForeground()))
			}
		}
	}
	if rgb(BodyText(Light)) == rgb(BodyText(Dark)) {
		t.Error("the light and dark palettes share their body text colour")
	}
}

func TestSetAndParse(t *testing.T) {
	t.Cleanup(func() { Set("auto") })
	for _, name := range []string{"light", "dark", "auto"} {
		if err := Set(name); err != nil || Preference().String() != name || New(true).Mode().String() != name {
			t.Errorf("Set(%q): %v; preference %s, a new theme's mode %s", name, err, Preference(), New(true).Mode())
		}
	}
	Set("light")
	if err := Set("blue"); err == nil || !strings.Contains(err.Error(), Modes) || Preference() != Light {
		t.Errorf("Set(blue): %v, preference %s; want an error naming %s and the preference kept", err, Preference(), Modes)
	}
	if New(true).Dark() {
		t.Error("after Set(light) a new theme draws dark")
	}
}

// Without colour nothing changes with the background, and nothing has a colour.
func TestNoColourIgnoresTheBackground(t *testing.T) {
	th := NewMode(false, Auto)
	th.SetDarkBackground(false)
	for _, st := range []lipgloss.Style{th.Value, th.Header, th.Muted, th.Error, th.Warning, th.OK, th.Accent, th.Border} {
		if _, ok := st.GetForeground().(lipgloss.NoColor); !ok {
			t.Errorf("a no-colour style has the foreground %v", st.GetForeground())
		}
	}
}

// luminance is WCAG 2's relative luminance.
func luminance(c color.Color) float64 {
	ch := func(v uint32) float64 {
		s := float64(v>>8) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	r, g, b, _ := c.RGBA()
	return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
}

func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// Every text colour of the light palette reads on a white terminal (WCAG AA, 4.5:1), and
// the body text of each palette on its own kind of background.
func TestPalettesAreReadable(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	th := NewMode(true, Light)
	styles := map[string]lipgloss.Style{"Header": th.Header, "Muted": th.Muted, "Label": th.Label, "Focused": th.Focused, "Value": th.Value,
		"Error": th.Error, "Warning": th.Warning, "OK": th.OK, "Accent": th.Accent, "Code": th.Code, "HelpDesc": th.HelpDesc, "TableHeader": th.TableHeader}
	for name, st := range styles {
		if c := contrast(st.GetForeground(), white); c < 4.5 {
			t.Errorf("light %s: contrast %.2f on white, want at least 4.5", name, c)
		}
	}
	if c := contrast(BodyText(Dark), black); c < 7 {
		t.Errorf("dark body text: contrast %.2f on black", c)
	}
	// The hard-coded dark text of before is what cannot be read on white.
	if c := contrast(BodyText(Dark), white); c >= 4.5 {
		t.Errorf("the dark body text reads on white (%.2f); the test above proves nothing", c)
	}
	// The badges and the selected row carry their own background in both palettes.
	for _, st := range []lipgloss.Style{th.Simulated, th.Live, th.Selected} {
		if c := contrast(st.GetForeground(), st.GetBackground()); c < 4.5 {
			t.Errorf("a badge or the selected row: contrast %.2f", c)
		}
	}
}
