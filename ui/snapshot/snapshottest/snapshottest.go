// Package snapshottest reads the screen's pictures (ui/snapshot) in tests: as XML, and as
// a real renderer draws them.
package snapshottest

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/snapshot"
)

// RequireRenderer is set where the test script installed rsvg-convert: the tests that
// render must run there, not skip (as the report's SVG test has it).
const RequireRenderer = "GPUBLOCK_REQUIRE_SVG_RENDERER"

// Lines reads an SVG as XML and returns each <text>'s text, its <tspan>s joined: a line of
// the screen, as a parser sees it.
func Lines(t testing.TB, doc []byte) []string {
	t.Helper()
	var svg struct {
		XMLName xml.Name `xml:"svg"`
		Width   string   `xml:"width,attr"`
		G       struct {
			Texts []struct {
				Spans []struct {
					Fill string `xml:"fill,attr"`
					Text string `xml:",chardata"`
				} `xml:"tspan"`
			} `xml:"text"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(doc, &svg); err != nil {
		t.Fatalf("the SVG does not parse as XML: %v", err)
	}
	var out []string
	for _, tx := range svg.G.Texts {
		var b strings.Builder
		for _, s := range tx.Spans {
			b.WriteString(s.Text)
		}
		out = append(out, b.String())
	}
	return out
}

// Render draws doc with rsvg-convert and returns the PNG; it skips without the renderer,
// unless RequireRenderer=1.
func Render(t testing.TB, doc []byte) []byte {
	t.Helper()
	bin, err := exec.LookPath(snapshot.Renderer)
	if err != nil {
		if os.Getenv(RequireRenderer) == "1" {
			t.Fatalf("rsvg-convert is not installed, and %s=1 requires it (Debian: apt-get install librsvg2-bin)", RequireRenderer)
		}
		t.Skip("rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)")
	}
	cmd := exec.Command(bin, "-f", "png")
	cmd.Stdin = bytes.NewReader(doc)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, errb.String())
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("\x89PNG")) {
		t.Fatal("rsvg-convert wrote no PNG")
	}
	return out.Bytes()
}
