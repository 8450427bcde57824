package source

import (
	"context"
	"sync/atomic"

	"github.com/gpublock/gpublock/model"
)

// SpendKind is what an intent does.
type SpendKind int

const (
	SpendPurchase SpendKind = iota
	SpendExtend
	SpendLaunch
)

// Words are how sentences name the kind: its noun and its past participle.
func (k SpendKind) Words() (noun, done string) {
	switch k {
	case SpendExtend:
		return "extension", "extended"
	case SpendLaunch:
		return "launch", "launched"
	}
	return "purchase", "bought"
}

// Intent is what a person asks to spend on.
type Intent struct {
	Kind      SpendKind
	Offering  model.Offering // a purchase's
	Platform  string         // a block's purchase: "" is DefaultPlatform
	Tags      map[string]string
	Block     model.Block             // the reservation extended or launched into
	Extension model.ExtensionOffering // an extension's; DurationHours is enough before Lookup
	Launch    LaunchSpec
	// Lookup, when set, finds what is bought (the command line runs again the search that
	// listed the offering, or asks for the extension offerings): Prepare calls it after
	// settling, so that what an interrupted run bought is told before a search says it
	// is gone.
	Lookup func(ctx context.Context, in *Intent) error
	// CheckOnly asks for the dry run alone (--dry-run): it is allowed in read-only mode, and
	// nothing is settled, since nothing is bought.
	CheckOnly bool
	// Again buys what an interrupted run already bought (Prepared.Earlier), on purpose.
	Again bool
	// RequestID, when set, is the request id (a launch's client token) fixed beforehand: a
	// launch attached to a block ahead of its start is sent under the same token however
	// often a killed watcher fires it again, so EC2 starts it once.
	RequestID string
}

// Fee is what the intent would spend.
func (in Intent) Fee() model.Money {
	switch in.Kind {
	case SpendPurchase:
		return in.Offering.Fee
	case SpendExtend:
		return in.Extension.Fee
	}
	return model.Money{}
}

// Region is where the intent spends.
func (in Intent) Region() string {
	if in.Kind == SpendPurchase {
		return in.Offering.Region
	}
	return in.Block.Region
}

// SpendCall is what a source adds to the one path for one intent.
type SpendCall struct {
	// Entry is the intent's journal line; Commit sets its request id and time.
	Entry JournalEntry
	// DryRun asks whether the identity may; nil when the source has none, and NoDryRun
	// then says so.
	DryRun   func(ctx context.Context) (Permission, error)
	NoDryRun string
	// Call makes the call once, under requestID (a tag, a name, a client token), marking
	// mark when it reaches the network, and fills res; ref is what the journal records
	// of what was bought ("" when the answer did not say).
	Call func(ctx context.Context, requestID string, mark *SentMark, res *SpendResult) (ref string, err error)
	// Find looks, after a lost reply, for what requestID bought, and fills res.
	Find func(ctx context.Context, requestID string, res *SpendResult) (ref string, found bool, err error)
	// Lost is what is told when the reply of requestID's call did not say.
	Lost func(requestID string) NoAnswer
	// Taken reports a refusal meaning the call's key is already used (a plan's name, its
	// request id): the call went through before, and is looked up as after a lost reply.
	Taken func(error) bool
	// Idempotent: requestID is the call's idempotency token (RunInstances' client token),
	// so the SDK may retry it and an interrupted call leaves nothing to settle.
	Idempotent bool
}

// NoAnswer says what a spend tells when its reply did not say what was bought.
type NoAnswer struct {
	NoAnswer string      // the error of an answer without what was bought
	What     string      // "training plan purchase", "extension"
	Unknown  Explanation // when the look-up failed as well
	NotFound string      // the hint when the look-up answered without it
}

// SpendResult is a finished purchase, extension or launch.
type SpendResult struct {
	RequestID  string // the request tag, plan name, journal id or client token
	Permission Permission
	Outcome    Outcome
	Block      model.Block // a purchase's reservation (the first, when it made several)
	// Blocks are every reservation a purchase made: one per segment of a segmented
	// Capacity Block offering, else Block alone.
	Blocks    []model.Block
	Extension model.Extension // an extension's
	Instances []model.Instance
	SubnetID  string
	// Recovered: the reply was lost and what was bought found by the source's key.
	Recovered bool
	// Settled are the interrupted purchases and extensions Prepare settled.
	Settled []Settled
	// JournalErr is why the outcome line could not be written (what was bought stands),
	// redacted.
	JournalErr error
}

// NotRecorded is why the journal could not record the outcome, "" when it did.
func (r SpendResult) NotRecorded() string {
	if r.JournalErr == nil {
		return ""
	}
	return r.JournalErr.Error()
}

// The results of each kind are the one result.
type (
	PurchaseResult = SpendResult
	ExtendResult   = SpendResult
	LaunchResult   = SpendResult
)

// Permission is the answer of a DryRun.
type Permission struct {
	Allowed bool
	Action  string // the IAM action checked, e.g. "ec2:PurchaseCapacityBlock"
	Message string // when not allowed: why, naming the missing action
}

// Outcome is what became of a purchase. There is no "maybe" unless AWS could not be
// asked afterwards; then it is Unknown, and the caller must not buy again.
type Outcome string

const (
	Bought    Outcome = "bought"
	NotBought Outcome = "not-bought"
	Unknown   Outcome = "unknown"
)

// LaunchSpec is what to start inside a block.
type LaunchSpec struct {
	ImageID          string // ami-…, required; its platform must match the block's
	Count            int    // 1 to the block's available count
	InstanceType     string // "" = the block's type (the member type for UltraServers)
	KeyName          string
	SubnetID         string // "" = a subnet of the block's zone, picked with DescribeSubnets
	SecurityGroupIDs []string
	Name             string // the Name tag
	Tags             map[string]string
}

// SentMark tells whether a call reached the network: a call that failed without Sent was
// never sent (credentials, signing) and certainly not carried out. awsapi.MarkSent is the
// middleware that marks it.
type SentMark struct{ sent atomic.Bool }

// Mark records that the call reached the network.
func (s *SentMark) Mark() { s.sent.Store(true) }

// Sent reports whether the call reached the network.
func (s *SentMark) Sent() bool { return s.sent.Load() }
