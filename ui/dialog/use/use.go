// Package use is the dialog that hands a reservation to another tool: the file Karpenter,
// SkyPilot, dstack, ParallelCluster, an EKS node group, HyperPod or SageMaker takes to run
// in it (model/handoff, the same file `gpublock use` prints), to copy or to save.
package use

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/handoff"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// KeyMap is the dialog's keys: the tool, what to do with its file, and the scrolling of it.
type KeyMap struct {
	Next, Prev, Copy, Save, Back key.Binding
	Scroll                       pager.KeyMap
}

// DefaultKeyMap is the dialog's keys; scroll are the tables' moving keys.
func DefaultKeyMap(scroll pager.KeyMap) KeyMap {
	return KeyMap{
		Next:   key.NewBinding(key.WithKeys("right", "l", "tab"), key.WithHelp("→", "next tool")),
		Prev:   key.NewBinding(key.WithKeys("left", "h", "shift+tab"), key.WithHelp("←", "previous tool")),
		Copy:   key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y", "copy the file")),
		Save:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "save it here")),
		Back:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
		Scroll: scroll,
	}
}

func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Copy, k.Save, k.Scroll.Line, k.Back}
}
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.ShortHelp(), {k.Scroll.Page, k.Scroll.Half, k.Scroll.Ends}}
}

// Model is one reservation, the tools that can take it, and the file of the one chosen.
type Model struct {
	th     theme.Theme
	keys   KeyMap
	block  model.Block
	group  []model.Block // every reservation of the block's purchase, the block among them
	tools  []handoff.Tool
	i      int
	file   handoff.File
	err    error
	scroll pager.Scroll
	note   string      // what the last copy or save did
	size   screen.Rect // the body it is drawn in, to scroll within the file
	id     int64
}

// New is the dialog on b, drawn in a body of size, showing the first tool that takes its
// source.
func New(th theme.Theme, b model.Block, size screen.Rect, keys KeyMap) Model {
	return NewGroup(th, b, nil, size, keys)
}

// NewGroup is New on b and the other reservations its purchase made (model.Group, b among
// them): the file names every one of them.
func NewGroup(th theme.Theme, b model.Block, group []model.Block, size screen.Rect, keys KeyMap) Model {
	if len(group) == 0 {
		group = []model.Block{b}
	}
	d := Model{th: th, keys: keys, block: b, group: group, tools: handoff.ToolsFor(b.Source), size: size, id: dialog.NextSeq()}
	return d.render()
}

func (d Model) render() Model {
	d.file, d.err = handoff.File{}, nil
	if len(d.tools) == 0 {
		d.err = fmt.Errorf("no tool takes a %s", d.block.Source.Title())
		return d
	}
	d.file, d.err = handoff.RenderGroup(d.tools[d.i], d.group)
	return d
}

// savedMsg is the answer of a save, for the dialog numbered id.
type savedMsg struct {
	id   int64
	path string
	err  error
}

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		d.size = screen.Rect(msg)
		return d, nil, false
	case savedMsg:
		if msg.id == d.id {
			d.note = "Saved " + msg.path + "."
			if msg.err != nil {
				d.note = "Not saved: " + msg.err.Error()
			}
		}
		return d, nil, false
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil, false
}

func (d Model) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	n := len(d.tools)
	switch {
	case key.Matches(k, d.keys.Back):
		return d, nil, true
	case key.Matches(k, d.keys.Next) && n > 0:
		d.i, d.note = (d.i+1)%n, ""
		return d.render(), nil, false
	case key.Matches(k, d.keys.Prev) && n > 0:
		d.i, d.note = (d.i+n-1)%n, ""
		return d.render(), nil, false
	case d.err != nil:
		return d, nil, false
	case key.Matches(k, d.keys.Copy):
		d.note = "Copied " + d.file.Name + " to the clipboard (OSC 52)."
		return d, tea.SetClipboard(d.file.Content), false
	case key.Matches(k, d.keys.Save):
		d.note = "Saving " + d.file.Name + "…"
		return d, save(d.id, d.file), false
	}
	if s, used := d.scroll.Update(k, d.keys.Scroll.Nav, d.page(d.size.W, d.size.H)); used {
		d.scroll = s
	}
	return d, nil, false
}

// save writes the file under its own name in the working directory, never over a file
// that is there: a manifest someone edited is worth more than this one.
func save(id int64, f handoff.File) tea.Cmd {
	return func() tea.Msg {
		path := f.Name
		w, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return savedMsg{id: id, path: path, err: fmt.Errorf("%s is already there; it was left as it is", path)}
		}
		if err == nil {
			_, err = w.WriteString(f.Content)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		if wd, werr := os.Getwd(); werr == nil {
			path = wd + string(os.PathSeparator) + f.Name
		}
		return savedMsg{id: id, path: path, err: err}
	}
}

// header is the tools, the chosen one marked, and what the last copy or save did.
func (d Model) header(w int) []string {
	var tabs []string
	for i, t := range d.tools {
		if i == d.i {
			tabs = append(tabs, d.th.Selected.Render(" "+string(t)+" "))
		} else {
			tabs = append(tabs, " "+string(t)+" ")
		}
	}
	out := []string{ansi.Truncate(strings.Join(tabs, " "), w, "…")}
	if d.note != "" {
		out = append(out, styled(d.th.Accent.Render, text.Wrap(d.note, w))...)
	}
	return out
}

// page is what scrolls in a body of w×h: the file's note, then the file itself.
func (d Model) page(w, h int) pager.Page {
	cw, ch := max(1, w-2), max(1, h-2-len(d.header(max(1, w-2))))
	var lines []string
	if d.err != nil {
		lines = styled(d.th.Error.Render, text.Wrap(d.err.Error(), cw))
	} else {
		for _, l := range strings.Split(strings.TrimSpace(d.file.Note), "\n") {
			lines = append(lines, styled(d.th.Muted.Render, text.Wrap(l, cw))...)
		}
		lines = append(lines, styled(d.th.Muted.Render, text.Wrap("Follows "+d.file.Doc, cw))...)
		lines = append(lines, pager.Spacer)
		for _, l := range strings.Split(strings.TrimRight(d.file.Content, "\n"), "\n") {
			lines = append(lines, ansi.Truncate(l, cw, "…"))
		}
	}
	id := ""
	if len(d.tools) > 0 {
		id = string(d.tools[d.i])
	}
	return pager.New(d.th, id, lines, cw, ch)
}

func (d Model) View(width, height int) string {
	title := fmt.Sprintf("Use %s with…", d.block.ReservationID)
	if d.err == nil && d.file.Name != "" {
		title = fmt.Sprintf("Use %s with %s · %s", d.block.ReservationID, d.tools[d.i], d.file.Name)
	}
	cw := max(1, width-2)
	body := append(d.header(cw), d.page(width, height).View(d.scroll, true))
	return screen.Box(d.th, title, strings.Join(body, "\n"), screen.Rect{W: width, H: height}, true)
}

// Footer names the dialog's keys.
func (d Model) Footer() string {
	return "←/→ tool • y copy • w save here • j/k scroll • esc back"
}

// styled is each line drawn by render, after wrapping: a style wrapped across lines would
// end on the first.
func styled(render func(...string) string, lines []string) []string {
	for i, l := range lines {
		lines[i] = render(l)
	}
	return lines
}
