package source

import (
	"errors"

	"github.com/gpublock/gpublock/model"
)

// AutoExtendAsk is a decision the auto-extension policy asks for on one block, at one
// lead: extend Block by Days now (Verdict model.AutoExtendNow), or record that it cannot
// be (model.AutoExtendDecline, Reason says why). Key names it once per block and lead.
type AutoExtendAsk struct {
	model.AutoExtendDecision
	Block model.Block
	Days  int // the policy's length
}

// AutoExtendStep is what became of an ask. Taken and Declined are the decision, recorded
// once per block and lead; Extended and Failed are the outcome of a decision taken.
type AutoExtendStep string

const (
	// AutoExtendTaken is recorded before the extension is bought, so that nobody decides
	// it again whatever happens to the purchase.
	AutoExtendTaken    AutoExtendStep = "extend"
	AutoExtendDeclined AutoExtendStep = "declined"
	AutoExtendExtended AutoExtendStep = "extended"
	AutoExtendFailed   AutoExtendStep = "failed"
	// AutoExtendReopened is a decision to extend whose gpublock stopped before it sent
	// anything (no intent in the journal): nothing was bought, and the ask is open again
	// for the next watcher to decide.
	AutoExtendReopened AutoExtendStep = "reopened"
)

// Decision reports whether s is the decision itself (taken or declined), which is made
// once per block and lead, rather than the outcome of one.
func (s AutoExtendStep) Decision() bool { return s == AutoExtendTaken || s == AutoExtendDeclined }

// AutoExtendOutcome is one step of an ask, as DecideAutoExtend records it.
type AutoExtendOutcome struct {
	Step AutoExtendStep
	// Reason is why it was declined or failed, in words safe to show.
	Reason string
	// Extension is the extension chosen (taken, declined after it was looked up) or
	// bought (extended); RequestID is the spend path's journal id of the purchase.
	Extension model.ExtensionOffering
	RequestID string
}

// ErrAutoExtendDecided is wrapped by the refusal to record a decision on an ask that a
// gpublock on this machine (another one, or this one earlier) has recorded already.
var ErrAutoExtendDecided = errors.New("decided already")
