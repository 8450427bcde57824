package source

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// Backend is every source of the program together, as the terminal UI asks them: it is
// here, with the types it speaks in, so that the UI never links the SDK. aws/sources
// implements it, against AWS or against the emulator alike.
type Backend interface {
	Identity(ctx context.Context) (Identity, error)
	// Search streams what a search of every source q names finds (Search below); the
	// channel is closed when it is done or ctx is cancelled.
	Search(ctx context.Context, q model.Query) <-chan SearchEvent
	// LargestCount is the largest count, 1–64, with any offering; 0 when there is none.
	LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error)
	// Alternatives are nearby searches that find something, when a search finds nothing.
	Alternatives(ctx context.Context, q model.Query) ([]Suggestion, error)
	// Caps is what a source can do, which the screens and dialogs read instead of asking
	// which source it is.
	Caps(s model.Source) Caps

	// Prepare checks a purchase, an extension or a launch through the one spend path,
	// without spending. A refusal is an *ActionError, in the words the command line prints.
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
	// AttachLaunch attaches a launch to a block that has not started (payment-pending or
	// scheduled), to run once when it becomes active, by whichever gpublock watches the
	// blocks on this machine; nothing is sent now. A refusal is an *ActionError.
	AttachLaunch(ctx context.Context, b model.Block, spec LaunchSpec) (AttachedLaunch, error)
	// AttachLaunches attaches spec to each share's reservation with the share's count (a
	// launch across the reservations one purchase made, model.GroupLaunch), all or none,
	// each launched when its own reservation starts. A refusal is an *ActionError.
	AttachLaunches(ctx context.Context, shares []model.LaunchShare, spec LaunchSpec) ([]AttachedLaunch, error)
	// AttachedLaunches are the launches attached on this machine, done ones too.
	AttachedLaunches(ctx context.Context) ([]AttachedLaunch, error)
	// CancelAttached cancels the pending launch attached to a block. A refusal is an *ActionError.
	CancelAttached(ctx context.Context, reservationID string) (AttachedLaunch, error)
	// AutoExtendDue are the asks of the auto-extension policy p on blocks at now that no
	// gpublock on this machine has decided (blocks --watch, a TUI, before a restart or
	// after): those whose Verdict is model.AutoExtendNow ask for the extension, the
	// others for the policy's decline to be recorded. It records nothing.
	AutoExtendDue(ctx context.Context, p model.AutoExtendPolicy, blocks []model.Block, now time.Time) ([]AutoExtendAsk, error)
	// DecideAutoExtend records a step of an ask as blocks --watch records its own, under
	// the lock they share: the decision (taken, before the extension is bought, or
	// declined) in the journal and beside it, so that no gpublock here asks it again; a
	// decline, and the outcome of a decision taken (extended, failed), are notified. A
	// decision already recorded is refused with an error wrapping ErrAutoExtendDecided,
	// and nothing is recorded.
	DecideAutoExtend(ctx context.Context, ask AutoExtendAsk, o AutoExtendOutcome) error
	// JournalPath is the local journal of purchases and launches.
	JournalPath() (string, error)
	// Platforms are the instance platforms a block can be bought for, the default first.
	Platforms() []string

	// Blocks lists the account's reservations of every source (List below); the error is
	// set only when no region answered.
	Blocks(ctx context.Context, regions []string) (BlockList, error)
	ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error)
	// ExtensionChoices asks for every length an extension of b could have at once; the
	// error names the lengths that could not be asked, beside the choices found. found, when
	// not nil, is handed each choice as soon as its length has answered (from any goroutine).
	ExtensionChoices(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error)

	// Report is what was paid for the reservations of every source and account in regions
	// (none: every region an account lists), and how much of them was used, in [from, to):
	// what report.Build makes a report of. A zero to is the backend's now, the instant it is
	// read included (the input's To is that now).
	Report(ctx context.Context, regions []string, from, to time.Time) (report.Input, error)
}

// AttachedLaunch is a launch attached to a block that has not started (aws/atstart keeps them).
type AttachedLaunch struct {
	ReservationID, Region string
	Spec                  LaunchSpec
	State                 string // pending, launched, failed or cancelled
	AttachedAt            time.Time
	Sent                  bool     // an attempt was sent: it may have started instances
	Instances             []string // what it started
	Reason                string   // why it failed or was cancelled
}

// Pending: it waits for its block to start.
func (l AttachedLaunch) Pending() bool { return l.State == "pending" }

// Identity is who the calls are made as: the account that would be billed.
type Identity struct{ Account, ARN, UserID string }

// Suggestion is a nearby search that has offerings, offered when a search found none. It
// is never run in place of the person's query; the UI shows it and lets them choose.
type Suggestion struct {
	Description string      // e.g. "3d instead of 2d"
	Query       model.Query // the query to run if chosen
	Offerings   int         // how many offerings it found
}

// Subnet is a subnet instances can be launched into.
type Subnet struct {
	ID               string
	VpcID            string
	AvailabilityZone string
	CIDR             string
	AvailableIPs     int
	Default          bool   // the zone's default subnet
	Name             string // the Name tag, if any
}

// Prepared is an intent checked by the one spend path: what a confirmation shows before
// the word is typed.
type Prepared struct {
	Intent     Intent
	Permission Permission // the dry run's answer
	NoDryRun   string     // the source has no dry run: its sentence
	Settled    []Settled  // the open intents of the region, settled
	// Earlier is the outcome line of what an interrupted run bought of this intent; only
	// with Intent.Again does the intent go ahead then.
	Earlier *JournalEntry
	Account string // the account that pays
	// PayerErr is why the paying account could not be learnt, or nil: a confirmation
	// that cannot name it must not be asked.
	PayerErr error
	// Handle is the spend path's own part, handed back to its Commit untouched; a Prepared
	// made elsewhere (an answer a test gives) has none and is prepared again.
	Handle any
}

