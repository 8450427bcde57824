package launch

import "testing"

// The launch form's demo image fits the block's architecture: the emulator, as EC2,
// refuses an x86_64 image for GB200 (Arm) UltraServer members.
func TestDemoAMIForArchitecture(t *testing.T) {
	for typ, want := range map[string]string{
		"p5.48xlarge": DemoAMI, "trn2.48xlarge": DemoAMI, "u-p6e-gb200x72": DemoArmAMI, "u-p6e-gb200x36": DemoArmAMI, "unknown": DemoAMI,
	} {
		if got := DemoAMIFor(typ); got != want {
			t.Errorf("%s: %s, want %s", typ, got, want)
		}
	}
}
