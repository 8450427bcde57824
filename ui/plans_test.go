package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// choosePlans moves the form to its source field and chooses Training Plans (n=1) or both
// (n=2), with every region that sells the type.
func choosePlans(s *screen, n int) {
	s.press("tab", "tab", "tab", "tab", "tab", "a", "tab")
	for range n {
		s.press("right")
	}
}

// A search of training plans alone, against the emulator's SageMaker: the rows are plans,
// the Source column says so, and the detail shows the parts with their honest hours.
func TestPlanSearchFlow(t *testing.T) {
	for _, size := range []struct{ w, h int }{{160, 48}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			b, _ := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, New(testOptions(b)), size.w, size.h)
			s.waitText("123456789012")
			choosePlans(s, 1)
			s.waitText("‹ Training Plans ›")
			s.press("enter")
			found := foundCount(t, s)
			if found == 0 {
				t.Fatal("the plan search found nothing; the flow needs offerings")
			}
			s.press("g", "d")
			s.waitText("Part 1")
			m := s.final()
			sel, ok := m.table.Selected()
			if !ok {
				t.Fatal("no row selected")
			}
			for i := range m.table.Len() {
				if o := m.table.Row(i); o.Source != model.SourceTrainingPlan || !strings.HasPrefix(o.InstanceType, "ml.") {
					t.Errorf("row %d is a %s of %s, in a search of training plans alone", i, o.Source.Label(), o.InstanceType)
				}
			}
			view := s.emu.String()
			hours := model.PartsHours(sel.Parts)
			wants := []string{sel.ID[:40], fmt.Sprintf("%d hours reserved", hours)}
			if size.w == 160 {
				wants = append(wants, "aws sagemaker search-training-plan-offerings")
			}
			for _, want := range wants {
				if !strings.Contains(view, want) {
					t.Errorf("the detail lacks %q:\n%s", want, view)
				}
			}
			if size.w == 160 && !strings.Contains(view, "Plan ") {
				t.Errorf("the table has no Source column saying Plan:\n%s", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}
