package report

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// svgCases are the reports whose SVG the tests check: a non-trivial one, an empty one, and
// one whose user data (tags, ids, names, problems) is hostile markup and bytes XML cannot hold.
func svgCases() map[string]Report {
	in := sample()
	hostileIn := sample()
	bad := hostile + "\x01\x1b[31m\xff"
	hostileIn.Reservations[0].ID = "cr-" + bad
	hostileIn.Reservations[2].Name = bad
	hostileIn.Reservations[2].Use.Why = bad
	hostileIn.Reservations[1].Tags = map[string]string{"team": bad}
	hostileIn.TagKeys = append(hostileIn.TagKeys, bad)
	hostileIn.Problems = append(hostileIn.Problems, bad)
	// many months and reservations, so that labels thin out and the chart grows
	long := sample()
	long.From = at("2024-01-01T00:00:00Z")
	for i := range 30 {
		r := long.Reservations[0]
		r.ID = "cr-many-" + strconv.Itoa(i)
		r.Start = r.Start.AddDate(0, -i, 0)
		r.End = r.End.AddDate(0, -i, 0)
		r.Payments = []Payment{{At: r.Start.Add(-time.Hour), Kind: Purchase, Amount: model.MoneyFromCents(int64(100000 * (i + 1))), Known: true}}
		long.Reservations = append(long.Reservations, r)
	}
	return map[string]Report{
		"sample":  Build(in),
		"empty":   Build(Input{From: at("2026-11-01T00:00:00Z"), To: at("2026-12-01T00:00:00Z")}),
		"hostile": Build(hostileIn),
		"long":    Build(long),
	}
}

func writeSVG(t *testing.T, r Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSVG(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// svgSize checks that doc is well-formed XML whose root is a standalone SVG with a title,
// and returns its width and height.
func svgSize(t *testing.T, doc []byte) (w, h int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	depth, titled := 0, false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v", el.Name)
				}
				attrs := map[string]string{}
				for _, a := range el.Attr {
					attrs[a.Name.Local] = a.Value
				}
				w, _ = strconv.Atoi(attrs["width"])
				h, _ = strconv.Atoi(attrs["height"])
				if w <= 0 || h <= 0 || attrs["viewBox"] != "0 0 "+attrs["width"]+" "+attrs["height"] {
					t.Fatalf("size %q × %q, viewBox %q", attrs["width"], attrs["height"], attrs["viewBox"])
				}
			}
			if depth == 1 && el.Name.Local == "title" {
				titled = true
			}
			for _, a := range el.Attr {
				if a.Name.Local == "href" || strings.HasPrefix(a.Name.Local, "on") {
					t.Errorf("<%s %s=%q>: a standalone SVG links and runs nothing", el.Name.Local, a.Name.Local, a.Value)
				}
			}
			if el.Name.Local == "script" || el.Name.Local == "style" || el.Name.Local == "image" || el.Name.Local == "foreignObject" {
				t.Errorf("<%s> in the SVG", el.Name.Local)
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if !titled {
		t.Error("no <title>")
	}
	return w, h
}

func TestSVGWellFormed(t *testing.T) {
	for name, r := range svgCases() {
		t.Run(name, func(t *testing.T) {
			doc := writeSVG(t, r)
			svgSize(t, doc)
			if name == "hostile" && (bytes.Contains(doc, []byte("<script")) || bytes.Contains(doc, []byte("\x1b")) || !bytes.Contains(doc, []byte("&lt;script&gt;"))) {
				t.Errorf("the hostile text is not escaped:\n%s", doc)
			}
		})
	}
	if doc := writeSVG(t, svgCases()["empty"]); !bytes.Contains(doc, []byte("no reservations in this window")) {
		t.Error("the empty report does not say so")
	}
	doc := string(writeSVG(t, svgCases()["sample"]))
	for _, want := range []string{"use unknown", "plan-x", "2026-11", "1 payment of unknown amount"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

// requireRenderer is set where the test script installed rsvg-convert: the render test
// must run there, not skip.
const requireRenderer = "GPUBLOCK_REQUIRE_SVG_RENDERER"

// The SVG as a real renderer draws it: librsvg's rsvg-convert parses it, draws it at its
// size, and the picture is not blank.
func TestSVGRenders(t *testing.T) {
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		if os.Getenv(requireRenderer) == "1" {
			t.Fatalf("rsvg-convert is not installed, and %s=1 requires it (Debian: apt-get install librsvg2-bin)", requireRenderer)
		}
		t.Skip("rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)")
	}
	for name, r := range svgCases() {
		t.Run(name, func(t *testing.T) {
			doc := writeSVG(t, r)
			w, h := svgSize(t, doc)
			cmd := exec.Command(bin, "-f", "png")
			cmd.Stdin = bytes.NewReader(doc)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("rsvg-convert: %v\n%s", err, errb.String())
			}
			img, err := png.Decode(&out)
			if err != nil {
				t.Fatalf("the PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Errorf("rendered %d × %d, want %d × %d", b.Dx(), b.Dy(), w, h)
			}
			inked, colours := ink(img)
			if share := float64(inked) / float64(w*h); share < 0.005 {
				t.Errorf("only %.2f%% of the picture is drawn on", share*100)
			}
			if name != "empty" && colours < 4 {
				t.Errorf("%d colours: the bars are not drawn", colours)
			}
		})
	}
}

// ink counts the pixels that are not the white background, and the distinct colours.
func ink(img image.Image) (inked, colours int) {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			seen[c] = true
			if c.R < 0xf0 || c.G < 0xf0 || c.B < 0xf0 {
				inked++
			}
		}
	}
	return inked, len(seen)
}