// ActionError is why a purchase, an extension or a launch did not happen, or may have
// (Outcome Unknown): the one error of a refused or failed spend, which the spend path and
// the sources return and both front ends read. Explanation is ready to show.
type ActionError struct {
	Outcome Outcome // NotBought when empty
	Explanation
	Err error
}

// Error is the explanation, the sentence both front ends say; the cause only when there is none.
func (e *ActionError) Error() string {
	if e.Summary == "" && e.Err != nil {
		return RedactError(e.Err)
	}
	return Redact(e.Explanation.String())
}

func (e *ActionError) Unwrap() error { return e.Err }

// Sold: the offering was sold to someone else, or expired, meanwhile. A refusal whose
// outcome is not known never counts: it may have bought.
func (e *ActionError) Sold() bool {
	return (e.Outcome == NotBought || e.Outcome == "") && soldCodes[e.Code]
}

// OverCap: the spend is above the spending cap.
func (e *ActionError) OverCap() bool { return errors.Is(e.Err, ErrOverSpendCap) }

// ReadOnly: read-only mode refused it.
func (e *ActionError) ReadOnly() bool { return errors.Is(e.Err, ErrReadOnly) }

// AlreadyBought: an interrupted run already bought it; nothing new was bought.
func (e *ActionError) AlreadyBought() bool { return errors.Is(e.Err, ErrAlreadyBought) }

// ErrOverSpendCap is wrapped by the error of a purchase above the spending cap.
var ErrOverSpendCap = errors.New("above the spending cap")

// ErrReadOnly is wrapped by the error of a purchase, extension or launch in read-only mode.
var ErrReadOnly = errors.New("read-only mode")

// ErrAlreadyBought is wrapped by the refusal to buy what an interrupted run already
// bought. Nothing new was bought; the caller reports it as done.
var ErrAlreadyBought = errors.New("already bought by an interrupted run")

// BlockList is one listing of the reservations of every source.
type BlockList struct {
	Blocks []model.Block
	// Fees is what was paid for each block (its purchase and its extensions), by FeeKey,
	// as this machine's purchase journal recorded it. A block bought elsewhere is absent:
	// AWS's reservation carries no fee. A training plan's is SageMaker's own figure.
	Fees map[string]model.Money
	// Now is the backend's time when the list was made: the emulator's clock may be moved, and
	// the countdowns must follow it.
	Now time.Time
	// Problems are the regions that failed, or answered with some details missing.
	Problems []BlockProblem
	// Quiet are the regions not listed this time because they had no block when last
	// listed; they are listed again every few minutes.
	Quiet []string
}

// FeeKey is b's key in BlockList.Fees: a training plan's ARN, which names its account (its
// name is unique only in its account and region); else the account and the reservation id,
// since two accounts' listings (two emulators, or ids AWS may repeat across accounts) can
// hold one id. A block whose listing names no account is keyed by its id alone until the
// account is known (the accounts backend re-keys it then).
func FeeKey(b model.Block) string {
	switch {
	case b.ARN != "":
		return b.ARN
	case b.Account != "":
		return b.Account + "/" + b.ReservationID
	}
	return b.ReservationID
}

// BlockProblem is a region whose part of the listing failed (Partial: some details missing).
type BlockProblem struct {
	Region  string   // the regions, "us-east-1, us-west-2"
	Regions []string // none for a failure that names no region
	Partial bool
	Message string
	// Account, in a listing of several accounts, names the account whose part this is
	// ("account 222233334444 (profile b)"), which Message begins with; "" in a listing of
	// one account.
	Account string
}

// Failures are the list's problems by region; their Problems are left out. The problems
// of an account of several are its own: they go in Accounts, not in Failed or Partial, since
// another account may have read the same region.
func (l BlockList) Failures() ListingFailures {
	lf := ListingFailures{Failed: map[string]bool{}, Partial: map[string]bool{}}
	for _, p := range l.Problems {
		if p.Account != "" {
			if !slices.Contains(lf.Accounts, p.Account) {
				lf.Accounts = append(lf.Accounts, p.Account)
			}
			continue
		}
		lf.Other = lf.Other || len(p.Regions) == 0
		for _, r := range p.Regions {
			if p.Partial {
				lf.Partial[r] = true
			} else {
				lf.Failed[r] = true
			}
		}
	}
	return lf
}

// Accounts is a Backend over several accounts (aws/accounts): its listings are every
// account's, while searches and spending stay in the first, the account that pays.
type Accounts interface {
	// Accounts are the accounts listed, the one that pays first.
	Accounts() []Account
	// In is the backend of the account with this id, the home account's too; ok is false
	// when the id is none of them, or not learnt yet. It makes no call.
	In(account string) (b Backend, ok bool)
}

// Account is one account of a listing over several.
type Account struct {
	ID      string // the 12-digit id, "" until learnt
	Profile string // the shared-config profile it is reached by; "" for the default
}

// Name is the account in a sentence: "account 222233334444 (profile b)", "profile b" while
// its id is not known.
func (a Account) Name() string {
	profile := "profile " + a.Profile
	if a.Profile == "" {
		profile = "the default profile"
	}
	if a.ID == "" {
		return profile
	}
	return "account " + a.ID + " (" + profile + ")"
}
