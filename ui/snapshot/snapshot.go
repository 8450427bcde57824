// Package snapshot writes what the terminal UI shows as a picture for slides: a standalone
// SVG of the frame's text grid in a monospace font, each cell in the colours and weight its
// style gave it, and a PNG beside it where librsvg's rsvg-convert is installed. The frame is
// read cell by cell through a terminal emulator (charmbracelet/x/vt), as a terminal would
// draw it.
package snapshot

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/gpublock/gpublock/ui/internal/newfile"
)

// The grid's geometry in SVG user units: a cell of a 14-unit monospace font.
const (
	fontSize = 14
	cellW    = 8.4
	cellH    = 18
	pad      = 12
)

// Palette is the terminal's default colours, for cells that set none.
type Palette struct{ Fg, Bg color.Color }

// Dark and Light are the defaults of a dark and a light terminal.
var (
	Dark  = Palette{Fg: color.RGBA{0xdd, 0xdd, 0xdd, 0xff}, Bg: color.RGBA{0x1c, 0x1c, 0x24, 0xff}}
	Light = Palette{Fg: color.RGBA{0x22, 0x22, 0x22, 0xff}, Bg: color.RGBA{0xfd, 0xfd, 0xfd, 0xff}}
)

// SVG draws frame, w×h cells of text with SGR styles (a View's content), as an SVG
// document. Each line is one <text> of <tspan>s, a run of cells of one style each, so
// that a line's text is its cells' in order.
func SVG(frame string, w, h int, p Palette) []byte {
	emu := vt.NewEmulator(w, h)
	defer emu.Close()
	// Lines end in LF alone: LNM makes each start at the left edge.
	emu.Write([]byte("\x1b[20h" + strings.ReplaceAll(frame, "\r\n", "\n")))

	W, H := float64(w)*cellW+2*pad, float64(h*cellH+2*pad)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="%s"/>`+"\n", hex(p.Bg))
	fmt.Fprintf(&b, `<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="%d">`+"\n", fontSize)
	for y := range h {
		// Backgrounds first, in runs, so that the text is drawn over them.
		for x := 0; x < w; {
			bg := cellAt(emu, x, y, p).bg
			n := 1
			for x+n < w {
				if hex(cellAt(emu, x+n, y, p).bg) != hex(bg) {
					break
				}
				n++
			}
			if hex(bg) != hex(p.Bg) {
				fmt.Fprintf(&b, `<rect x="%g" y="%d" width="%g" height="%d" fill="%s"/>`+"\n",
					pad+float64(x)*cellW, pad+y*cellH, float64(n)*cellW, cellH, hex(bg))
			}
			x += n
		}
		line, ok := textLine(emu, y, w, p)
		if ok {
			fmt.Fprintf(&b, `<text y="%g" xml:space="preserve">%s</text>`+"\n", float64(pad+y*cellH)+cellH*0.75, line)
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes()
}

// textLine is row y's <tspan>s, each placed at its first cell; ok false for a blank row.
func textLine(emu *vt.Emulator, y, w int, p Palette) (string, bool) {
	var b strings.Builder
	any := false
	for x := 0; x < w; {
		first := cellAt(emu, x, y, p)
		fg, bold := first.fg, first.bold
		var run strings.Builder
		n := 0
		for x+n < w {
			c := cellAt(emu, x+n, y, p)
			if hex(c.fg) != hex(fg) || c.bold != bold {
				break
			}
			n++
			if !c.wide2 {
				run.WriteString(c.content)
			}
		}
		text := run.String()
		if strings.TrimSpace(text) != "" {
			any = true
			weight := ""
			if bold {
				weight = ` font-weight="bold"`
			}
			fmt.Fprintf(&b, `<tspan x="%g" fill="%s"%s>%s</tspan>`, pad+float64(x)*cellW, hex(fg), weight, escape(text))
		}
		x += max(1, n)
	}
	return b.String(), any
}

// cell is what a picture needs of an emulator's cell.
type cell struct {
	content string
	wide2   bool // the second half of a wide character
	fg, bg  color.Color
	bold    bool
}

// The emulator's attribute bits (charmbracelet/ultraviolet's AttrBold … AttrReverse, in
// its order); the package's test fails should they move.
const (
	attrBold    = 1 << 0
	attrReverse = 1 << 5
)

// cellAt is the emulator's cell at x, y: its text, and its colours as drawn (reverse swaps
// them, a colour not set is the palette's).
func cellAt(emu *vt.Emulator, x, y int, p Palette) cell {
	out := cell{content: " ", fg: p.Fg, bg: p.Bg}
	c := emu.CellAt(x, y)
	if c == nil {
		return out
	}
	if c.Content != "" {
		out.content = c.Content
	}
	out.wide2 = c.Width == 0 && c.Content == ""
	if c.Style.Fg != nil {
		out.fg = c.Style.Fg
	}
	if c.Style.Bg != nil {
		out.bg = c.Style.Bg
	}
	if c.Style.Attrs&attrReverse != 0 {
		out.fg, out.bg = out.bg, out.fg
	}
	out.bold = c.Style.Attrs&attrBold != 0
	return out
}

func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// escape makes text safe as XML character data; characters XML 1.0 forbids become spaces.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r < 0x20 || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Saved is where a picture went: the SVG, and the PNG when one was drawn; PNGErr says why
// not when rsvg-convert was there and failed.
type Saved struct {
	SVG, PNG string
	PNGErr   error
}

// Renderer is the program that draws the PNG, looked up on PATH.
const Renderer = "rsvg-convert"

// Save writes svg into dir as newfile.Name(what, at).svg, never over a file (a name taken,
// as an SVG or a PNG, gets "-2", "-3"…); then a PNG of the same name where Renderer is
// installed.
func Save(ctx context.Context, dir, what string, at time.Time, svg []byte) (Saved, error) {
	name, err := newfile.Write(dir, what, at, ".svg", []string{".png"}, func(w io.Writer) error {
		_, err := w.Write(svg)
		return err
	})
	if err != nil {
		return Saved{}, err
	}
	s := Saved{SVG: name}
	s.PNG, s.PNGErr = png(ctx, name, strings.TrimSuffix(name, ".svg")+".png")
	return s, nil
}

// png draws the SVG as a PNG with Renderer, if installed; the name is claimed first, so
// that no file is written over.
func png(ctx context.Context, svg, out string) (string, error) {
	bin, err := exec.LookPath(Renderer)
	if err != nil {
		return "", nil // no renderer: the SVG alone
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	f.Close()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var errb bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--format", "png", "--output", out, svg)
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		os.Remove(out)
		return "", fmt.Errorf("%s: %v %s", Renderer, err, strings.TrimSpace(errb.String()))
	}
	return out, nil
}
