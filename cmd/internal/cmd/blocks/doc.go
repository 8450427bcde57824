// Package blocks is `gpublock blocks`: the account's Capacity Blocks (and Training Plans)
// with their countdowns and warnings, listed once or watched (--watch), the watch sending
// the warnings' notifications, extending by policy and reporting its health.
package blocks
