// Package screen is what the screens of the terminal UI (ui/screen/blocks, ui/screen/advisor)
// share with the root that routes to them: the Screen interface the root holds each by (its
// Frame, Connection, HeaderPart and HelpEnv), the area a screen is drawn in, the pane frame,
// the line a screen says something in, the dialogs a screen asks the root to open, the
// titled key groups of the help screen, the bell (Ring), the notifications switch
// (ToggleNotify) and the ask for the time (NowMsg). The shared state itself (size, theme,
// clock, notifications switch, identity, backend) is ui/program's Context, of which every
// screen holds the root's pointer; the time a screen shows is the root's, given in its
// Frame and Tick.
package screen

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// The terminal size from which a screen puts its panes side by side (or one above the other
// with both shown); the root's layout uses the same.
const (
	WideWidth  = 120
	WideHeight = 30
)

// Rect is a pane's size in cells.
type Rect struct{ W, H int }

// Area is where a screen is drawn: the body between the root's header and footer, Top the
// terminal row it starts on (the mouse reads rows from there). The zero Area is a terminal
// too small to draw in, or not sized yet.
type Area struct {
	Top, Width, Height int
}

// Flash is what a screen's last Update says on the root's status line: nothing, a text, or
// "take back this text if the line still says it" (an announcement whose work has ended).
type Flash struct {
	text, unsay string
	set         bool
}

// Say is a flash of text.
func Say(text string) Flash { return Flash{text: text, set: true} }

// Unsay takes text off the line if it is still there.
func Unsay(text string) Flash { return Flash{unsay: text} }

// Apply is the status line after the flash, from the line before it.
func (f Flash) Apply(line string) string {
	switch {
	case f.set:
		return f.text
	case f.unsay != "" && line == f.unsay:
		return ""
	}
	return line
}

// The dialogs a screen asks the root to open: the root builds them (they are not the
// screen's), checks what only it knows, and puts them in its dialog slot.
type (
	// OpenLaunch asks for the launch form on a block, with the other reservations its
	// purchase made (Group, the block among them), which the form offers to launch across.
	OpenLaunch struct {
		Block model.Block
		Group []model.Block
	}
	// OpenExtend asks for the extend dialog on a block; Days preselects a length (0: the
	// root's default). Ask, when set, is the auto-extension policy's: the dialog records
	// the person's decision, and the ask never replaces a dialog open, but waits for it to
	// close (the blocks screen's AutoExtendDeferred).
	OpenExtend struct {
		Block model.Block
		Days  int
		Ask   *source.AutoExtendAsk
	}
	// OpenPurchase asks for the purchase confirmation of an offering. FromRows: it was
	// picked from the search screen's rows numbered Rows, which must still be the rows of
	// the search on screen when the dialog opens and while it is open.
	OpenPurchase struct {
		Offering model.Offering
		FromRows bool
		Rows     int64
	}
	// OpenCompare asks for the marked offerings on one chart over the screen; Back and
	// Compare are the asking screen's keys, which close the chart there.
	OpenCompare struct {
		Comparisons   []pricing.Comparison
		Back, Compare key.Binding
	}
	// OpenUse asks for what another tool needs to run in a block or a plan, and in the
	// other reservations its purchase made (Group, the block among them; one per segment
	// of a segmented offering). Scroll is the asking screen's scrolling keys, which scroll
	// the dialog too.
	OpenUse struct {
		Block  model.Block
		Group  []model.Block
		Scroll pager.KeyMap
	}
	// BlockSeen is a block as a dialog just read it from AWS: the screens that show it
	// show it as it now is.
	BlockSeen struct{ Block model.Block }
	// OpenOrder asks for the dialog that places an order for Query (the search form's).
	OpenOrder struct{ Query model.Query }
	// OpenOrders asks for the list of the account's orders.
	OpenOrders struct{}
)

// IsOpen reports whether msg asks for a dialog.
func IsOpen(msg any) bool {
	switch msg.(type) {
	case OpenLaunch, OpenExtend, OpenPurchase, OpenCompare, OpenUse, OpenOrder, OpenOrders:
		return true
	}
	return false
}

