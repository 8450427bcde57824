// Package launch is `gpublock launch`: instances launched into a bought Capacity Block,
// now or at its start, after a typed confirmation.
package launch
