// Package tui is the root command, `gpublock` with no subcommand: the Bubble Tea program
// on the sources the flags name, with the configuration file and the on-call work (warnings,
// notifications, launches at a block's start) wired in. It is the only command that links
// Bubble Tea.
package tui
