package ui

import "github.com/gpublock/gpublock/ui/backend"

// The UI speaks to its capacity sources through ui/backend, a package of its own so that the
// adapter (aws/tuibackend) can implement it without importing the UI, and the UI never links
// the SDK. These names keep the UI's code reading as before.
type (
	Backend        = backend.Backend
	Identity       = backend.Identity
	SearchEvent    = backend.SearchEvent
	Suggestion     = backend.Suggestion
	Permission     = backend.Permission
	Outcome        = backend.Outcome
	PurchaseResult = backend.PurchaseResult
	ActionError    = backend.ActionError
	LaunchSpec     = backend.LaunchSpec
	LaunchResult   = backend.LaunchResult
	Subnet         = backend.Subnet
	BlockList      = backend.BlockList
	BlockProblem   = backend.BlockProblem
	ExtendResult   = backend.ExtendResult
)

const (
	NotDone        = backend.NotDone
	Done           = backend.Done
	OutcomeUnknown = backend.OutcomeUnknown
)