// KeyGroup is a titled group of keys on the help screen.
type KeyGroup struct {
	Title string
	Keys  []key.Binding
}

// Box frames content in a pane with its title in the top edge; a focused pane gets a bold or
// coloured border, which still shows without colour.
func Box(th theme.Theme, title, content string, r Rect, focused bool) string {
	if r.W < 2 || r.H < 2 {
		return ""
	}
	bs, ts := th.Border, th.Label
	if focused {
		bs, ts = th.BorderFocused, th.Focused
	}
	if th.Accessible {
		return Unboxed(ts, title, focused, content, r)
	}
	inner := r.W - 2
	title = ansi.Truncate(title, max(0, inner-4), "…")
	top := bs.Render("╭─ ") + ts.Render(title) + bs.Render(" "+strings.Repeat("─", max(0, inner-3-text.Width(title)))+"╮")
	if focused && !th.Color {
		top = bs.Render("┏━ ") + ts.Render(title) + bs.Render(" "+strings.Repeat("━", max(0, inner-3-text.Width(title)))+"┓")
	}
	side, bottom := "│", "╰"+strings.Repeat("─", inner)+"╯"
	if focused && !th.Color {
		side, bottom = "┃", "┗"+strings.Repeat("━", inner)+"┛"
	}
	var b strings.Builder
	b.WriteString(top)
	BoxLines(&b, content, r.H-2, inner, bs.Render(side))
	b.WriteString("\n" + bs.Render(bottom))
	return b.String()
}

// Unboxed is a pane of the accessible mode: its title on a line of its own (with "focused"
// in words), then its content, no frame.
func Unboxed(ts lipgloss.Style, title string, focused bool, content string, r Rect) string {
	if focused {
		title += " (focused)"
	}
	var b strings.Builder
	b.WriteString(ts.Render(ansi.Truncate(title, r.W, "…")))
	BoxLines(&b, content, r.H-1, r.W, "")
	return b.String()
}

// BoxLines writes rows lines of content, each on a new line, cut or padded to inner cells,
// between two sides (a pane's and a dialog's edges).
func BoxLines(b *strings.Builder, content string, rows, inner int, side string) {
	lines := strings.Split(content, "\n")
	for i := range rows {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		w := text.Width(l)
		if w > inner {
			l = ansi.Truncate(l, inner, "…")
			w = text.Width(l)
		}
		b.WriteString("\n" + side + l + strings.Repeat(" ", inner-w) + side)
	}
}

// RegionList names a few regions, or counts many.
func RegionList(rs []string) string {
	switch {
	case len(rs) == 0:
		return "no region"
	case len(rs) <= 2:
		return strings.Join(rs, ", ")
	}
	return fmt.Sprintf("%d regions", len(rs))
}

// Plural is "1 block", "2 blocks".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// SideBySide is lipgloss.JoinHorizontal(lipgloss.Top, left, right), measuring each line
// once with text.Width: left's lines padded to its widest, the shorter block padded with
// blank lines below.
func SideBySide(left, right string) string {
	ll, rl := strings.Split(left, "\n"), strings.Split(right, "\n")
	widths := make([]int, len(ll))
	lw := 0
	for i, l := range ll {
		widths[i] = text.Width(l)
		lw = max(lw, widths[i])
	}
	rw := 0
	for _, l := range rl {
		rw = max(rw, text.Width(l))
	}
	var b strings.Builder
	for i := range max(len(ll), len(rl)) {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(ll) {
			b.WriteString(ll[i])
			b.WriteString(strings.Repeat(" ", lw-widths[i]))
		} else {
			b.WriteString(strings.Repeat(" ", lw))
		}
		if i < len(rl) {
			r := rl[i]
			b.WriteString(r)
			b.WriteString(strings.Repeat(" ", rw-text.Width(r)))
		} else {
			b.WriteString(strings.Repeat(" ", rw))
		}
	}
	return b.String()
}
