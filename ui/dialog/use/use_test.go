package use

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/handoff"
	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

var body = screen.Rect{W: 120, H: 40}

func block() model.Block {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1",
		AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 2, State: model.StateScheduled,
		Start: start, End: start.Add(48 * time.Hour)}
}

func keys() KeyMap { return DefaultKeyMap(pager.NewKeyMap(blockstable.DefaultKeyMap().Nav())) }

func press(d dialog.Dialog, k string) (dialog.Dialog, tea.Cmd, bool) { return d.Update(uitest.Key(k)) }

func view(d dialog.Dialog) string { return ansi.Strip(d.View(body.W, body.H)) }

// The dialog shows the first tool's file for the block, moves between the tools that take
// a Capacity Block, and shows the same file `gpublock use` prints.
func TestShowsEachToolsFile(t *testing.T) {
	var d dialog.Dialog = New(theme.New(false), block(), body, keys())
	want, err := handoff.Render(handoff.Karpenter, block())
	if err != nil {
		t.Fatal(err)
	}
	v := view(d)
	if !strings.Contains(v, "karpenter.yaml") || !strings.Contains(v, "capacityReservationSelectorTerms") || !strings.Contains(v, "cr-0123456789abcdef0") {
		t.Fatalf("the first tool is not Karpenter's file for the block:\n%s", v)
	}
	for _, l := range strings.Split(strings.TrimSpace(want.Content), "\n")[:5] {
		if !strings.Contains(v, strings.TrimSpace(l)) {
			t.Errorf("the dialog lacks the file's line %q", l)
		}
	}
	seen := map[string]bool{}
	for range handoff.ToolsFor(model.SourceCapacityBlock) {
		seen[d.(Model).file.Name] = true
		d, _, _ = press(d, "right")
	}
	if len(seen) != 5 || d.(Model).file.Name != "karpenter.yaml" {
		t.Errorf("→ went through %v and came back to %s; want the five EC2 tools, then Karpenter", seen, d.(Model).file.Name)
	}
	d, _, _ = press(d, "left")
	if got := d.(Model).tools[d.(Model).i]; got != handoff.EKS {
		t.Errorf("← from the first tool is %s, want the last (eks)", got)
	}
	if _, _, closed := press(d, "esc"); !closed {
		t.Error("esc did not close the dialog")
	}
}

// y copies the file; w saves it under its name here and never over a file that is there.
func TestCopyAndSave(t *testing.T) {
	t.Chdir(t.TempDir())
	var d dialog.Dialog = New(theme.New(false), block(), body, keys())
	d, cmd, _ := press(d, "y")
	if cmd == nil || !strings.Contains(view(d), "Copied karpenter.yaml") {
		t.Fatalf("y: command %v\n%s", cmd != nil, view(d))
	}
	d, cmd, _ = press(d, "w")
	if cmd == nil {
		t.Fatal("w gave no command")
	}
	d, _, _ = d.Update(cmd())
	got, err := os.ReadFile("karpenter.yaml")
	if err != nil || string(got) != d.(Model).file.Content || !strings.Contains(view(d), "Saved ") {
		t.Fatalf("saved %q, %v\n%s", got, err, view(d))
	}
	if err := os.WriteFile("karpenter.yaml", []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, cmd, _ = press(d, "w")
	d, _, _ = d.Update(cmd())
	if got, _ := os.ReadFile(filepath.Join(".", "karpenter.yaml")); string(got) != "edited" || !strings.Contains(view(d), "already there") {
		t.Errorf("a second save wrote over the file (%q) or did not say so:\n%s", got, view(d))
	}
}

// A training plan is offered to the SageMaker tools only.
func TestAPlanGoesToSageMaker(t *testing.T) {
	p := block()
	p.Source, p.ReservationID, p.InstanceType = model.SourceTrainingPlan, "my-plan", "ml.p5.48xlarge"
	p.ARN, p.Targets = "arn:aws:sagemaker:us-east-1:123456789012:training-plan/my-plan", []string{"training-job", "hyperpod-cluster"}
	var d dialog.Dialog = New(theme.New(false), p, body, keys())
	if tools := d.(Model).tools; len(tools) != 2 || tools[0] != handoff.HyperPod || tools[1] != handoff.SageMaker {
		t.Fatalf("tools for a plan: %v", tools)
	}
	if v := view(d); !strings.Contains(v, p.ARN) {
		t.Errorf("the plan's file does not carry its ARN:\n%s", v)
	}
}

// Every size from tiny to huge draws within the body and never panics.
func TestFitsEverySize(t *testing.T) {
	var d dialog.Dialog = New(theme.New(false), block(), body, keys())
	for _, sz := range uitest.Sizes() {
		d, _, _ = d.Update(dialog.SizeMsg{W: sz[0], H: sz[1]})
		d, _, _ = press(d, "G")
		uitest.CheckFits(t, "use", d.View(sz[0], sz[1]), sz[0], sz[1])
	}
}
