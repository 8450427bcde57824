// Package advise is `gpublock advise`: every way of paying for a job (Capacity Blocks,
// Training Plans, on-demand) priced and ranked with its reasons. It never buys.
package advise
