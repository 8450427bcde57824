package backend

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Spender is the part of Backend that buys and launches. It is its own interface,
// embedded in Backend, so that the search's surface stays small to read.
type Spender interface {
	// Now is the time on the backend's clock: the emulator's can be moved, and a launch that
	// waits for a block's start fires on it.
	Now(ctx context.Context) time.Time
	// Prepare checks a purchase, an extension or a launch through the one spend path,
	// without spending: the refusals (read-only, the cap, the tags, an unsettled or earlier
	// purchase, the dry run) and the permission or the source's "no dry run" sentence. A
	// refusal is an *ActionError, in the words the command line prints.
	Prepare(ctx context.Context, in Intent) (Prepared, error)
	// Commit spends what Prepare allowed, once; after a lost reply it says what it found.
	// A refusal or failure is an *ActionError.
	Commit(ctx context.Context, p Prepared) (SpendResult, error)
	// Block is one reservation as it is now, with its instances; ok is false when the region
	// does not list it.
	Block(ctx context.Context, region, reservationID string) (b model.Block, ok bool, err error)
	// Subnets are the account's subnets in a zone, in the order a launch would pick them.
	Subnets(ctx context.Context, region, az string) ([]Subnet, error)
	// CheckLaunch is the DryRun of a launch, after the adapter's own checks (state, count,
	// the subnet's zone). A refusal other than a missing permission is an *ActionError.
	CheckLaunch(ctx context.Context, b model.Block, spec LaunchSpec) (Permission, error)
	// Launch starts instances in a block. A refusal or failure is an *ActionError.
	Launch(ctx context.Context, b model.Block, spec LaunchSpec) (LaunchResult, error)
	// JournalPath is the local journal of purchases and launches.
	JournalPath() (string, error)
	// Platforms are the instance platforms a block can be bought for, the default first.
	Platforms() []string
}

// Permission is the answer of a dry run.
type Permission struct {
	Allowed bool
	Action  string // the IAM action checked, e.g. ec2:PurchaseCapacityBlock
	Message string
}

// Outcome is what became of an action that spends money or starts instances.
type Outcome int

const (
	NotDone Outcome = iota
	Done
	// OutcomeUnknown: AWS did not answer and the check afterwards failed. Never buy again
	// on it.
	OutcomeUnknown
)

// SpendKind is what an intent does.
type SpendKind int

const (
	SpendPurchase SpendKind = iota
	SpendExtend
	SpendLaunch
)

// Intent is what a dialog asks to spend on.
type Intent struct {
	Kind      SpendKind
	Offering  model.Offering // a purchase's
	Platform  string
	Tags      map[string]string
	Block     model.Block             // the reservation extended or launched into
	Extension model.ExtensionOffering // an extension's
	Launch    LaunchSpec
}

// Prepared is an intent checked: what the dialog shows before the word is typed.
type Prepared struct {
	Intent     Intent
	Permission Permission
	NoDryRun   string   // the source has no dry run: its sentence
	Settled    []string // what became of the interrupted purchases settled first
	Account    string   // the account that pays
	// Handle is the adapter's own prepared intent, handed back to Commit untouched.
	Handle any
}

// SpendResult is a finished purchase, extension or launch.
type SpendResult struct {
	RequestID string // the request tag, plan name, journal id or client token
	Block     model.Block
	Extension model.Extension
	Instances []model.Instance
	SubnetID  string
	// Recovered: the reply was lost and what was bought found afterwards by its key.
	Recovered bool
	// Settled says what became of purchases and extensions an earlier crash left open,
	// settled before this one; NotRecorded, when set, is why the journal could not record
	// this outcome (what was bought stands).
	Settled     []string
	NotRecorded string
}

// The results of each kind are the one result.
type (
	PurchaseResult = SpendResult
	ExtendResult   = SpendResult
	LaunchResult   = SpendResult
)

// ActionError is why a purchase or launch did not happen, or may have (OutcomeUnknown).
type ActionError struct {
	Outcome Outcome
	Summary string
	Hint    string
	Code    string // the AWS error code, when AWS refused
	// Sold: the offering was sold to someone else, or expired, meanwhile.
	Sold     bool
	OverCap  bool
	ReadOnly bool
	// AlreadyBought: an interrupted run already bought it; nothing new was bought.
	AlreadyBought bool
	Err           error
}

func (e *ActionError) Error() string {
	if e.Hint != "" {
		return e.Summary + " " + e.Hint
	}
	return e.Summary
}

func (e *ActionError) Unwrap() error { return e.Err }

// LaunchSpec is what to start inside a block.
type LaunchSpec struct {
	ImageID          string
	Count            int
	KeyName          string
	SubnetID         string
	SecurityGroupIDs []string
	Name             string
	Tags             map[string]string
}

// Subnet is a subnet of a zone.
type Subnet struct {
	ID, VpcID, AvailabilityZone, CIDR, Name string
	AvailableIPs                            int
	Default                                 bool
}
