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
	// CheckPurchase is the DryRun of a purchase: may this identity buy the offering?
	CheckPurchase(ctx context.Context, o model.Offering, platform string) (Permission, error)
	// Purchase buys the offering once; after a lost reply it says what it found. A refusal
	// or failure is an *ActionError.
	Purchase(ctx context.Context, o model.Offering, platform string, tags map[string]string) (PurchaseResult, error)
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

// PurchaseResult is a finished purchase.
type PurchaseResult struct {
	RequestID string // the gpublock:request-id tag of the reservation
	Block     model.Block
	// Recovered: the reply was lost and the reservation found afterwards by its tag.
	Recovered bool
	// Settled says what became of purchases and extensions an earlier crash left open,
	// settled before this one; NotRecorded, when set, is why the journal could not record
	// this purchase's outcome (the purchase stands).
	Settled     []string
	NotRecorded string
}

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

// LaunchResult is a finished launch.
type LaunchResult struct {
	RequestID string
	SubnetID  string
	Instances []model.Instance
}

// Subnet is a subnet of a zone.
type Subnet struct {
	ID, VpcID, AvailabilityZone, CIDR, Name string
	AvailableIPs                            int
	Default                                 bool
}
