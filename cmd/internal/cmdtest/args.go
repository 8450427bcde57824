package cmdtest

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

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

// AWSFlags are the AWS flags of args, read as the program's root reads them.
func AWSFlags(t *testing.T, args ...string) *cmdutil.AWSFlags {
	t.Helper()
	var f cmdutil.AWSFlags
	fs := pflag.NewFlagSet("gpublock", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f
}
