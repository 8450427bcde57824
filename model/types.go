package model

import "time"

// Offering is one reservation that can be bought, tagged with its source and the region it
// was found in: a Capacity Block as DescribeCapacityBlockOfferings returns it, or a training
// plan offering as SearchTrainingPlanOfferings does (its parts, its targets; its
// DurationHours the sum of its parts' hours, its Count the largest part's).
type Offering struct {
	Source           Source
	ID               string
	Region           string
	AvailabilityZone string
	InstanceType     string
	Count            int
	Start, End       time.Time
	DurationHours    int // whole hours
	DurationMinutes  int // minutes past the whole hours (near-term offerings)
	Fee              Money
	Currency         string
	Tenancy          string
	UltraServerType  string
	UltraServerCount int
	ZoneType         string   // availability-zone, or local-zone (AWS's ZoneType)
	Targets          []string `json:",omitempty"` // a training plan's target resources
	// Parts are a training plan's reserved capacities, or a Capacity Block offering's
	// segments (none for a plain offering, which is the one block its fields describe).
	Parts []Part `json:",omitempty"`
	// AskedAt is when the search that listed it was answered (zero: not known); a purchase
	// of an older one asks again (aws.Prepare). Not part of any output.
	AskedAt time.Time `json:"-"`
}

// Duration is the length of the block.
func (o Offering) Duration() time.Duration {
	return time.Duration(o.DurationHours)*time.Hour + time.Duration(o.DurationMinutes)*time.Minute
}

// Minutes is the length of the block in whole minutes.
func (o Offering) Minutes() int64 { return int64(o.DurationHours)*60 + int64(o.DurationMinutes) }

// Accelerators is the number of accelerators in the whole block.
func (o Offering) Accelerators() int {
	if len(o.Parts) > 0 {
		// The most held at once: a plan's parts follow one another, a block's segments
		// may run side by side in several zones.
		n := 0
		for i, at := range o.Parts {
			k := 0
			for j, p := range o.Parts {
				if i == j || !at.Start.IsZero() && !p.Start.After(at.Start) && p.End.After(at.Start) {
					k += Offering{InstanceType: p.InstanceType, Count: p.Count, UltraServerCount: p.UltraServerCount}.Accelerators()
				}
			}
			n = max(n, k)
		}
		return n
	}
	t, ok := LookupType(EC2Type(o.InstanceType))
	if !ok {
		return 0
	}
	if t.UltraServer {
		n := o.UltraServerCount
		if n == 0 {
			n = 1
		}
		return n * t.Accelerators
	}
	return o.Count * t.Accelerators
}

// HourlyRate is the fee per instance-hour, rounded to the micro-dollar.
func (o Offering) HourlyRate() Money {
	n := o.InstanceMinutes()
	if n == 0 {
		return Money{}
	}
	return o.Fee.MulRat(60, n)
}

// InstanceHourlyRate is the fee per instance-hour, also for an UltraServer, whose Count is
// a number of UltraServers (HourlyRate is then per UltraServer-hour): its fee is spread
// over the member instances, so that a column of instance-hour rates means the same on
// every row.
func (o Offering) InstanceHourlyRate() Money {
	name := o.UltraServerType
	if name == "" {
		name = o.InstanceType
	}
	t, ok := LookupType(name)
	if !ok || !t.UltraServer || o.Minutes() == 0 {
		return o.HourlyRate()
	}
	return o.Fee.MulRat(60, int64(max(1, o.UltraServerCount)*t.Instances)*o.Minutes())
}

// AcceleratorHourlyRate is the fee per accelerator-hour, rounded to the micro-dollar.
func (o Offering) AcceleratorHourlyRate() Money {
	n := o.AcceleratorMinutes()
	if n == 0 {
		return Money{}
	}
	return o.Fee.MulRat(60, n)
}

// BlockState is the state of a Capacity Block reservation.
type BlockState string

const (
	StatePaymentPending BlockState = "payment-pending"
	StatePaymentFailed  BlockState = "payment-failed"
	StateScheduled      BlockState = "scheduled"
	StateActive         BlockState = "active"
	StateExpired        BlockState = "expired"
	StateCancelled      BlockState = "cancelled"
	StateFailed         BlockState = "failed"
	StateUnavailable    BlockState = "unavailable"
)

// FreeCount is how many instances can be launched into b: AWS's available count once it is
// active; before its start, the count bought, since nothing runs in it until then (AWS
// reports none available while the payment is pending); none once it is over.
func (b Block) FreeCount() int {
	switch b.State {
	case StateActive:
		return b.AvailableCount
	case StateScheduled, StatePaymentPending:
		return b.TotalCount
	}
	return 0
}

