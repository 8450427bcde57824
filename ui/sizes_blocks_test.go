package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
)

var terminalSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// A block whose instance the emulator terminated at the block's termination (30 minutes
// before its end) still lists the instance in its detail, terminated, with when it
// stopped, at every size: not "Instances (0)".
func TestBlocksDetailKeepsTerminatedInstanceAtTerminalSizes(t *testing.T) {
	for _, sz := range terminalSizes {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		c, o, bought := buyBlock(t, b, testNow.Add(24*time.Hour))
		sim.SetTime(o.Start.Add(time.Hour))
		if _, err := capacityblocks.New(c).Launch(context.Background(), awaitBlock(t, b, bought.ReservationID), source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
			t.Fatalf("launch: %v", err)
		}
		running := blockNow(t, c, bought.ReservationID)
		if len(running.Instances) != 1 {
			t.Fatalf("launched %d instances, want 1", len(running.Instances))
		}
		id := running.Instances[0].ID
		sim.SetTime(o.End.Add(-20 * time.Minute))
		opts := testOptions(b)
		opts.StartOnBlocks = true
		s := newScreen(t, New(opts), sz[0], sz[1])
		s.waitText("1 of 1")
		s.press("enter")
		stopped := "stopped " + o.End.Add(-30*time.Minute).UTC().Format("Jan 02 15:04 UTC")
		// Where the pane is shorter than the detail, j scrolls it down to the instances.
		text := s.waitFor("the instance in the detail", func(text string) bool {
			if strings.Contains(text, id) && strings.Contains(text, stopped) {
				return true
			}
			s.press("j")
			return false
		})
		// The instance's line, and the one under it where the pane is too narrow for both.
		lines := strings.Split(text, "\n")
		line := ""
		for i, l := range lines {
			if strings.Contains(l, id) && i+1 < len(lines) {
				line = l + lines[i+1]
			}
		}
		if !strings.Contains(line, "terminated") || !strings.Contains(line, stopped) {
			t.Errorf("%dx%d: the detail does not keep the terminated instance with %q: %q\n%s", sz[0], sz[1], stopped, line, text)
		}
		s.final()
	}
}

// With every region failing alike (this identity may call nothing), the blocks screen
// names the regions together in one problem, not one problem per region, at every size.
func TestBlocksSaysARegionsSharedFailureOnceAtTerminalSizes(t *testing.T) {
	regions := "ap-northeast-1, ap-south-1, ap-southeast-2, eu-north-1, eu-west-2, us-east-1, us-east-2, us-west-2 could not be listed: AWS refused the call"
	for _, sz := range terminalSizes {
		b, _ := emulatorBackend(t, ec2sim.Faults{Deny: []string{"all"}})
		opts := testOptions(b)
		opts.StartOnBlocks = true
		s := newScreen(t, New(opts), sz[0], sz[1])
		text := s.waitFor("the failure", func(text string) bool { return strings.Contains(text, "could not be") })
		flat := unwrapPane(text)
		if n := strings.Count(flat, "could not be listed: AWS refused the call"); !strings.Contains(flat, regions) || n != 2 {
			// The two: the regions' problem, and the listing's own failure below it.
			t.Errorf("%dx%d: the regions are not named together once (%d times \"could not be listed\"):\n%s", sz[0], sz[1], n, text)
		}
		if n := strings.Count(flat, "us-west-2"); n != 1 {
			t.Errorf("%dx%d: us-west-2 named %d times, want once:\n%s", sz[0], sz[1], n, text)
		}
		s.final()
	}
}

// unwrapPane joins a screen's lines without the panes' borders, so that a sentence wrapped
// at the pane's width reads whole.
func unwrapPane(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "┃│")))
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
