package blocks

import (
	"fmt"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Warning is the kind of a block's warning; the rules are model's, which the command line
// calls too.
type Warning = model.WarningKind

const (
	NoWarning       = model.NoWarning
	Idle            = model.WarnIdle
	PaymentPending  = model.WarnPaymentPending
	PaymentFailed   = model.WarnPaymentFailed
	Expiring        = model.WarnExpiring
	Terminating     = model.WarnTerminating
	ExtensionFailed = model.WarnExtensionFailed
	ExtendBy        = model.WarnExtendBy
	CantExtend      = model.WarnCantExtend
)

// WarningOf is the kind of the block's most urgent warning at now, with the default leads.
func WarningOf(b model.Block, now time.Time) Warning {
	return model.DefaultWarnRules().Top(b, now).Kind
}

// ToTermination is the time until AWS starts terminating the block's instances (30 minutes
// before the end); "—" where there is none to terminate ever.
func ToTermination(b model.Block, now time.Time) string {
	switch {
	case !b.HasTermination(now):
		return "—"
	case !now.Before(b.TerminationAt()):
		return "terminating"
	}
	return model.Span(b.TerminationAt().Sub(now))
}

// ConsoleURL is the reservation's page in the AWS console.
func ConsoleURL(b model.Block) string {
	if IsPlan(b) {
		// The console's page of one plan has no documented address; its list of plans is safe.
		return fmt.Sprintf("https://%s.console.aws.amazon.com/sagemaker/home?region=%s#/training-plans", b.Region, b.Region)
	}
	return fmt.Sprintf("https://%s.console.aws.amazon.com/ec2/home?region=%s#CapacityReservationDetails:crId=%s", b.Region, b.Region, b.ReservationID)
}
