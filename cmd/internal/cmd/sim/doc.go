// Package sim is `gpublock sim`: the emulator of the AWS APIs gpublock uses, served on one
// port, with its clock, seed, faults and request buckets set by flags.
package sim
