// Package source is what a capacity source is to the front ends and to the one spend
// path, in plain types: it links no SDK, so that a front end can name a source without
// linking AWS.
package source

import (
	"context"
	"errors"
	"slices"

	"github.com/gpublock/gpublock/model"
)

// Source is one capacity source as the front ends use it, in model's types: what it sells
// (Search), buying it, its reservations, and lengthening them. Each source's package
// (aws/capacityblocks, aws/trainingplans) implements it; the program builds the list of
// them once, so that neither the TUI's backend nor the commands branch on a source.
type Source interface {
	// Caps is what sets the source apart, for the front ends to show or refuse.
	Caps() Caps
	// Explain is the source's sentence for one of its errors, redacted.
	Explain(err error) Explanation

	// Search streams the offerings of q, whose types are already named as the source
	// names them (model.Source.TypeIn).
	Search(ctx context.Context, q model.Query) <-chan SearchEvent
	// SpendCall is the source's own part of a purchase, an extension or a launch (its
	// checks of the intent, its call, its key and look-up, its dry run): the rest is the
	// one spend path's (spend.Service's Prepare and Commit). A kind it does not do is refused
	// with a *ActionError.
	SpendCall(ctx context.Context, in Intent) (SpendCall, error)

	// List lists the reservations of the regions, with the fees paid for them where
	// known. The error is one *RegionFailure per region that failed, joined.
	List(ctx context.Context, regions []string) (Listing, error)
	// Owns reports whether a reservation id has this source's form.
	Owns(id string) bool
	// FindBlock is the reservation with this id as it is now; found is false with a nil
	// error when the region answered without it.
	FindBlock(ctx context.Context, region, id string) (b model.Block, found bool, err error)

	// ExtensionChoices asks for every length the reservation could be extended by and
	// keeps the cheapest of each, shortest first, handing each to found (when not nil)
	// as it answers.
	ExtensionChoices(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error)
	ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error)

	// Intents is the source's part in settling the journal after a crash.
	Intents() IntentSource
}

// Caps are a source's differences that the front ends show instead of branching on
// which source it is.
type Caps struct {
	Source model.Source
	Noun   string // what it sells, in a sentence: "Capacity Block", "training plan"
	// DryRun is true when a purchase and an extension can be checked without spending;
	// NoDryRun, when it is false, is the sentence that says so.
	DryRun   bool
	NoDryRun string
	// Launch is true when gpublock launches instances into the reservation.
	Launch bool
	// Targets are what a reservation can be for (a plan's SageMaker resources); none
	// when the source has no such choice.
	Targets []string
	// PurchaseAction and ExtendAction are the IAM actions that spend.
	PurchaseAction, ExtendAction string
	// OfferingPrefix begins every offering id of the source's, when its ids have a
	// documented form; empty when they have none to rely on.
	OfferingPrefix string
	// Parts is true when an offering may be made of several parts, in different zones and
	// windows, which one row of a zone and a window (offerings -o csv) cannot hold.
	Parts bool
	// AllZones is true when a search can ask every zone of a region (EC2's
	// AllAvailabilityZones).
	AllZones bool
}

// Listing is one source's reservations in some regions.
type Listing struct {
	Blocks []model.Block
	// Listed are the regions asked this time; Quiet those left out because they had
	// nothing when last asked (a source that always asks every region has none).
	Listed, Quiet []string
	// Fees are the fees paid, by reservation id, where known.
	Fees map[string]model.Money
}

// ErrNoDryRun is wrapped by the refusal of a dry run (Intent.CheckOnly) of a source that has none.
var ErrNoDryRun = errors.New("no dry run")

// Rescanner is a Source (or a Backend) whose listing leaves quiet regions out for a while:
// Forget makes the next one ask every region again.
type Rescanner interface{ Forget() }

// Owning is the first of srcs (in their order) whose Owns accepts the reservation id; ok
// is false when none does.
func Owning(srcs []Source, id string) (Source, bool) {
	i := slices.IndexFunc(srcs, func(s Source) bool { return s.Owns(id) })
	if i < 0 {
		return nil, false
	}
	return srcs[i], true
}

// GroupFinder is a source whose purchase may make several reservations (a segmented
// Capacity Block offering's, one per segment).
type GroupFinder interface {
	// FindGroup is the reservation id and the others its purchase made, as model.Group
	// orders them; found is false when the region does not list id.
	FindGroup(ctx context.Context, region, id string) (group []model.Block, found bool, err error)
}

// FindGroup is src's FindGroup, or its FindBlock alone for a source without groups. The
// block id is returned as b, its group as group (b among them).
func FindGroup(ctx context.Context, src Source, region, id string) (b model.Block, group []model.Block, found bool, err error) {
	if g, ok := src.(GroupFinder); ok {
		group, found, err = g.FindGroup(ctx, region, id)
		for _, x := range group {
			if x.ReservationID == id {
				b = x
			}
		}
		return b, group, found, err
	}
	b, found, err = src.FindBlock(ctx, region, id)
	if found {
		group = []model.Block{b}
	}
	return b, group, found, err
}
