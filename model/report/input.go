// Package report is what the organization paid for its reservations and how much of them
// it used: fees by month, account, source and tag, and per reservation the hours reserved
// and used against on-demand. It is pure: the aws packages read AWS and the journal into
// an Input, and the command line, the terminal UI and the SVG writer draw what Build makes.
package report

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// Input is everything a report is made from.
type Input struct {
	// From and To bound the report: fees paid in [From, To), use inside [From, To).
	From, To time.Time
	// Now is the backend's time (the emulator's clock may be moved).
	Now          time.Time
	Reservations []Reservation
	// TagKeys are the tags fees are grouped by (team, project), in the order asked.
	TagKeys []string
	// Problems are what could not be read (an account, a region, a metric), in words
	// that name it; the report says them beside what it could read.
	Problems []string
}

// Reservation is one reservation as the report reads it: what AWS lists, the fees paid
// for it, and how much of it was used.
type Reservation struct {
	Account      string // the AWS account that owns it
	Region       string
	Source       model.Source
	ID           string // a Capacity Block's reservation id (cr-…), a training plan's ARN
	Name         string // a training plan's name; "" for a Capacity Block
	InstanceType string
	Count        int // instances reserved (a plan's largest part's count)
	// Start and End are the whole window, extensions included.
	Start, End time.Time
	// ReservedHours is instance-hours reserved over the whole window (a plan's parts
	// summed), extensions included.
	ReservedHours float64
	State         model.BlockState
	Tags          map[string]string
	Payments      []Payment
	Use           Use
	// OnDemandHourly is one instance's on-demand price per hour in the region, for the
	// same hours at on-demand; OnDemandKnown is false when the price list has none.
	OnDemandHourly model.Money
	OnDemandKnown  bool
	// Group is every reservation of the purchase that made this one, this one among them,
	// when it made several (one per segment of a segmented offering), in model.Group's
	// order; none when it made only this one.
	Group []string
}

// Payment is one fee paid for a reservation: its purchase or one extension.
type Payment struct {
	At     time.Time // when it was paid (bought or extended)
	Kind   PaymentKind
	Amount model.Money
	// Known is false when no one can say the amount: a Capacity Block bought outside this
	// machine's journal (AWS states no fee for a reservation once bought).
	Known bool
	// Origin says where Amount comes from: AWS's answer, this machine's journal, or both
	// agreeing.
	Origin Origin
	// Mismatch is a disagreement between AWS and the journal, in words ("" when none):
	// the report shows AWS's amount and says the journal's.
	Mismatch string
}

type PaymentKind string

const (
	Purchase  PaymentKind = "purchase"
	Extension PaymentKind = "extension"
)

type Origin string

const (
	FromAWS     Origin = "aws"
	FromJournal Origin = "journal"
	FromBoth    Origin = "aws+journal"
)

// Use is how much of a reservation was used inside the report's window.
type Use struct {
	// Known is false when nothing publishes its use (Why says so): unknown is never zero.
	Known bool
	Why   string
	// ReservedHours and UsedHours are instance-hours inside [From, To) ∩ the window;
	// UsedHours is read from CloudWatch's UsedInstanceCount for Capacity Reservations.
	ReservedHours, UsedHours float64
}

// DefaultTagKeys are the tags fees are grouped by when not told.
var DefaultTagKeys = []string{"team", "project"}

// DefaultMonths is how many calendar months a report covers when not told.
const DefaultMonths = 12

// MonthsTo is the first instant (UTC) of a window of months calendar months ending at to:
// the month that holds the instant before to is the last, so a window read at a month's
// first instant ends with the month before.
func MonthsTo(to time.Time, months int) time.Time {
	last := to.UTC().Add(-time.Nanosecond)
	return time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -(months - 1), 0)
}
