// Package sources links every capacity source into the program: importing it runs each
// source package's registration (aws.RegisterSource, from its init). A new source is one
// more import here.
package sources

import (
	_ "github.com/gpublock/gpublock/aws/trainingplans" // SageMaker Training Plans
)
