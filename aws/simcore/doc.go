// Package simcore is the core of gpublock's AWS emulator: what every emulated service
// shares, so that EC2, STS, the Price List and SageMaker answer on one port as one
// account in one world. It holds the clock (which tests and demos move, also through GET
// and POST /_sim/clock), the seed's deterministic choices, the market's days, supply and
// fees, the payments' timing and the payfail fault, the faults common to every protocol
// (latency, throttling, errors, regions down, and the deny fault's registry of actions),
// AWS's request token buckets (GET /_sim/limits), the per-region state of each handler,
// and one state file with its lock (flock on FILE.lock), reloaded when another emulator
// wrote it and saved after every change, which is undone when it cannot be saved.
//
// A service is a handler package that makes a Protocol; New mounts the protocols and
// routes each request to the first that claims it (by X-Amz-Target prefix or a Match
// function), and to the one without either otherwise (EC2). The regions served are those
// where Capacity Blocks are sold (model.Regions); a request signed for another is
// refused, and so is a down= fault naming one.
package simcore
