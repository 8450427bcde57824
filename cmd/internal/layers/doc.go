// Package layers holds the test that keeps gpublock's imports pointing down: the domain
// (model), the price maths (pricing) and the configuration file's reader import nothing of
// the AWS adapters or the TUI; the adapters nothing of the front ends, the TUI nothing of the
// commands; the TUI links no SDK, and only the tui command links Bubble Tea. It has no code
// of its own.
package layers
