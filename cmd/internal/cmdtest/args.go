package cmdtest

// AMI is the image the launch tests start.
const AMI = "ami-0123456789abcdef0"

// LaunchArgs is `gpublock launch id` against the emulator at url, in us-east-1, then extra.
func LaunchArgs(url, id string, extra ...string) []string {
	return append([]string{"launch", id, "--endpoint-url", url, "--region", "us-east-1", "--ami", AMI}, extra...)
}

// ExtendArgs is `gpublock extend id --duration 1d` against the emulator at url, in
// us-east-1, then extra.
func ExtendArgs(url, id string, extra ...string) []string {
	return append([]string{"extend", id, "--endpoint-url", url, "--region", "us-east-1", "--duration", "1d"}, extra...)
}
