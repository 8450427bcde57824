package launch

import (
	"strings"

	"github.com/gpublock/gpublock/model"
)

// The images the form offers against the emulator when none is configured: the emulator's
// x86_64 Deep Learning image, or its Arm one for blocks of GB200 (Grace) UltraServers,
// since EC2 refuses an image of another architecture than the instance's.
const (
	DemoAMI    = "ami-0123456789abcdef0"
	DemoArmAMI = "ami-0a1b2c3d4e5f60718"
)

// DemoAMIFor is the emulator's image for a block of typ.
func DemoAMIFor(typ string) string {
	if t, ok := model.LookupType(typ); ok && strings.HasPrefix(t.MemberType, "p6e-gb200") {
		return DemoArmAMI
	}
	return DemoAMI
}
