package trainingplans

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/gpublock/gpublock/model"
)

// Target resources a plan can be used by (SageMakerResourceName).
const (
	TargetTrainingJob     = "training-job"
	TargetHyperPodCluster = "hyperpod-cluster"
	TargetEndpoint        = "endpoint"
	TargetStudioApps      = "studio-apps"
)

// Targets lists the target resources, in the order the API documents them.
func Targets() []string {
	return []string{TargetTrainingJob, TargetHyperPodCluster, TargetEndpoint, TargetStudioApps}
}

// Plan statuses.
const (
	StatusPending   = "Pending"
	StatusScheduled = "Scheduled"
	StatusActive    = "Active"
	StatusExpired   = "Expired"
	StatusFailed    = "Failed"
)

// AllowedCounts are the instance counts a training plan may reserve (SageMaker docs).
var AllowedCounts = model.TrainingPlanCounts

// Capacity is one reserved capacity of an offering: a plan may be made of up to five,
// possibly with gaps between them.
type Capacity struct {
	AvailabilityZone string
	InstanceType     string // ml.*
	Count            int    // instances
	UltraServerType  string `json:",omitempty"`
	UltraServerCount int    `json:",omitempty"`
	Start, End       time.Time
	Hours            int64
}

// Offering is one training-plan offering.
type Offering struct {
	ID         string
	Region     string
	Targets    []string
	Capacities []Capacity
	// Hours is the reserved time: the sum of the capacities' lengths, never the span from
	// the first start to the last end, which a gap would inflate.
	Hours    int64
	Fee      model.Money
	Currency string
}

// Start is when the first capacity starts.
func (o Offering) Start() time.Time { return o.Capacities[0].Start }

// End is when the last capacity ends.
func (o Offering) End() time.Time { return o.Capacities[len(o.Capacities)-1].End }

// InstanceHours is the instance-hours reserved: each capacity's count × its hours.
func (o Offering) InstanceHours() int64 {
	var n int64
	for _, c := range o.Capacities {
		n += int64(c.Count) * c.Hours
	}
	return n
}

// ReservedCapacity is one reserved capacity of a plan.
type ReservedCapacity struct {
	ARN              string
	Status           string
	Type             string // Instance or UltraServer
	AvailabilityZone string
	ZoneID           string
	InstanceType     string
	Count            int
	UltraServerType  string `json:",omitempty"`
	UltraServerCount int    `json:",omitempty"`
	Start, End       time.Time
	Hours            int64
}

// Plan is a training plan, as Describe or List gives it.
type Plan struct {
	Name, ARN, Region string
	Status            string
	StatusMessage     string `json:",omitempty"`
	Start, End        time.Time
	Hours             int64
	Fee               model.Money
	Currency          string
	Instances         int
	Available, InUse  int
	Targets           []string
	Capacities        []ReservedCapacity
}

// ExtensionOffering is a way to lengthen a plan.
type ExtensionOffering struct {
	ID               string
	PlanARN          string
	AvailabilityZone string
	Start, End       time.Time
	Hours            int
	Fee              model.Money
	Currency         string
}

// Extension is a bought extension of a plan.
type Extension struct {
	OfferingID       string
	ExtendedAt       time.Time
	Start, End       time.Time
	Status           string
	PaymentStatus    string
	AvailabilityZone string
	Hours            int
	Fee              model.Money
	Currency         string
}

// instanceTypes are the types training plans reserve (ReservedCapacityInstanceType).
var instanceTypes = func() []string {
	var out []string
	for _, v := range types.ReservedCapacityInstanceType("").Values() {
		out = append(out, string(v))
	}
	return out
}()

// ultraServerTypes are the UltraServer types a plan can reserve.
var ultraServerTypes = []string{"ml.u-p6e-gb200x72", "ml.u-p6e-gb200x36"}

func offeringFrom(region string, o types.TrainingPlanOffering) (Offering, error) {
	fee, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil {
		return Offering{}, fmt.Errorf("offering %s: unreadable upfront fee %q: %w", aws.ToString(o.TrainingPlanOfferingId), aws.ToString(o.UpfrontFee), err)
	}
	off := Offering{ID: aws.ToString(o.TrainingPlanOfferingId), Region: region, Fee: fee, Currency: aws.ToString(o.CurrencyCode)}
	for _, t := range o.TargetResources {
		off.Targets = append(off.Targets, string(t))
	}
	for _, rc := range o.ReservedCapacityOfferings {
		c := Capacity{AvailabilityZone: aws.ToString(rc.AvailabilityZone), InstanceType: string(rc.InstanceType),
			Count: int(aws.ToInt32(rc.InstanceCount)), UltraServerType: aws.ToString(rc.UltraServerType),
			UltraServerCount: int(aws.ToInt32(rc.UltraServerCount)), Start: aws.ToTime(rc.StartTime).UTC(), End: aws.ToTime(rc.EndTime).UTC(),
			Hours: aws.ToInt64(rc.DurationHours)}
		if c.Hours == 0 && c.End.After(c.Start) {
			c.Hours = int64(c.End.Sub(c.Start) / time.Hour)
		}
		off.Hours += c.Hours
		off.Capacities = append(off.Capacities, c)
	}
	if len(off.Capacities) == 0 {
		return Offering{}, fmt.Errorf("offering %s has no reserved capacity", off.ID)
	}
	return off, nil
}

func capacitiesFrom(in []types.ReservedCapacitySummary) []ReservedCapacity {
	var out []ReservedCapacity
	for _, rc := range in {
		out = append(out, ReservedCapacity{ARN: aws.ToString(rc.ReservedCapacityArn), Status: string(rc.Status),
			Type: string(rc.ReservedCapacityType), AvailabilityZone: aws.ToString(rc.AvailabilityZone), ZoneID: aws.ToString(rc.AvailabilityZoneId),
			InstanceType: string(rc.InstanceType), Count: int(aws.ToInt32(rc.TotalInstanceCount)),
			UltraServerType: aws.ToString(rc.UltraServerType), UltraServerCount: int(aws.ToInt32(rc.UltraServerCount)),
			Start: aws.ToTime(rc.StartTime).UTC(), End: aws.ToTime(rc.EndTime).UTC(), Hours: aws.ToInt64(rc.DurationHours)})
	}
	return out
}

// fee reads an UpfrontFee; an empty one is zero (a plan listed before it is priced).
func fee(s *string) model.Money {
	m, err := model.ParseMoney(aws.ToString(s))
	if err != nil {
		return model.Money{}
	}
	return m
}

func targetsOf(in []types.SageMakerResourceName) []string {
	var out []string
	for _, t := range in {
		out = append(out, string(t))
	}
	return out
}

func extensionFrom(e types.TrainingPlanExtension) Extension {
	return Extension{OfferingID: aws.ToString(e.TrainingPlanExtensionOfferingId), ExtendedAt: aws.ToTime(e.ExtendedAt).UTC(),
		Start: aws.ToTime(e.StartDate).UTC(), End: aws.ToTime(e.EndDate).UTC(), Status: aws.ToString(e.Status),
		PaymentStatus: aws.ToString(e.PaymentStatus), AvailabilityZone: aws.ToString(e.AvailabilityZone),
		Hours: int(aws.ToInt32(e.DurationHours)), Fee: fee(e.UpfrontFee), Currency: aws.ToString(e.CurrencyCode)}
}
