package main

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// cliTweaks change the factory of runCLI and cliFactory, for one test (tweakCLI).
var cliTweaks []func(*cmdutil.Factory)

func tweakCLI(t *testing.T, tweak func(*cmdutil.Factory)) {
	cliTweaks = append(cliTweaks, tweak)
	t.Cleanup(func() { cliTweaks = nil })
}

// cliFactory is the program's factory over stdout and stderr, with the test's tweaks.
func cliFactory(stdout, stderr io.Writer) *cmdutil.Factory {
	f := cmdutil.New(version, cmdutil.System(stdout, stderr))
	for _, tweak := range cliTweaks {
		tweak(f)
	}
	return f
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := runWith(context.Background(), cliFactory(&out, &errb), args)
	return code, out.String(), errb.String()
}
