package main

import (
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs the whole program's command line, as main does.
var cli = cmdtest.CLI{Exec: runWith, Version: version}
