package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/trainingplans"
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

// Buying a training plan: the confirmation says what a block's says, with the target, each
// part and that there is no dry run; the typed word buys exactly one plan; the receipt
// follows it from Pending to Scheduled on the emulator's clock.
func TestPlanPurchaseFlow(t *testing.T) {
	for _, size := range []struct{ w, h int }{{160, 48}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			b, sim := emulatorBackend(t, ec2sim.Faults{})
			tp := trainingplans.New(clientOf(t, b))
			s := newScreen(t, New(actionTestOptions(b)), size.w, size.h)
			s.waitText("123456789012")
			choosePlans(s, 1)
			s.waitText("‹ Training Plans ›")
			s.press("enter")
			if foundCount(t, s) == 0 {
				t.Fatal("the plan search found nothing")
			}
			s.press("g", "enter")
			text := s.waitText("no dry run for")
			flat := strings.Join(strings.Fields(strings.NewReplacer("┆", " ", "│", " ", "╎", " ").Replace(text)), " ")
			mustContain(t, flat, "Buy a Training Plan", "123456789012", "training job", "Part 1", "UPFRONT FEE",
				"cannot be cancelled or modified", "there is no dry run for training plans", "Type buy")
			if strings.Contains(flat, "✓ allowed") || strings.Contains(flat, "Platform") {
				t.Errorf("a plan's dialog speaks of a dry run's answer or a platform:\n%s", text)
			}
			golden.RequireEqual(t, []byte(text))
			if plans, err := tp.Plans(context.Background(), model.Regions()); err != nil || len(plans) != 0 {
				t.Fatalf("before the typed word: %d plans (%v)", len(plans), err)
			}
			s.typeText("buy")
			s.press("enter")
			s.waitText("BOUGHT: the training plan is yours.")
			s.waitText("Pending")
			sim.Advance(2 * time.Hour)
			s.waitText("Scheduled · starts in")
			s.final()
			plans, err := tp.Plans(context.Background(), model.Regions())
			if err != nil || len(plans) != 1 {
				t.Fatalf("after buying: %d plans (%v), want exactly one", len(plans), err)
			}
			if p := plans[0]; !strings.HasPrefix(p.Name, "gpb-") || p.Status != trainingplans.StatusScheduled {
				t.Errorf("the plan bought: %s %s, want a gpb- name, Scheduled", p.Name, p.Status)
			}
		})
	}
}
