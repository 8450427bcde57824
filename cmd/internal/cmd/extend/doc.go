// Package extend is `gpublock extend`: the extensions a Capacity Block or Training Plan is
// offered (--list), and buying one after a typed confirmation.
package extend
