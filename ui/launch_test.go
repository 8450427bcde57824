package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/launch"
)

var instanceRE = regexp.MustCompile(`(i-[0-9a-f]+)\s+(\w+)`)

// A launch into an active block: the dry run allows the form, typing launch starts the
// instances, and their states show as they come up.
func TestLaunchIntoActiveBlock(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	blk := blockNow(t, c, bought.ReservationID)
	if blk.State != model.StateActive {
		t.Fatalf("block %s, want active", blk.State)
	}
	s := newLaunchScreen(t, b, blk, true)
	text := s.waitText("✓ allowed (ec2:RunInstances)")
	mustContain(t, text, "SIMULATED", launch.DemoAMI, blk.AvailabilityZone+": subnet-", "(default)", "Type launch")
	s.typeText("launch")
	s.press("enter")
	text = s.waitText("LAUNCHED 1 instance")
	m := instanceRE.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no instance on screen:\n%s", text)
	}
	// The instance boots on the emulator's clock.
	sim.Advance(5 * time.Minute)
	s.waitText(m[1] + "  running")
	finalHost(t, s)
	after := blockNow(t, c, blk.ReservationID)
	if len(after.Instances) != 1 || after.Instances[0].ID != m[1] {
		t.Fatalf("instances of the block: %+v, want %s", after.Instances, m[1])
	}
}

// A launch into a scheduled block is attached to its start through the backend, kept
// beside the journal for whichever gpublock watches; the form itself launches nothing,
// before the start or after it.
func TestLaunchIntoScheduledBlockAttaches(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	o, bought := boughtBlock(t, c)
	sim.Advance(10 * time.Minute) // paid: scheduled
	blk := blockNow(t, c, bought.ReservationID)
	if blk.State != model.StateScheduled {
		t.Fatalf("block %s, want scheduled", blk.State)
	}
	s := newLaunchScreen(t, b, blk, true)
	s.waitText("starts in")
	s.typeText("launch")
	s.press("enter")
	text := s.waitText("ATTACHED to " + blk.ReservationID)
	mustContain(t, text, "gpublock launch --pending")
	ls, err := b.AttachedLaunches(context.Background())
	if err != nil || len(ls) != 1 || ls[0].ReservationID != blk.ReservationID || !ls[0].Pending() || ls[0].Spec.ImageID != launch.DemoAMI {
		t.Fatalf("attached: %+v, %v; want the one launch, pending", ls, err)
	}
	sim.SetTime(o.Start.Add(time.Minute))
	s.press("esc")
	finalHost(t, s)
	if n := len(blockNow(t, c, blk.ReservationID).Instances); n != 0 {
		t.Fatalf("%d instances: the form launched, which only a watcher may", n)
	}
	if ls, _ := b.AttachedLaunches(context.Background()); len(ls) != 1 || !ls[0].Pending() {
		t.Fatalf("attached after the form closed: %+v; want it pending for a watcher", ls)
	}
}

// A subnet of another zone is refused by the check with a sentence naming both zones,
// and the launch cannot be confirmed.
func TestLaunchWrongZone(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	blk := blockNow(t, c, bought.ReservationID)
	other := "us-east-1b"
	if blk.AvailabilityZone == other {
		other = "us-east-1c"
	}
	subs, err := capacityblocks.New(c).Subnets(context.Background(), "us-east-1", other)
	if err != nil || len(subs) == 0 {
		t.Fatalf("subnets of %s: %v, %v", other, subs, err)
	}
	s := newLaunchScreen(t, b, blk, true)
	s.waitText("✓ allowed (ec2:RunInstances)")
	s.press("tab", "tab", "ctrl+u") // the confirmation wraps to the AMI, then the subnet
	s.typeText(subs[0].ID)
	s.press("enter")
	text := s.waitText("but the block is in " + blk.AvailabilityZone)
	mustContain(t, text, "is in "+other)
	s.typeText("launch")
	s.press("enter")
	s.waitText("The dry run did not allow the launch. esc closes.")
	finalHost(t, s)
	if n := len(blockNow(t, c, blk.ReservationID).Instances); n != 0 {
		t.Fatalf("%d instances launched into the wrong zone", n)
	}
}

// The receipt opens the launch form with l, on the block it has followed; on a block not
// yet started the form attaches the launch. A block still being paid for takes one too,
// the form saying that a failed payment cancels it.
func TestReceiptOpensLaunch(t *testing.T) {
	for _, paid := range []bool{true, false} {
		t.Run(map[bool]string{true: "scheduled", false: "payment-pending"}[paid], func(t *testing.T) {
			b, sim := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, New(actionTestOptions(b)), 160, 48)
			searchAndOpen(t, s)
			s.waitText("✓ allowed")
			s.typeText("buy")
			s.press("enter")
			s.waitText("BOUGHT")
			state, payment := "payment-pending", "Its payment is still being collected: a block whose payment fails never starts"
			if paid {
				sim.Advance(10 * time.Minute)
				s.waitText("l launches instances into it · esc closes")
				state = "scheduled"
			} else {
				s.waitText("l launches instances into it when it starts")
			}
			s.press("l")
			text := s.waitText("Launch into a block")
			if !strings.Contains(text, state+" · starts in") {
				t.Errorf("the launch form does not show the block's state and countdown:\n%s", text)
			}
			if got := strings.Contains(text, payment); got == paid {
				t.Errorf("the form says that a failed payment cancels the launch: %v, want %v:\n%s", got, !paid, text)
			}
			// Confirmed, it is attached to the block's start, not launched.
			s.typeText("launch")
			s.press("enter")
			s.waitText("ATTACHED to cr-")
			if ls, err := b.AttachedLaunches(context.Background()); err != nil || len(ls) != 1 || !ls[0].Pending() {
				t.Fatalf("attached from the receipt: %+v, %v", ls, err)
			}
			s.final()
		})
	}
}
