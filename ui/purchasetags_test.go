package ui

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// A tag that cannot be sent is said under the field as it is typed: before, nothing showed
// until buy and enter.
func TestPurchaseTagErrorShownAsTyped(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, New(actionTestOptions(b)), 160, 48)
	searchAndOpen(t, s)
	s.waitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.press("shift+tab")
	s.typeText("aws:team=ml")
	text := s.waitText(`✗ tag "aws:team=ml": the aws: prefix is reserved`)
	if strings.Contains(text, "Fix the tags") {
		t.Errorf("the refusal of a confirmation shows before any:\n%s", text)
	}
	s.press("ctrl+u")
	s.typeText("team=ml")
	s.waitFor("the tag fixed", func(text string) bool {
		return strings.Contains(text, "team=ml") && !strings.Contains(text, "aws:team") && !strings.Contains(text, "✗ tag")
	})
	s.final()
}

// Tags typed with spaces are read by the one parser (model.AddTags): text that is no key is
// said, never read into a key.
func TestPurchaseTagsBySpaces(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, New(actionTestOptions(b)), 160, 48)
	searchAndOpen(t, s)
	s.waitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.press("shift+tab")
	s.typeText("project team=research")
	s.waitText(`✗ "project": want KEY=VALUE`)
	s.press("ctrl+u")
	s.typeText("team=research project=demo")
	s.waitFor("two tags", func(text string) bool {
		return strings.Contains(text, "team=research project=demo") && !strings.Contains(text, "✗")
	})
	s.final()
}