// Block is a bought reservation of either source: a Capacity Block (a capacity reservation
// of type capacity-block, with what is known of its block, status, instances and
// extensions), or a training plan (ReservationID its name, with its ARN, targets, parts and
// upfront fee).
type Block struct {
	Source Source
	// Account is the AWS account that owns it, as AWS names it (a reservation's owner, a
	// plan's ARN); "" when the listing did not say.
	Account          string `json:",omitempty"`
	ReservationID    string
	BlockID          string
	Region           string
	AvailabilityZone string
	InstanceType     string
	Platform         string
	Tenancy          string
	TotalCount       int // the count bought, also before the start
	AvailableCount   int
	RunningCount     int
	State            BlockState
	Start, End       time.Time
	Created          time.Time
	Interconnect     string // ok, impaired, insufficient-data, or "" when unknown
	UnavailableCount int    // instances' capacity AWS reports unavailable (DescribeCapacityBlockStatus)
	Tags             map[string]string
	Instances        []Instance
	Extensions       []Extension
	ARN              string   `json:",omitempty"` // a training plan's
	Targets          []string `json:",omitempty"` // a training plan's target resources
	Parts            []Part   `json:",omitempty"` // a training plan's reserved capacities
	// Fee is a training plan's upfront fee as SageMaker states it; a block's fee paid is
	// read from the journal instead.
	Fee           Money  `json:",omitzero"`
	Currency      string `json:",omitempty"`
	StatusMessage string `json:",omitempty"`
}

// Hours is the reserved time: the sum of a plan's parts' hours, or the block's window.
func (b Block) Hours() int64 {
	if len(b.Parts) > 0 {
		return PartsHours(b.Parts)
	}
	return int64(b.End.Sub(b.Start) / time.Hour)
}

// LaunchTenancy is the Placement.Tenancy a launch into b must carry: "dedicated" for a
// dedicated block, which AWS refuses default-tenancy instances into; "" (AWS's default)
// otherwise.
func (b Block) LaunchTenancy() string {
	if b.Tenancy == "dedicated" {
		return "dedicated"
	}
	return ""
}

// TerminationAt is when AWS starts terminating the block's instances.
// HeldEnd is the end b holds its instances to once every extension being paid for is paid:
// its end, or a later one of an extension still payment-pending (AWS moves the end only once
// the payment is taken, but the fee is already owed, and so are its hours).
func (b Block) HeldEnd() time.Time {
	end := b.End
	for _, e := range b.Extensions {
		if e.Status == ExtensionPaymentPending && e.End.After(end) {
			end = e.End
		}
	}
	return end
}

func (b Block) TerminationAt() time.Time { return b.End.Add(-TerminationLead) }

// WarningAt is when AWS sends its expiration warning.
func (b Block) WarningAt() time.Time { return b.End.Add(-WarningLead) }

// Instance is an instance launched into a block.
type Instance struct {
	ID            string
	ReservationID string
	InstanceType  string
	State         string // pending, running, shutting-down, terminated, stopping, stopped
	LaunchTime    time.Time
	// StoppedAt is when it was stopped or terminated, as AWS states it (the time in its
	// state transition reason); zero while it runs, or when AWS gives none.
	StoppedAt time.Time `json:",omitzero"`
	SubnetID  string
	ImageID   string
}

// Live reports an instance not yet terminated: one that runs, or could again.
func (in Instance) Live() bool { return in.State != "terminated" }

// ExtensionStatus is the payment status of an extension.
type ExtensionStatus string

const (
	ExtensionPaymentPending   ExtensionStatus = "payment-pending"
	ExtensionPaymentFailed    ExtensionStatus = "payment-failed"
	ExtensionPaymentSucceeded ExtensionStatus = "payment-succeeded"
)

// ExtensionOffering is a way to lengthen a block, as DescribeCapacityBlockExtensionOfferings
// returns it.
type ExtensionOffering struct {
	ID               string
	ReservationID    string
	InstanceType     string
	Count            int
	AvailabilityZone string
	Start, End       time.Time // of the added time: Start is the block's current end
	DurationHours    int
	Fee              Money
	Currency         string
}

// Extension is a bought extension of a block.
type Extension struct {
	ReservationID string
	OfferingID    string
	InstanceType  string
	Count         int
	DurationHours int
	Status        ExtensionStatus
	PurchaseDate  time.Time
	Start, End    time.Time
	Fee           Money
	Currency      string
}
