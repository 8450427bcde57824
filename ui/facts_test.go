package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/program"
)

// rowsInOrder reports the first of facts that lines do not show as "label  value", in
// order, or "".
func rowsInOrder(lines []string, facts []model.Fact) string {
	text := ansi.Strip(strings.Join(lines, "\n"))
	at := 0
	for _, f := range facts {
		i := strings.Index(text[at:], f.Label)
		if i < 0 {
			return f.Label
		}
		rest := strings.TrimLeft(text[at+i+len(f.Label):], " ")
		if !strings.HasPrefix(rest, f.Value) {
			return f.Label + "  " + f.Value
		}
		at = len(text) - len(rest) + len(f.Value)
	}
	return ""
}

// The dialogs show model's facts, each on its labelled row, in order, in the words the
// commands print, and end in what cannot be undone.
func TestDialogsShowTheFactsInOrder(t *testing.T) {
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 300, Height: 80})
	env := base.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	o := fixedOffering()
	pd, _ := purchase.New(env, o)
	pf := model.PurchaseFacts(o, "123456789012", pd.Comparison().BreakEven(), env.Location)
	if miss := rowsInOrder(pd.Lines(290), pf.Lines); miss != "" {
		t.Errorf("the purchase dialog lacks %q:\n%s", miss, ansi.Strip(strings.Join(pd.Lines(290), "\n")))
	}
	if !strings.Contains(ansi.Strip(strings.Join(pd.Lines(290), " ")), pf.Final) {
		t.Errorf("the purchase dialog does not say %q", pf.Final)
	}

	_, ed := extendConfirmDialog(t)
	*ed.Env() = env
	ef := model.ExtensionFacts(ed.Block(), ed.Offering(), "123456789012", ed.Comparison().BreakEven(), env.Location)
	if miss := rowsInOrder(ed.Lines(290), ef.Lines); miss != "" {
		t.Errorf("the extend dialog lacks %q:\n%s", miss, ansi.Strip(strings.Join(ed.Lines(290), "\n")))
	}
	if !strings.Contains(ansi.Strip(strings.Join(ed.Lines(290), " ")), ef.Final) {
		t.Errorf("the extend dialog does not say %q", ef.Final)
	}

	b := fixedBlock(model.StateActive)
	ld, _ := launch.New(env, b)
	lf := model.LaunchFacts(b, "123456789012", "", ld.Free(), env.Location)
	if miss := rowsInOrder(ld.Lines(290), lf.Lines); miss != "" {
		t.Errorf("the launch dialog lacks %q:\n%s", miss, ansi.Strip(strings.Join(ld.Lines(290), "\n")))
	}
}
