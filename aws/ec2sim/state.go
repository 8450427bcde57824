package ec2sim

import (
	"slices"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

// Lifecycle timings on the emulator's clock.
const (
	maxPaymentDelay  = simcore.DefaultMaxPaymentDelay
	instancePending  = 45 * time.Second // pending → running
	instanceShutdown = time.Minute      // shutting-down → terminated, when the slot frees
	terminatedShown  = time.Hour        // terminated instances stay visible this long
)

// regionState is everything one region remembers. It is saved as JSON in the state file.
type regionState struct {
	simcore.Market[offering, extOffering]
	Reservations []*reservation `json:"reservations"`
	// Instances are kept after DescribeInstances stops showing them: they are the
	// reservations' use, which CloudWatch's metrics answer for up to 15 months.
	Instances []*instance `json:"instances"`
	Counter   int         `json:"counter"` // for IDs of reservations, instances and launches
	// ClientTokens makes RunInstances idempotent, as AWS's is.
	ClientTokens map[string]string `json:"clientTokens"` // token → launch (r-) ID
	KeyPairs     []*keyPair        `json:"keyPairs,omitempty"`
	// ZoneGroups holds the opt-in status the account set for Local Zone groups.
	ZoneGroups      map[string]string `json:"zoneGroups,omitempty"`
	LaunchTemplates []*launchTemplate `json:"launchTemplates,omitempty"`

	// failing are the reservations with a payment (theirs or an extension's) that fails
	// and whose capacity has not yet gone back to the market: what settlePayments looks
	// at. Rebuilt from the reservations when the state is loaded.
	failing []*reservation
	// byID and byBlock index the reservations by reservation and by Capacity Block id.
	byID, byBlock map[string]*reservation
	// prunedAt is when pruneOfferings last ran: it walks every quote given, so it runs at
	// most once an emulator minute rather than on every search.
	prunedAt time.Time
}

// add records a reservation bought.
func (rs *regionState) add(r *reservation) {
	rs.Reservations = append(rs.Reservations, r)
	rs.byID[r.ID], rs.byBlock[r.BlockID] = r, r
	rs.watchPayment(r)
}

// toRelease reports whether the reservation, or one of its extensions, has a failing
// payment whose capacity is still to be released.
func (r *reservation) toRelease() bool {
	if r.PaymentFails && !r.Released {
		return true
	}
	for _, e := range r.Extensions {
		if e.PaymentFails && !e.Released {
			return true
		}
	}
	return false
}

// watchPayment has settlePayments look at r when a payment of it is to fail.
func (rs *regionState) watchPayment(r *reservation) {
	if r.toRelease() && !slices.Contains(rs.failing, r) {
		rs.failing = append(rs.failing, r)
	}
}

// fill makes a new state, or one loaded from JSON, safe to use.
func (rs *regionState) fill() {
	rs.FillMarket()
	if rs.ClientTokens == nil {
		rs.ClientTokens = map[string]string{}
	}
	// A hand-edited file may hold nulls, or instances of a reservation that is gone.
	rs.Reservations = slices.DeleteFunc(rs.Reservations, func(r *reservation) bool { return r == nil })
	for _, r := range rs.Reservations {
		r.Extensions = slices.DeleteFunc(r.Extensions, func(e *extension) bool { return e == nil })
	}
	rs.KeyPairs = slices.DeleteFunc(rs.KeyPairs, func(k *keyPair) bool { return k == nil })
	rs.LaunchTemplates = slices.DeleteFunc(rs.LaunchTemplates, func(t *launchTemplate) bool { return t == nil })
	rs.failing, rs.byID, rs.byBlock, rs.prunedAt = nil, map[string]*reservation{}, map[string]*reservation{}, time.Time{}
	for _, r := range rs.Reservations {
		rs.byID[r.ID], rs.byBlock[r.BlockID] = r, r
		rs.watchPayment(r)
	}
	rs.Instances = slices.DeleteFunc(rs.Instances, func(in *instance) bool {
		return in == nil || rs.reservation(in.ReservationID) == nil
	})
}

type offering struct {
	ID           string      `json:"id"`
	Region       string      `json:"region"`
	AZ           string      `json:"az"`
	AZID         string      `json:"azId"`
	ZoneType     string      `json:"zoneType"`
	CatalogType  string      `json:"catalogType"` // for supply: the type or UltraServer type
	InstanceType string      `json:"instanceType"`
	Count        int         `json:"count"`
	Units        int         `json:"units"`
	UltraType    string      `json:"ultraType,omitempty"`
	UltraCount   int         `json:"ultraCount,omitempty"`
	Start        time.Time   `json:"start"`
	End          time.Time   `json:"end"`
	Fee          model.Money `json:"fee"`
	Issued       time.Time   `json:"issued"`
	Gone         bool        `json:"gone,omitempty"` // bought (by us or, with the sold fault, by someone else)
	// Segments, when there are any, are what a purchase makes: one reservation each.
	// The top-level fields then describe the whole (see segmentsFee and split).
	Segments []segment `json:"segments,omitempty"`
	Tenancy  string    `json:"tenancy,omitempty"` // "" is default
}

// tenancy is how EC2 names a tenancy kept as "" for its default.
func tenancy(t string) string {
	if t == "" {
		return tenancyDefault
	}
	return t
}

const (
	tenancyDefault   = "default"
	tenancyDedicated = "dedicated"
)

// segment is one distinct block of a segmented offering: its own zone, count, schedule
// and fee. A purchase makes one Capacity Reservation (and one Capacity Block) of it.
type segment struct {
	AZ           string      `json:"az"`
	AZID         string      `json:"azId"`
	ZoneType     string      `json:"zoneType"`
	InstanceType string      `json:"instanceType"`
	Count        int         `json:"count"`
	Units        int         `json:"units"` // supply taken: instances (segments are never UltraServers)
	Start        time.Time   `json:"start"`
	End          time.Time   `json:"end"`
	Fee          model.Money `json:"fee"`
}

// parts are what buying the offering makes: its segments, or the offering itself as one.
func (o *offering) parts() []segment {
	if len(o.Segments) > 0 {
		return o.Segments
	}
	return []segment{{AZ: o.AZ, AZID: o.AZID, ZoneType: o.ZoneType, InstanceType: o.InstanceType, Count: o.Count, Units: o.Units, Start: o.Start, End: o.End, Fee: o.Fee}}
}

type extOffering struct {
	simcore.ExtensionOffer
	ReservationID string `json:"reservationId"`
}

type reservation struct {
	ID           string    `json:"id"`
	BlockID      string    `json:"blockId"`
	Region       string    `json:"region"`
	AZ           string    `json:"az"`
	AZID         string    `json:"azId"`
	ZoneType     string    `json:"zoneType"`
	CatalogType  string    `json:"catalogType"`
	InstanceType string    `json:"instanceType"`
	Platform     string    `json:"platform"`
	Count        int       `json:"count"`
	Units        int       `json:"units"`
	UltraType    string    `json:"ultraType,omitempty"`
	UltraCount   int       `json:"ultraCount,omitempty"`
	Start        time.Time `json:"start"`
	OrigEnd      time.Time `json:"origEnd"`
	Created      time.Time `json:"created"`
	simcore.Payment
	Tenancy    string       `json:"tenancy,omitempty"` // "" is default
	OfferingID string       `json:"offeringId"`
	Fee        model.Money  `json:"fee"`
	Tags       []tag        `json:"tags"`
	Extensions []*extension `json:"extensions"`
}

type extension struct{ simcore.Extension }

func (e *extension) status(now time.Time) model.ExtensionStatus {
	switch {
	case e.Pending(now):
		return model.ExtensionPaymentPending
	case e.Failed(now):
		return model.ExtensionPaymentFailed
	}
	return model.ExtensionPaymentSucceeded
}

// end is the block's end at now: extensions move it once paid; a failed one never does.
func (r *reservation) end(now time.Time) time.Time {
	end := r.OrigEnd
	for _, e := range r.Extensions {
		if e.status(now) == model.ExtensionPaymentSucceeded && e.End.After(end) {
			end = e.End
		}
	}
	return end
}

// state is the block's state at now. payment-failed is final: the block never starts,
// and it stays listed in that state.
func (r *reservation) state(now time.Time) model.BlockState {
	switch {
	case r.Failed(now):
		return model.StatePaymentFailed
	case !now.Before(r.end(now)):
		return model.StateExpired
	case r.Pending(now):
		return model.StatePaymentPending
	case now.Before(r.Start):
		return model.StateScheduled
	}
	return model.StateActive
}

func (r *reservation) pendingExtension(now time.Time) bool {
	for _, e := range r.Extensions {
		if e.status(now) == model.ExtensionPaymentPending {
			return true
		}
	}
	return false
}

// used counts the instances holding a slot of the reservation at now.
func (rs *regionState) used(r *reservation, now time.Time) int {
	n := 0
	for _, in := range rs.Instances {
		if in.ReservationID == r.ID && in.holdsSlot(r, now) {
			n++
		}
	}
	return n
}

// available is the count that can still be launched: zero until the block is active.
func (rs *regionState) available(r *reservation, now time.Time) int {
	if r.state(now) != model.StateActive {
		return 0
	}
	return max(0, r.Count-rs.used(r, now))
}

func (rs *regionState) reservation(id string) *reservation { return rs.byID[id] }

func (rs *regionState) block(id string) *reservation { return rs.byBlock[id] }

type instance struct {
	ID            string    `json:"id"`
	LaunchID      string    `json:"launchId"`              // r-…, one per RunInstances
	ClientToken   string    `json:"clientToken,omitempty"` // the RunInstances token, for the client-token filter
	ReservationID string    `json:"reservationId"`
	BlockID       string    `json:"blockId"`
	ImageID       string    `json:"imageId"`
	InstanceType  string    `json:"instanceType"`
	SubnetID      string    `json:"subnetId"`
	VpcID         string    `json:"vpcId"`
	AZ            string    `json:"az"`
	PrivateIP     string    `json:"privateIp"`
	KeyName       string    `json:"keyName,omitempty"`
	Groups        []string  `json:"groups,omitempty"` // security group IDs; none saved before groups were checked
	LaunchIndex   int       `json:"launchIndex"`
	Tenancy       string    `json:"tenancy,omitempty"` // "" is default
	Launched      time.Time `json:"launched"`
	TerminateAt   time.Time `json:"terminateAt,omitzero"`
	Tags          []tag     `json:"tags"`
}

// terminateAt is when the instance starts shutting down: when asked, or 30 minutes
// before its block ends, whichever is first.
func (in *instance) terminateAt(r *reservation, now time.Time) time.Time {
	t := r.end(now).Add(-model.TerminationLead)
	if !in.TerminateAt.IsZero() && in.TerminateAt.Before(t) {
		t = in.TerminateAt
	}
	return t
}

type instanceState struct {
	code int
	name string
}

var (
	statePending      = instanceState{0, "pending"}
	stateRunning      = instanceState{16, "running"}
	stateShuttingDown = instanceState{32, "shutting-down"}
	stateTerminated   = instanceState{48, "terminated"}
)

func (in *instance) state(r *reservation, now time.Time) instanceState {
	term := in.terminateAt(r, now)
	switch {
	case !now.Before(term.Add(instanceShutdown)):
		return stateTerminated
	case !now.Before(term):
		return stateShuttingDown
	case now.Before(in.Launched.Add(instancePending)):
		return statePending
	}
	return stateRunning
}

func (in *instance) holdsSlot(r *reservation, now time.Time) bool {
	return in.state(r, now) != stateTerminated
}

// visible reports whether DescribeInstances still shows the instance.
func (in *instance) visible(r *reservation, now time.Time) bool {
	return now.Before(in.terminateAt(r, now).Add(instanceShutdown + terminatedShown))
}
