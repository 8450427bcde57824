package flows

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
)

// A tag that cannot be sent is said under the field as it is typed: before, nothing showed
// until buy and enter.
func TestPurchaseTagErrorShownAsTyped(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.SearchAndOpen()
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.Press("shift+tab")
	s.Type("aws:team=ml")
	text := s.WaitText(`✗ tag "aws:team=ml": the aws: prefix is reserved`)
	if strings.Contains(text, "Fix the tags") {
		t.Errorf("the refusal of a confirmation shows before any:\n%s", text)
	}
	s.Press("ctrl+u")
	s.Type("team=ml")
	s.WaitFor("the tag fixed", func(text string) bool {
		return strings.Contains(text, "team=ml") && !strings.Contains(text, "aws:team") && !strings.Contains(text, "✗ tag")
	})
	final(s)
}

// Tags typed with spaces are read by the one parser (model.AddTags): text that is no key is
// said, never read into a key.
func TestPurchaseTagsBySpaces(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.SearchAndOpen()
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.Press("shift+tab")
	s.Type("project team=research")
	s.WaitText(`✗ "project": want KEY=VALUE`)
	s.Press("ctrl+u")
	s.Type("team=research project=demo")
	s.WaitFor("two tags", func(text string) bool {
		return strings.Contains(text, "team=research project=demo") && !strings.Contains(text, "✗")
	})
	final(s)
}
