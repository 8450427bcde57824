// Package model is gpublock's domain, pure Go with no I/O and provider-neutral: offerings
// and reservations that carry their source (EC2 Capacity Block, SageMaker Training Plan),
// queries and their rules, exact Money, durations, dates and windows, warnings and
// countdowns, the preconditions of launches and extensions, and their formatting. It imports
// neither the AWS SDK nor Bubble Tea.
package model
